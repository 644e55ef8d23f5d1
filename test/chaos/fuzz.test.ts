/**
 * Fuzz: thousands of random and mutated command strings through `bot.handleText`, and random, malformed and
 * mutated payloads through the playground's HTTP routes. Nothing may crash or reject, every input is
 * answered (a usage or error card when it is wrong), and an input that fails validation sends nothing to
 * the API: no call at all when parsing or argument checks refuse it before the command runs, no write
 * when the command itself finds the mistake. Short form 2,000 strings; CHAOS_LONG=1 runs 10,000.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaygroundAdapter } from '../../adapters/playground/index.js';
import { seededRandom } from '../../bench/lib/stats.js';
import { MODULES } from '../../src/core/commands/index.js';
import { createBot } from '../../src/core/dispatch/bot.js';
import type { RequestInfo } from '../../src/core/dispatch/context.js';
import type { CommandModule } from '../../src/core/parse/command-spec.js';
import type { Response } from '../../src/core/text/cards.js';
import { createHttpServer } from '../../src/http/server.js';
import { spyOnHarness } from '../support/api-spy.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { LONG } from './support/checks.js';
import { fuzzInputs } from './support/fuzz-inputs.js';

const STRINGS = LONG ? 10_000 : 2_000;
const PAYLOADS = LONG ? 2_000 : 300;

/** Methods that change something on the service. */
const WRITES = new Set([
  'create',
  'caption',
  'update',
  'delete',
  'selectThumbnail',
  'render',
  'publish',
  'schedule',
  'cancel',
  'generate',
]);

interface Call {
  name: string;
  write: boolean;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

describe('fuzz', () => {
  let h: Harness;
  let alice: RequestInfo;
  const calls: Call[] = [];
  let ran = false;
  const outcomes: string[] = [];
  let bot: ReturnType<typeof createBot>;

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    h = await createHarness();
    alice = await h.user('alice');
    const original = spyOnHarness(h, {
      before: ({ name }) => calls.push({ name, write: WRITES.has(name.split('.')[1] ?? '') }),
    });
    h.deps.metrics = { command: (_label, outcome) => outcomes.push(outcome) };
    // The same modules, with every command handler (and form builder) marking that it ran: parsing and the
    // argument checks let the input through.
    const modules: CommandModule[] = MODULES.map((m) => ({
      ...m,
      ...(m.commands
        ? {
            commands: m.commands.map((c) => {
              const form = c.form;
              return {
                ...c,
                run: (ctx: Parameters<typeof c.run>[0], args: Parameters<typeof c.run>[1]) => {
                  ran = true;
                  return c.run(ctx, args);
                },
                // A missing argument opens the command's form; building it may read (e.g. resolve the video).
                ...(form
                  ? {
                      form: (ctx: Parameters<typeof form>[0], partial: Parameters<typeof form>[1]) => {
                        ran = true;
                        return form(ctx, partial);
                      },
                    }
                  : {}),
              };
            }),
          }
        : {}),
    }));
    bot = createBot(h.deps, modules);
    // Something real to point at: a completed video.
    const api = original(DEMO_KEY);
    const video = await api.videos.create(
      {
        script: 'A fuzz target video with a script long enough to pass.',
        voiceId: 'voice_aria_en',
        name: 'Fuzz target',
      },
      { idempotencyKey: 'fuzz-target' },
    );
    for (let i = 0; i < 40 && (await api.videos.status(video.id)).status !== 'completed'; i++)
      h.clock.advance(15_000);
    await h.store.users.setLast(alice.user, 'video', video.id);
    ids.push(video.id);
  }, 60_000);

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h?.close();
  });

  const ids: string[] = [];

  it(
    `${STRINGS} random and mutated command strings: answered, never crashing, nothing sent when invalid`,
    async () => {
      const inputs = fuzzInputs({ commands: MODULES.flatMap((m) => m.commands ?? []), ids }, STRINGS, 4242);
      const problems: string[] = [];
      const kinds: Record<string, number> = {};
      const stats = { handlerRan: 0, apiCalls: 0, writes: 0, usageCards: 0, errorCards: 0 };
      for (const text of inputs) {
        calls.length = 0;
        outcomes.length = 0;
        ran = false;
        // `unlink` is a valid input too: link again so later inputs reach the API.
        if (!(await h.store.keys.get(alice.user))) await h.user('alice');
        let response: Response;
        try {
          response = await bot.handleText(alice, text);
        } catch (error) {
          problems.push(`threw on ${JSON.stringify(text).slice(0, 120)}: ${String(error)}`);
          continue;
        }
        // Time moves on between inputs, as it does between people typing.
        h.clock.advance(2_000);
        kinds[response.kind] = (kinds[response.kind] ?? 0) + 1;
        const quoted = JSON.stringify(text).slice(0, 120);
        if (response.kind === 'none') problems.push(`no answer to ${quoted}`);
        if (response.kind === 'message' || response.kind === 'update') {
          if (!response.card.title.trim() && !response.card.text?.trim())
            problems.push(`empty card for ${quoted}`);
        }
        if (outcomes.includes('error')) {
          const text = response.kind === 'message' ? response.card.text : '';
          problems.push(`internal error on ${quoted}: ${text}`);
        }
        const card = response.kind === 'message' ? response.card : undefined;
        const errorCard = card?.title === 'Not done';
        const usage = errorCard && !!card?.fields?.some((f) => f.label === 'Usage');
        if (process.env.FUZZ_DEBUG && ran && errorCard)
          console.info(`RAN ${JSON.stringify(text).slice(0, 80)} → ${card?.text?.slice(0, 100)}`);
        stats.handlerRan += ran ? 1 : 0;
        stats.apiCalls += calls.length;
        stats.writes += calls.filter((c) => c.write).length;
        stats.usageCards += usage ? 1 : 0;
        stats.errorCards += errorCard ? 1 : 0;
        if (!ran && errorCard && calls.length > 0) {
          problems.push(
            `refused before running yet called ${calls.map((c) => c.name).join(', ')}: ${quoted}`,
          );
        }
        if (usage && calls.some((c) => c.write)) {
          problems.push(
            `input mistake yet wrote ${calls
              .filter((c) => c.write)
              .map((c) => c.name)
              .join(', ')}: ${quoted}`,
          );
        }
      }
      console.info(
        `fuzz: ${inputs.length} strings, answers ${JSON.stringify(kinds)}, ${JSON.stringify(stats)}`,
      );
      // The corpus reaches the commands (not only the parser) and the API.
      expect(stats.handlerRan).toBeGreaterThan(inputs.length / 10);
      expect(stats.apiCalls).toBeGreaterThan(inputs.length / 10);
      expect(problems).toEqual([]);
      expect(unhandled).toEqual([]);
    },
    LONG ? 600_000 : 120_000,
  );

  it(
    `${PAYLOADS} random and malformed playground payloads: never a 5xx, every accepted one answered`,
    async () => {
      const http = createHttpServer({
        logger: h.deps.logger,
        health: () => true,
        metrics: async () => ({ contentType: 'text/plain', body: '' }),
      });
      createPlaygroundAdapter({
        bot: h.bot,
        http,
        logger: h.deps.logger,
        clock: h.clock,
        workspace: 'W1',
        channels: ['C1'],
      });
      const { url } = await http.listen(0, '127.0.0.1');
      const random = seededRandom(99);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
      const actions = MODULES.flatMap((m) => m.actions ?? []).map((a) => a.action);
      const forms = MODULES.flatMap((m) => m.forms ?? []).map((f) => f.id);
      const junk = [
        '',
        'x',
        '💥',
        'a'.repeat(3000),
        '../../',
        '<b>',
        '\u0000',
        'null',
        '-1',
        ...ids,
        `${ids[0]}:v1`,
      ];
      const value = (): unknown =>
        pick([pick(junk), random() * 1e6, null, true, [], {}, [pick(junk)], { a: pick(junk) }, undefined]);
      const problems: string[] = [];
      const statuses: Record<string, number> = {};
      try {
        for (let i = 0; i < PAYLOADS; i++) {
          const route = pick(['command', 'action', 'form'] as const);
          const body: Record<string, unknown> = {
            user: random() < 0.9 ? 'alice' : value(),
            channel: random() < 0.9 ? 'C1' : value(),
          };
          if (route === 'command')
            body.text = random() < 0.7 ? pick([...junk, 'help', 'status last', 'videos']) : value();
          if (route === 'action') {
            Object.assign(body, {
              messageId: random() < 0.8 ? `m${i}` : value(),
              action: random() < 0.7 ? pick(actions) : value(),
              value: random() < 0.8 ? pick(junk) : value(),
            });
            if (random() < 0.3) body.choice = value();
          }
          if (route === 'form') {
            Object.assign(body, {
              formId: random() < 0.7 ? pick(forms) : value(),
              state: random() < 0.8 ? pick(junk) : value(),
              values:
                random() < 0.8
                  ? { [pick(['name', 'script', 'when', 'platforms', 'video', 'x'])]: pick(junk) }
                  : value(),
            });
          }
          for (const key of Object.keys(body)) if (random() < 0.05) delete body[key];
          const raw =
            random() < 0.05 ? `{"broken": ${JSON.stringify(body).slice(0, 20)}` : JSON.stringify(body);
          const res = await fetch(`${url}/playground/${route}`, {
            method: 'POST',
            headers: { 'content-type': random() < 0.95 ? 'application/json' : 'text/plain' },
            body: raw,
          });
          const text = await res.text();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status >= 500)
            problems.push(`${res.status} for ${route} ${raw.slice(0, 160)}: ${text.slice(0, 200)}`);
          if (res.status === 200) {
            const reply = JSON.parse(text) as { ok?: boolean; kind?: string; messages?: unknown[] };
            if (!reply.ok || !reply.kind)
              problems.push(`unclear answer for ${route} ${raw.slice(0, 160)}: ${text.slice(0, 200)}`);
            if (reply.kind === 'message' && !reply.messages?.length)
              problems.push(`message without messages for ${raw.slice(0, 160)}`);
          }
          h.clock.advance(1_000);
        }
      } finally {
        await http.close();
      }
      console.info(`fuzz: ${PAYLOADS} playground payloads, statuses ${JSON.stringify(statuses)}`);
      expect(problems).toEqual([]);
      expect(unhandled).toEqual([]);
    },
    LONG ? 600_000 : 120_000,
  );
});
