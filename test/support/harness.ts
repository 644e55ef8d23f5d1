/**
 * End-to-end harness: the real simulator over HTTP on 127.0.0.1, the real client, real SQLite, the real
 * core, poller and outbox sender, and a fake chat platform recording what the bot posts. Time is virtual:
 * one clock drives the simulator, the client's waits, the poller and the store.
 */

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createVideoApiFactory } from '../../src/api/index.js';
import { MODULES } from '../../src/core/commands/index.js';
import { type Bot, createBot } from '../../src/core/dispatch/bot.js';
import type { CoreDeps, RequestInfo } from '../../src/core/dispatch/context.js';
import { WATCHERS } from '../../src/core/live/watchers.js';
import { userAddress } from '../../src/core/ports/address.js';
import type { ChatPlatform, ChatSender } from '../../src/core/ports/index.js';
import type { Card, Response } from '../../src/core/text/cards.js';
import { chartText } from '../../src/core/text/chart.js';
import { cellText, tableLines } from '../../src/core/text/table.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { CatalogCache } from '../../src/core/video-api/catalog-cache.js';
import { createLogger, logMask } from '../../src/observability/logger.js';
import { OutboxSender, Poller } from '../../src/poller/index.js';
import {
  demoTeam,
  type RunningSimulator,
  type SeedTeam,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { type ApiProxy, startApiProxy } from './api-proxy.js';
import { asTyped, commandsAsTyped } from './commands-as-typed.js';
import { FakeChat } from './fake-chat.js';
import { CAPABILITIES, typedBy } from './mentions-as-typed.js';
import { HARNESS_START, TestClock } from './test-clock.js';
import type { TransactionGuard } from './transaction-guard.js';

export { HARNESS_START, TestClock };

export const DEMO_KEY = 'fl_live_harness_demo_key_0123456789abcdef';

export interface HarnessOptions {
  simulator?: Omit<SimulatorOptions, 'clock' | 'teams'>;
  /** Extra seeded teams (the demo team with `DEMO_KEY` is always first). */
  teams?: SeedTeam[];
  platform?: ChatPlatform;
  /** `VIDEO_API_KEY` for members without a link. */
  deploymentKey?: string;
  /** `REELBOT_WORKSPACES`: where the shared key serves, and which other organisations (Slack Connect) count. */
  deploymentKeyWorkspaces?: string[];
  /** Puts a recording proxy between the bot and the simulator (`h.proxy`), to break answers on purpose. */
  proxy?: boolean;
  /** A database file instead of `:memory:` (e.g. to lock it from a second connection). */
  storePath?: string;
  /** The one clock of the harness (a `TestClock` whose `sleep` also waits for real, say). */
  clock?: TestClock;
  /** Watches the store's transactions and the API and chat calls for a network call inside one. */
  guard?: TransactionGuard;
}

export interface Harness {
  sim: RunningSimulator;
  /** Set with `proxy: true`: every call the bot makes passes (and is recorded) here. */
  proxy?: ApiProxy;
  clock: TestClock;
  store: SqliteStore;
  bot: Bot;
  deps: CoreDeps;
  chat: FakeChat;
  logs: string[];
  poller: Poller;
  sender: OutboxSender;
  /** The senders the outbox delivers with (`chat` by default); replace an entry to deliver through a real adapter. */
  senders: Partial<Record<ChatPlatform, ChatSender>>;
  conversation: string;
  /** A chat user; linked to `key` (default the demo key) unless `key` is null. */
  /** `admin`: a workspace admin by the platform's account (default: alice only, like the demo). */
  user(
    name: string,
    options?: { key?: string | null; timeZone?: string; memberOf?: string[]; admin?: boolean },
  ): Promise<RequestInfo>;
  run(text: string, as?: RequestInfo): Promise<Response>;
  click(action: string, value: string, as?: RequestInfo, choice?: string): Promise<Response>;
  submit(formId: string, state: string, values: Record<string, string>, as?: RequestInfo): Promise<Response>;
  /** Moves virtual time, then one poller pass and an outbox drain. */
  advance(ms: number): Promise<void>;
  /** Advances in steps until `done()` holds (or throws after `maxMs`). */
  until(done: () => boolean | Promise<boolean>, options?: { stepMs?: number; maxMs?: number }): Promise<void>;
  /** Delivers whatever the outbox holds. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = options.clock ?? new TestClock();
  const sim = await startSimulator({
    port: 0,
    clock,
    randomSeed: 7,
    teams: [demoTeam(DEMO_KEY), ...(options.teams ?? [])],
    ...options.simulator,
  });
  const logs: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    }),
  });
  const proxy = options.proxy ? await startApiProxy(sim.url, clock) : undefined;
  const apiFor = createVideoApiFactory({
    // As in production (src/main.ts): every key a client is built for is masked in the logs verbatim, except
    // the link form's unchecked value.
    onKey: logMask.accept,
    baseUrl: proxy?.url ?? sim.url,
    ...(options.guard ? { dispatcher: options.guard.dispatcher() } : {}),
    clock,
    timeoutClock: systemClock,
    random: () => 0.5,
    logger,
  });
  const opened = openStore({
    path: options.storePath ?? ':memory:',
    secretKey: randomBytes(32),
    clock,
    logger,
  });
  const store = options.guard ? options.guard.store(opened) : opened;
  const deps: CoreDeps = {
    store,
    apiFor,
    clock,
    logger,
    logMask,
    catalog: new CatalogCache(clock),
    ...(options.deploymentKey ? { deploymentKey: options.deploymentKey } : {}),
    ...(options.deploymentKeyWorkspaces ? { deploymentKeyWorkspaces: options.deploymentKeyWorkspaces } : {}),
  };
  const bot = createBot(deps, MODULES);
  const platform = options.platform ?? 'playground';
  const chat = new FakeChat(platform);
  const poller = new Poller({
    store,
    watchers: WATCHERS,
    apiFor: async (owner) => {
      const key = owner ? (await store.keys.get(owner))?.apiKey : options.deploymentKey;
      return key ? apiFor(key) : undefined;
    },
    clock,
    logger,
    concurrency: 4,
    random: () => 0.5,
  });
  const senders: Partial<Record<ChatPlatform, ChatSender>> = {
    [platform]: options.guard ? options.guard.sender(chat) : chat,
  };
  const sender = new OutboxSender({ store, senders, clock, logger, random: () => 0.5 });
  const conversation = `${platform}:W1:C1`;
  const users = new Map<string, RequestInfo>();

  const harness: Harness = {
    sim,
    ...(proxy ? { proxy } : {}),
    clock,
    store,
    bot,
    deps,
    chat,
    logs,
    poller,
    sender,
    senders,
    conversation,
    async user(name, o = {}) {
      const address = userAddress(platform, 'W1', name);
      const key = o.key === undefined ? DEMO_KEY : o.key;
      if (key)
        await store.keys.put(address, {
          apiKey: key,
          keyPrefix: key.slice(0, 12),
          teamId: 'team',
          teamName: 'Team',
        });
      if (o.timeZone) await store.users.setTimeZone(address, o.timeZone);
      const req: RequestInfo = {
        platform,
        capabilities: CAPABILITIES[platform],
        user: address,
        userName: name,
        conversation,
        ...(o.memberOf ? { memberOf: o.memberOf } : {}),
        ...((o.admin ?? name === 'alice') ? { isWorkspaceAdmin: true } : {}),
      };
      users.set(name, req);
      return req;
    },
    async run(text, as) {
      const response = asTyped(await bot.handleText(typedBy(as ?? (await defaultUser()), text), text));
      await sender.drain();
      return response;
    },
    async click(action, value, as, choice) {
      const response = asTyped(
        await bot.handleAction(as ?? (await defaultUser()), {
          action,
          value,
          ...(choice !== undefined ? { choice } : {}),
        }),
      );
      await sender.drain();
      return response;
    },
    async submit(formId, state, values, as) {
      const response = asTyped(await bot.handleForm(as ?? (await defaultUser()), { formId, state, values }));
      await sender.drain();
      return response;
    },
    async advance(ms) {
      clock.advance(ms);
      await poller.tick();
      await sender.drain();
    },
    async until(done, o = {}) {
      const step = o.stepMs ?? 5_000;
      const max = o.maxMs ?? 30 * 60_000;
      for (let spent = 0; !(await done()); spent += step) {
        if (spent > max) throw new Error(`condition not reached after ${max} ms of virtual time`);
        await harness.advance(step);
      }
    },
    flush: () => sender.drain(),
    async close() {
      await poller.stop();
      await sender.stop();
      await store.close();
      await proxy?.close();
      await sim.close();
    },
  };

  async function defaultUser(): Promise<RequestInfo> {
    return users.get('alice') ?? (await harness.user('alice'));
  }
  return harness;
}

/** The text of a response card, for assertions. */
export function textOf(response: Response): string {
  if (response.kind === 'message' || response.kind === 'update') return cardText(response.card);
  if (response.kind === 'form')
    return commandsAsTyped(
      `${response.form.title}\n${response.form.alert?.text ?? ''}\n${response.form.intro ?? ''}`,
    );
  if (response.kind === 'form-errors') return commandsAsTyped(Object.values(response.errors).join('\n'));
  return '';
}

/**
 * The approval id a response's card names in its context (Approval `id`), as a person reads it: the
 * markdown escapes an id may carry (`ap\_x`) taken out.
 */
export function approvalIdOf(response: Response): string {
  const context = response.kind === 'message' || response.kind === 'update' ? response.card.context : '';
  return (/Approval `([^`]+)`/.exec(context ?? '')?.[1] ?? '').replace(/\\(.)/g, '$1');
}

/** A card's table as the words of its cells, row by row (none when the card has no table). */
export const tableRows = (card: Card): string[][] => card.table?.rows.map((row) => row.map(cellText)) ?? [];

export function cardText(card: Card): string {
  const text = [
    commandsAsTyped(card.title, false),
    card.text,
    ...(card.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    ...(card.charts ?? []).map(chartText),
    ...(card.table ? tableLines(card.table) : []),
    ...(card.sections ?? []).flatMap((s) => [
      s.title,
      s.text,
      ...(s.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    ]),
    card.progress?.label,
    card.context,
  ]
    .filter(Boolean)
    .join('\n');
  return commandsAsTyped(text);
}
