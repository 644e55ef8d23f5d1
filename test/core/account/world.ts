/**
 * End-to-end wiring for the account tests: the real simulator over HTTP on 127.0.0.1, the real client, real
 * SQLite (in memory or a file), the real core, poller and outbox sender, and a fake chat. Same shape as
 * `test/support/harness.ts`, plus what the secrets test needs: a file store and raw (unmasked) pino logs.
 * Its clock only jumps for short waits (client back-offs): a request timeout never fires on its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createVideoApiFactory } from '../../../src/api/index.js';
import { userAddress } from '../../../src/core/address.js';
import { type Bot, createBot } from '../../../src/core/bot.js';
import type { Card, Response } from '../../../src/core/cards.js';
import { CatalogCache } from '../../../src/core/catalog-cache.js';
import { MODULES } from '../../../src/core/commands/index.js';
import type { CoreDeps, RequestInfo } from '../../../src/core/context.js';
import { WATCHERS } from '../../../src/core/live/watchers.js';
import type { ChatPlatform, Clock, Logger } from '../../../src/core/ports.js';
import type { VideoApi, VideoApiFactory } from '../../../src/core/video-api.js';
import { OutboxSender, Poller } from '../../../src/poller/index.js';
import {
  demoTeam,
  type RunningSimulator,
  type SeedTeam,
  type SimulatorOptions,
  startSimulator,
} from '../../../src/simulator/index.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite-store.js';
import { FakeChat } from '../../support/fake-chat.js';

export const START = Date.parse('2026-11-23T08:00:00Z');
export const DEMO_KEY = 'fl_live_account_demo_key_0123456789abcdef';
/** Waits shorter than this are skipped by moving the clock; longer ones (request timeouts) never end alone. */
const SHORT_WAIT_MS = 14_000;

export class WorldClock implements Clock {
  constructor(public current = START) {}
  now(): number {
    return this.current;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms < SHORT_WAIT_MS) {
      this.current += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise((_, reject) =>
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface WorldOptions {
  simulator?: Omit<SimulatorOptions, 'clock' | 'teams'>;
  teams?: SeedTeam[];
  /** Replaces the demo team (first team, key `DEMO_KEY`). */
  demo?: SeedTeam;
  platform?: ChatPlatform;
  deploymentKey?: string;
  /** A file in a fresh temp dir instead of `:memory:`. */
  fileStore?: boolean;
  /** Wraps every client the core gets (to make the API say what the simulator never does). */
  wrapApi?: (api: VideoApi) => VideoApi;
}

/** Records `resource.method` of every call made through the client (to prove nothing was sent). */
export function recordCalls(api: VideoApi, calls: string[]): VideoApi {
  return new Proxy(api, {
    get(target, resource: string) {
      const value = Reflect.get(target, resource);
      if (typeof value !== 'object' || value === null) return value;
      return new Proxy(value, {
        get(inner, method: string) {
          const fn = Reflect.get(inner, method);
          if (typeof fn !== 'function') return fn;
          return (...args: unknown[]) => {
            calls.push(`${resource}.${method}`);
            return fn.apply(inner, args);
          };
        },
      });
    },
  });
}

export interface World {
  sim: RunningSimulator;
  clock: WorldClock;
  store: SqliteStore;
  storePath: string | undefined;
  bot: Bot;
  deps: CoreDeps;
  chat: FakeChat;
  /** Raw pino lines, unmasked: a leak shows here. */
  logs: string[];
  poller: Poller;
  sender: OutboxSender;
  conversation: string;
  /** Every API call the core made (`videos.list`…), in order. */
  calls: string[];
  user(
    name: string,
    options?: { key?: string | null; memberOf?: string[]; platformTimeZone?: string },
  ): RequestInfo;
  run(text: string, as?: RequestInfo): Promise<Response>;
  click(action: string, value: string, as?: RequestInfo, choice?: string): Promise<Response>;
  submit(formId: string, state: string, values: Record<string, string>, as?: RequestInfo): Promise<Response>;
  advance(ms: number): Promise<void>;
  /** A client of the demo team, for setting the scene through the API. */
  api(key?: string): VideoApi;
  close(): Promise<void>;
}

export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const clock = new WorldClock();
  const sim = await startSimulator({
    port: 0,
    clock,
    randomSeed: 11,
    teams: [options.demo ?? demoTeam(DEMO_KEY), ...(options.teams ?? [])],
    ...options.simulator,
  });
  const logs: string[] = [];
  const logger = pino(
    { level: 'trace', base: null },
    new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    }),
  ) as unknown as Logger;
  const factory = createVideoApiFactory({ baseUrl: sim.url, clock, random: () => 0.5, logger });
  const calls: string[] = [];
  const wrap = options.wrapApi ?? ((api: VideoApi) => api);
  const apiFor: VideoApiFactory = (key) => recordCalls(wrap(factory(key)), calls);
  const dir = options.fileStore ? mkdtempSync(join(tmpdir(), 'reelbot-account-')) : undefined;
  const storePath = dir ? join(dir, 'reelbot.db') : undefined;
  const store = openStore({ path: storePath ?? ':memory:', secretKey: randomBytes(32), clock, logger });
  const deps: CoreDeps = {
    store,
    apiFor,
    clock,
    logger,
    catalog: new CatalogCache(clock),
    ...(options.deploymentKey ? { deploymentKey: options.deploymentKey } : {}),
  };
  const bot = createBot(deps, MODULES);
  const platform = options.platform ?? 'playground';
  const chat = new FakeChat(platform);
  const poller = new Poller({
    store,
    watchers: WATCHERS,
    apiFor: (owner) => {
      const key = owner ? store.keys.get(owner)?.apiKey : options.deploymentKey;
      return key ? apiFor(key) : undefined;
    },
    clock,
    logger,
    concurrency: 4,
    random: () => 0.5,
  });
  const sender = new OutboxSender({ store, senders: { [platform]: chat }, clock, logger, random: () => 0.5 });
  const conversation = `${platform}:W1:C1`;
  const users = new Map<string, RequestInfo>();
  const ids: Record<ChatPlatform, (n: string) => string> = {
    slack: (n) => `U${n.toUpperCase()}`,
    discord: (n) => String([...n].reduce((a, c) => a * 31 + c.charCodeAt(0), 7) % 1_000_000_007),
    playground: (n) => n,
  };

  const world: World = {
    sim,
    clock,
    store,
    storePath,
    bot,
    deps,
    chat,
    logs,
    poller,
    sender,
    conversation,
    calls,
    user(name, o = {}) {
      const address = userAddress(platform, 'W1', ids[platform](name));
      const key = o.key === undefined ? DEMO_KEY : o.key;
      if (key)
        store.keys.put(address, {
          apiKey: key,
          keyPrefix: key.slice(0, 12),
          teamId: 'team',
          teamName: 'Team',
        });
      const req: RequestInfo = {
        platform,
        user: address,
        userName: name,
        conversation,
        ...(o.memberOf ? { memberOf: o.memberOf } : {}),
        ...(o.platformTimeZone ? { platformTimeZone: o.platformTimeZone } : {}),
      };
      users.set(name, req);
      return req;
    },
    async run(text, as) {
      const response = await bot.handleText(as ?? defaultUser(), text);
      await sender.drain();
      return response;
    },
    async click(action, value, as, choice) {
      const response = await bot.handleAction(as ?? defaultUser(), {
        action,
        value,
        ...(choice !== undefined ? { choice } : {}),
      });
      await sender.drain();
      return response;
    },
    async submit(formId, state, values, as) {
      const response = await bot.handleForm(as ?? defaultUser(), { formId, state, values });
      await sender.drain();
      return response;
    },
    async advance(ms) {
      clock.advance(ms);
      sim.sim.settle();
      await poller.tick();
      await sender.drain();
    },
    api: (key = DEMO_KEY) => factory(key),
    async close() {
      await poller.stop();
      await sender.stop();
      store.close();
      await sim.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };

  function defaultUser(): RequestInfo {
    return users.get('alice') ?? world.user('alice');
  }
  return world;
}

/** Everything a response shows, as one string. */
export function textOf(response: Response): string {
  if (response.kind === 'message' || response.kind === 'update') return cardText(response.card);
  if (response.kind === 'form') {
    const f = response.form;
    return [
      f.title,
      f.intro,
      ...f.inputs.map((i) => `${i.label} ${i.hint ?? ''} ${i.kind === 'text' ? (i.placeholder ?? '') : ''}`),
    ].join('\n');
  }
  if (response.kind === 'form-errors') return Object.values(response.errors).join('\n');
  return '';
}

export function cardText(card: Card): string {
  return [
    card.title,
    card.text,
    ...(card.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    ...(card.sections ?? []).flatMap((s) => [
      s.text,
      ...(s.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    ]),
    card.progress?.label,
    card.context,
    ...(card.controls ?? []).map((c) => (c.kind === 'select' ? c.placeholder : c.label)),
  ]
    .filter(Boolean)
    .join('\n');
}

/** A message's card, failing the test readably when it is not one. */
export function cardOf(response: Response): Card {
  if (response.kind !== 'message' && response.kind !== 'update') {
    throw new Error(`expected a card, got ${response.kind}: ${JSON.stringify(response)}`);
  }
  return response.card;
}
