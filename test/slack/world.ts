/**
 * The Slack end-to-end world: the harness (simulator over HTTP, real client, SQLite, core, poller, outbox),
 * the REAL Bolt app in HTTP mode mounted on the shared HTTP server, and the fake Slack Web API. Requests are
 * sent exactly as Slack sends them: form-encoded bodies signed with HMAC-SHA256 over `v0:timestamp:body`.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../adapters/slack/index.js';
import type { Config } from '../../src/config.js';
import type { Bot } from '../../src/core/dispatch/bot.js';
import { WorkspaceGate } from '../../src/core/workspace/workspace-gate.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { createHarness, DEMO_KEY, type Harness, type HarnessOptions } from '../support/harness.js';
import { type FakeMessage, FakeSlack } from './fake-slack.js';
import { blockLimitErrors } from './fake-slack-limits.js';

export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
export const BOT_TOKEN = 'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy';
export const TEAM = 'T0001';
export const CHANNEL = 'C0VIDEOS';
export const ALICE = 'U01ALICE';
export const BOB = 'U02BOB';

const FIXTURES = join(import.meta.dirname, 'fixtures');
export const fixture = <T = Record<string, unknown>>(name: string): T =>
  JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;

export const address = {
  user: (id: string) => `slack:${TEAM}:${id}`,
  channel: (id = CHANNEL) => `slack:${TEAM}:${id}`,
};

/** Slack's signature: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the signing secret. */
export function sign(body: string, timestamp: number, secret = SIGNING_SECRET): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SendOptions {
  /** Seconds since the epoch (default now, real time: Bolt checks against the real clock). */
  timestamp?: number;
  secret?: string;
  signature?: string;
}

export interface SlackWorld {
  h: Harness;
  fake: FakeSlack;
  http: HttpServer;
  adapter: SlackAdapter;
  eventsUrl: string;
  /** POSTs a raw body to /slack/events, signed; returns the HTTP status and body. */
  send(body: string, contentType: string, options?: SendOptions): Promise<{ status: number; text: string }>;
  /** `/reel <text>` as Slack sends it; resolves once Bolt acknowledged. */
  command(
    text: string,
    options?: SendOptions & {
      user?: string;
      userName?: string;
      channel?: string;
      triggerId?: string;
      /** Send `text` as is, not escaped the way Slack escapes what users type. */
      raw?: boolean;
      /** The workspace the command comes from (default the test team). */
      team?: string;
    },
  ): Promise<{ status: number; text: string; responseUrl: string; triggerId: string }>;
  /** A block_actions payload for a button/select found in `blocks` by core action. */
  click(
    message: { blocks?: unknown[] | undefined; ts: string; channel?: string; ephemeral?: boolean },
    action: string,
    options?: SendOptions & { user?: string; nth?: number; choice?: string; triggerId?: string },
  ): Promise<{ status: number; responseUrl: string; triggerId: string; value: string }>;
  /** Submits the modal `views.open` showed last (or `view`) with input values; returns Bolt's ack body. */
  submit(
    values: Record<string, string>,
    options?: { view?: Record<string, unknown>; user?: string },
  ): Promise<{ status: number; ack: Record<string, unknown> | undefined }>;
  /** The first reply posted to a response_url. */
  reply(responseUrl: string, index?: number): Promise<Record<string, unknown>>;
  /** The modals opened so far. */
  modals(): Record<string, unknown>[];
  /** Live card messages in the fake channel (posted by the outbox). */
  cards(): FakeMessage[];
  close(): Promise<void>;
}

export async function slackWorld(
  options: {
    harness?: HarnessOptions;
    slack?: Partial<NonNullable<Config['slack']>>;
    /** Wraps the core the adapter talks to (e.g. to make it slow). */
    bot?: (bot: Bot) => Bot;
    /** `REELBOT_WORKSPACES`: the workspaces the adapter serves; unset serves every one. */
    workspaces?: string[];
    /**
     * A harness shared with other worlds (one simulator, one store, one poller and outbox for several
     * platforms): used instead of a new one (`harness` is then ignored), and left open by `close()`.
     */
    shared?: Harness;
  } = {},
): Promise<SlackWorld> {
  const h = options.shared ?? (await createHarness({ platform: 'slack', ...options.harness }));
  const fake = await FakeSlack.start({
    now: () => h.clock.now(),
    users: {
      [ALICE]: { name: 'alice', realName: 'Alice Martin', tz: 'Europe/Paris', isAdmin: true },
      [BOB]: { name: 'bob', tz: 'America/New_York' },
    },
  });
  const http = createHttpServer({
    logger: h.deps.logger,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const adapter = createSlackAdapter({
    // With OAuth, tokens come from installations: no single-workspace bot token unless the test gives one.
    config: {
      ...(options.slack?.oauth ? {} : { botToken: BOT_TOKEN }),
      signingSecret: SIGNING_SECRET,
      apiUrl: fake.apiUrl,
      ...options.slack,
    },
    bot: options.bot ? options.bot(h.bot) : h.bot,
    http,
    logger: h.deps.logger,
    clock: h.clock,
    store: h.store,
    ...(options.workspaces
      ? { gate: new WorkspaceGate({ workspaces: options.workspaces, logger: h.deps.logger }) }
      : {}),
  });
  await adapter.start();
  const listening = await http.listen(0, '127.0.0.1');
  const eventsUrl = `${listening.url}/slack/events`;
  h.senders.slack = adapter.sender;
  await h.store.keys.put(address.user(ALICE), {
    apiKey: DEMO_KEY,
    keyPrefix: DEMO_KEY.slice(0, 12),
    teamId: 'team',
    teamName: 'Team',
  });

  let counter = 0;
  const trigger = () =>
    `${7_216_000_000_000 + ++counter}.7141926741253.${(counter * 7919).toString(16).padStart(32, 'a')}`;

  const world: SlackWorld = {
    h,
    fake,
    http,
    adapter,
    eventsUrl,
    async send(body, contentType, o = {}) {
      const timestamp = o.timestamp ?? Math.floor(Date.now() / 1000);
      const res = await fetch(eventsUrl, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': o.signature ?? sign(body, timestamp, o.secret),
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        },
        body,
      });
      return { status: res.status, text: await res.text() };
    },
    async command(text, o = {}) {
      const payload = fixture<Record<string, string>>('slash-command.json');
      const responseUrl = fake.responseUrl();
      const triggerId = o.triggerId ?? trigger();
      Object.assign(payload, {
        text: o.raw ? text : slackEscape(text),
        response_url: responseUrl,
        trigger_id: triggerId,
        user_id: o.user ?? ALICE,
        user_name: o.userName ?? (o.user === BOB ? 'bob' : 'alice'),
        channel_id: o.channel ?? CHANNEL,
        ...(o.team ? { team_id: o.team } : {}),
      });
      const body = new URLSearchParams(payload).toString();
      const sent = await world.send(body, 'application/x-www-form-urlencoded', o);
      return { ...sent, responseUrl, triggerId };
    },
    async click(message, action, o = {}) {
      const element = findElement(message.blocks ?? [], action, o.nth ?? 0);
      const payload = fixture<Record<string, unknown> & { actions: Record<string, unknown>[] }>(
        'block-actions.json',
      );
      const responseUrl = fake.responseUrl();
      const triggerId = o.triggerId ?? trigger();
      const user = o.user ?? ALICE;
      const channel = message.channel ?? CHANNEL;
      Object.assign(payload, {
        user: {
          id: user,
          username: user === BOB ? 'bob' : 'alice',
          name: user === BOB ? 'bob' : 'alice',
          team_id: TEAM,
        },
        container: {
          type: 'message',
          message_ts: message.ts,
          channel_id: channel,
          is_ephemeral: message.ephemeral ?? false,
        },
        channel: { id: channel, name: 'video-team' },
        message: { ...(payload.message as object), ts: message.ts, blocks: message.blocks ?? [] },
        response_url: responseUrl,
        trigger_id: triggerId,
      });
      const value =
        element.type === 'static_select'
          ? (o.choice ?? ((element.options as { value: string }[])[0]?.value as string))
          : (element.value as string);
      payload.actions = [
        element.type === 'static_select'
          ? {
              type: 'static_select',
              action_id: element.action_id,
              block_id: 'b1',
              selected_option: { text: { type: 'plain_text', text: value, emoji: true }, value },
              placeholder: element.placeholder,
              action_ts: '1700000012.345678',
            }
          : {
              type: 'button',
              action_id: element.action_id,
              block_id: 'b1',
              text: element.text,
              value: element.value,
              ...(element.style ? { style: element.style } : {}),
              action_ts: '1700000012.345678',
            },
      ];
      const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
      const sent = await world.send(body, 'application/x-www-form-urlencoded', o);
      return { status: sent.status, responseUrl, triggerId, value };
    },
    async submit(values, o = {}) {
      const view = o.view ?? (world.modals().at(-1) as Record<string, unknown> | undefined);
      if (!view) throw new Error('no modal is open');
      const payload = fixture<Record<string, unknown> & { view: Record<string, unknown> }>(
        'view-submission.json',
      );
      const user = o.user ?? ALICE;
      payload.user = { id: user, username: 'alice', name: 'alice', team_id: TEAM };
      const blocks = view.blocks as {
        type: string;
        block_id?: string;
        element?: { type: string; action_id: string };
      }[];
      const state: Record<string, Record<string, unknown>> = {};
      for (const block of blocks) {
        if (block.type !== 'input' || !block.block_id || !block.element) continue;
        const value = values[block.block_id];
        const element = block.element;
        state[block.block_id] = {
          [element.action_id]:
            element.type === 'static_select'
              ? {
                  type: 'static_select',
                  selected_option:
                    value === undefined ? null : { text: { type: 'plain_text', text: value }, value },
                }
              : { type: 'plain_text_input', value: value ?? null },
        };
      }
      payload.view = { ...payload.view, ...view, state: { values: state } };
      const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
      const sent = await world.send(body, 'application/x-www-form-urlencoded');
      return {
        status: sent.status,
        ack: sent.text ? (JSON.parse(sent.text) as Record<string, unknown>) : undefined,
      };
    },
    reply: (responseUrl, index = 0) =>
      fake.waitFor(() => fake.responsesTo(responseUrl)[index], `a reply to ${responseUrl}`),
    modals: () => fake.callsOf('views.open').map((c) => c.args.view as Record<string, unknown>),
    cards: () => fake.messages.filter((m) => m.metadata?.event_type === 'reelbot_card' && !m.thread_ts),
    async close() {
      await adapter.stop();
      await http.close();
      if (!options.shared) await h.close();
      await fake.close();
    },
  };
  return world;
}

/**
 * What Slack sends for typed text with `should_escape`: `&`, `<`, `>` as entities and links wrapped in
 * `<…>` (https://docs.slack.dev/messaging/formatting-message-text#escaping).
 */
export function slackEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/https?:\/\/[^\s"]+/g, (url) => `<${url}>`);
}

/** A button or select in Block Kit `blocks` whose action id names the core action. */
export function findElement(blocks: unknown[], action: string, nth = 0): Record<string, unknown> {
  const all = elements(blocks).filter((e) => String(e.action_id).split('|')[0] === action);
  const found = all[nth];
  if (!found)
    throw new Error(
      `no ${action} control in the blocks (have ${elements(blocks)
        .map((e) => e.action_id)
        .join(', ')})`,
    );
  return found;
}

/** The buttons and selects of Block Kit `blocks`: in actions blocks, and in the cards of a carousel. */
export function elements(blocks: unknown[]): Record<string, unknown>[] {
  type Node = { type: string; elements?: Record<string, unknown>[]; actions?: Record<string, unknown>[] };
  return (blocks as Node[]).flatMap((b) => {
    if (b.type === 'actions') return b.elements ?? [];
    if (b.type === 'carousel') return ((b.elements ?? []) as Node[]).flatMap((card) => card.actions ?? []);
    return [];
  });
}

/** All the text of Block Kit blocks, for assertions. */
export function blocksText(blocks: unknown[] | undefined): string {
  const out: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (typeof o.text === 'string') out.push(o.text);
      for (const [key, value] of Object.entries(o))
        if (key !== 'text' || typeof value !== 'string') visit(value);
    }
  };
  visit(blocks ?? []);
  return out.join('\n');
}

/** Every block list is within Block Kit's documented limits (the newest blocks' as the fake checks them). */
export function expectValidBlocks(blocks: unknown[] | undefined, max = 50): void {
  const list = (blocks ?? []) as Record<string, unknown>[];
  expect(list.length).toBeLessThanOrEqual(max);
  expect(blockLimitErrors(list)).toEqual([]);
  for (const block of list) {
    if (block.type === 'header')
      expect((block.text as { text: string }).text.length).toBeLessThanOrEqual(150);
    if (block.type === 'section') {
      const text = block.text as { text: string } | undefined;
      if (text) expect(text.text.length).toBeLessThanOrEqual(3000);
      const fields = block.fields as { text: string }[] | undefined;
      if (fields) {
        expect(fields.length).toBeLessThanOrEqual(10);
        for (const f of fields) expect(f.text.length).toBeLessThanOrEqual(2000);
      }
    }
    if (block.type === 'actions') {
      const els = block.elements as Record<string, unknown>[];
      expect(els.length).toBeLessThanOrEqual(25);
      const ids = els.map((e) => e.action_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const e of els) {
        if (e.type === 'button') {
          expect((e.text as { text: string }).text.length).toBeLessThanOrEqual(75);
          if (e.value !== undefined) expect(String(e.value).length).toBeLessThanOrEqual(2000);
        }
        if (e.type === 'static_select') expect((e.options as unknown[]).length).toBeLessThanOrEqual(100);
      }
    }
  }
}
