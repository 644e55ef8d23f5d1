/**
 * The interaction handler alone, with a scripted core: Discord's time limits (a slow core is deferred, a slow
 * autocomplete answers nothing in time), failures answered privately, and no token in any log line.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { DiscordAPIError, type REST } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { CommandRoutes } from '../../adapters/discord/commands.js';
import type { Inbound } from '../../adapters/discord/inbound.js';
import { createInteractionHandler } from '../../adapters/discord/interactions.js';
import { AdapterMemory } from '../../adapters/discord/memory.js';
import type { Bot } from '../../src/core/dispatch/bot.js';
import { defineCommand } from '../../src/core/parse/command-spec.js';
import type { Response } from '../../src/core/text/cards.js';
import { createLogger } from '../../src/observability/logger.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { cardText } from '../support/card-text.js';
import { latch, Notifier } from '../support/latch.js';
import { TestClock } from '../support/test-clock.js';
import { textOf, titleOf } from './read-message.js';
import type { Json } from './world.js';

const V2 = 1 << 15;
/** The container a card titled `title` (and nothing else) renders as. */
const v2Card = (title: string) =>
  expect.objectContaining({ type: 17, components: [{ type: 10, content: `### ${title}` }] });

const TOKEN = 'aW50ZXJhY3Rpb246c2VjcmV0LXRva2Vu';
const base = {
  id: '1',
  token: TOKEN,
  applicationId: '10',
  guildId: '20',
  channelId: '30',
  user: { id: '40', name: 'Alice' },
  roles: [],
};
const commands = [
  defineCommand({
    name: 'credits',
    summary: 'Credits',
    options: [],
    examples: [],
    run: async () => ({ kind: 'none' }),
  }),
  defineCommand({
    name: 'show',
    summary: 'Show',
    options: [{ name: 'video', kind: 'video', description: 'Video' }],
    examples: [],
    run: async () => ({ kind: 'none' }),
  }),
];

function setup(
  bot: Partial<Bot>,
  options: { deferAfterMs?: number; failRest?: boolean; refuseAnswers?: boolean } = {},
) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  });
  const calls: { method: string; route: string; body?: Json }[] = [];
  const record =
    (method: string) =>
    (route: string, o: { body?: Json } = {}) => {
      calls.push({ method, route, ...(o.body ? { body: o.body } : {}) });
      if (options.failRest) {
        return Promise.reject(
          new DiscordAPIError(
            { message: 'Unknown Webhook', code: 10015 },
            10015,
            404,
            method,
            `https://discord.com/api/v10/webhooks/10/${TOKEN}/messages/@original`,
            {},
          ),
        );
      }
      return Promise.resolve();
    };
  const rest = {
    options: { api: 'https://discord.com/api' },
    post: record('POST'),
    patch: record('PATCH'),
    delete: record('DELETE'),
  } as unknown as REST;
  const clock = new TestClock();
  const handle = createInteractionHandler({
    // Answer-first unless a test says otherwise (acknowledging first is tested on its own below).
    bot: { commands, mayAnswerWithForm: () => true, ...bot } as Bot,
    rest,
    routes: new CommandRoutes(commands),
    // What the adapter keeps between interactions, in a real store (SQLite in memory).
    memory: new AdapterMemory(
      openStore({ path: ':memory:', secretKey: randomBytes(32), clock }).interactions,
    ),
    logger,
    clock,
    deferAfterMs: options.deferAfterMs ?? 1_000,
    autocompleteTimeoutMs: 50,
  });
  const answers: Json[] = [];
  const answered = new Notifier();
  const reply = {
    callback: (body: Json) => {
      if (options.refuseAnswers) return Promise.reject(new Error('Unknown interaction'));
      answers.push(body);
      answered.notify();
      return Promise.resolve();
    },
  };
  return {
    handle: (i: Inbound) => handle(i, reply as never),
    answers,
    /** Resolves once `n` first responses went out. */
    answered: (n: number) => answered.until(() => answers.length >= n),
    calls,
    lines,
    clock,
  };
}

const command: Inbound = { kind: 'command', ...base, path: { command: 'reel', sub: 'credits' }, options: {} };
const card = (title: string, visibility: 'ephemeral' | 'channel' = 'ephemeral'): Response => ({
  kind: 'message',
  visibility,
  card: { title: cardText(title) },
});

describe('the interaction handler', () => {
  it('defers a slow core privately and edits the answer in', async () => {
    const core = latch();
    const t = setup(
      {
        handleCommand: async () => {
          await core.promise;
          return card('Credits: 500');
        },
      },
      { deferAfterMs: 20 },
    );
    const handling = t.handle(command);
    await t.clock.armed();
    t.clock.advance(20);
    await t.answered(1);
    core.open();
    await handling;
    expect(t.answers).toEqual([{ type: 5, data: { flags: 64 } }]);
    expect(t.calls).toEqual([
      {
        method: 'PATCH',
        route: `/webhooks/10/${TOKEN}/messages/%40original`,
        // The placeholder becomes a V2 card: the deferral cannot carry the flag, this edit sets it.
        body: expect.objectContaining({ flags: V2, components: [v2Card('Credits: 500')] }),
      },
    ]);
  });

  it('acknowledges a command that cannot answer with a form before the core starts, then edits the answer in', async () => {
    const order: string[] = [];
    const t = setup({
      mayAnswerWithForm: () => false,
      handleCommand: () => {
        order.push(`core started after ${t.answers.length} answer(s)`);
        return Promise.resolve(card('Credits: 500'));
      },
    });
    await t.handle(command);
    expect(t.answers).toEqual([{ type: 5, data: { flags: 64 } }]);
    expect(order).toEqual(['core started after 1 answer(s)']);
    expect(t.calls).toEqual([
      {
        method: 'PATCH',
        route: `/webhooks/10/${TOKEN}/messages/%40original`,
        // The placeholder becomes a V2 card: the deferral cannot carry the flag, this edit sets it.
        body: expect.objectContaining({ flags: V2, components: [v2Card('Credits: 500')] }),
      },
    ]);
  });

  it('acknowledged first, a channel answer is a public follow-up and the private placeholder goes', async () => {
    const t = setup({
      mayAnswerWithForm: () => false,
      handleCommand: async () => card('Subscribed', 'channel'),
    });
    await t.handle(command);
    expect(t.answers).toEqual([{ type: 5, data: { flags: 64 } }]);
    expect(t.calls.map((c) => `${c.method} ${c.route}`)).toEqual([
      `POST /webhooks/10/${TOKEN}`,
      `DELETE /webhooks/10/${TOKEN}/messages/%40original`,
    ]);
    // Public: IS_COMPONENTS_V2 without EPHEMERAL.
    expect(t.calls[0]?.body?.flags).toBe(V2);
    expect(titleOf(t.calls[0]?.body as Json)).toBe('Subscribed');
  });

  it("starts a command's work only once the other members' interactions of a burst are acknowledged", async () => {
    const log: string[] = [];
    const showDone = latch();
    const t = setup({
      mayAnswerWithForm: (name) => name === 'show',
      handleCommand: async (_req, name) => {
        log.push(`${name} starts with ${t.answers.length} answer(s) sent`);
        if (name === 'show') await showDone.promise;
        return card(name);
      },
    });
    const show: Inbound = { ...command, path: { command: 'reel', sub: 'show' } } as Inbound;
    // `show` answers in its first response (it may open a form) and is still working when `credits` is
    // acknowledged; `credits`'s work waits for `show`'s answer.
    const both = Promise.all([t.handle(show), t.handle(command)]);
    await t.answered(1);
    showDone.open();
    await both;
    expect(log).toEqual(['show starts with 0 answer(s) sent', 'credits starts with 2 answer(s) sent']);
  });

  it('does not run the core when Discord refused the acknowledgement (the interaction is gone)', async () => {
    let ran = false;
    const t = setup(
      {
        mayAnswerWithForm: () => false,
        handleCommand: () => {
          ran = true;
          return Promise.resolve(card('Credits: 500'));
        },
      },
      { refuseAnswers: true },
    );
    await t.handle(command);
    expect(ran).toBe(false);
    expect(t.lines.some((l) => l.includes('Unknown interaction'))).toBe(true);
    expect(t.calls).toEqual([]);
  });

  it('answers a fast core directly, public when the core says channel', async () => {
    const t = setup({ handleCommand: async () => card('Subscribed', 'channel') });
    await t.handle(command);
    expect(t.answers).toHaveLength(1);
    expect(t.answers[0]).toMatchObject({ type: 4, data: { flags: V2 } });
    expect(titleOf(t.answers[0]?.data)).toBe('Subscribed');
    expect(t.calls).toEqual([]);
  });

  it('answers an unexpected failure privately with a reference', async () => {
    const t = setup({
      handleCommand: () => Promise.reject(new Error('boom')),
    });
    await t.handle(command);
    expect(t.answers[0]).toMatchObject({ type: 4, data: { flags: 64 | V2 } });
    expect(titleOf(t.answers[0]?.data)).toBe('Not done');
    const [, ref] = /Something went wrong on my side \(ref `(\w+)`\)/.exec(textOf(t.answers[0]?.data)) ?? [];
    // The core's failure reply minted it: the logged line carries the same reference.
    expect(
      t.lines.some((line) => line.includes('unexpected failure') && line.includes(`"ref":"${ref}"`)),
    ).toBe(true);
  });

  it('answers autocomplete with nothing when the core is too slow', async () => {
    const core = latch();
    const t = setup({
      autocomplete: async () => {
        await core.promise;
        return [{ label: 'late', value: 'late' }];
      },
    });
    const handling = t.handle({
      kind: 'autocomplete',
      ...base,
      path: { command: 'reel', sub: 'show' },
      focused: { name: 'video', value: 'o' },
    });
    await t.clock.armed();
    t.clock.advance(49);
    await Promise.resolve();
    expect(t.answers).toEqual([]);
    t.clock.advance(1);
    await handling; // answered while the core is still working
    expect(t.answers).toEqual([{ type: 8, data: { choices: [] } }]);
    core.open();
  });

  it('caps suggestions at 25 and 100 characters', async () => {
    const t = setup({
      autocomplete: async () =>
        Array.from({ length: 40 }, (_, i) => ({
          label: `${'n'.repeat(150)}${i}`,
          value: i === 0 ? 'v'.repeat(101) : `v${i}`,
        })),
    });
    await t.handle({
      kind: 'autocomplete',
      ...base,
      path: { command: 'reel', sub: 'show' },
      focused: { name: 'video', value: '' },
    });
    const choices = t.answers[0]?.data.choices as { name: string; value: string }[];
    expect(choices).toHaveLength(25);
    expect(choices.every((c) => c.name.length <= 100 && c.value.length <= 100)).toBe(true);
    expect(choices[0]?.value).toBe('v1');
  });

  it('never logs an interaction token', async () => {
    const t = setup({ handleCommand: async () => ({ kind: 'none' }) }, { failRest: true });
    await t.handle(command);
    const log = t.lines.join('\n');
    expect(log).toContain('unexpected failure');
    expect(log).toContain('10015');
    expect(log).not.toContain(TOKEN);
  });
});
