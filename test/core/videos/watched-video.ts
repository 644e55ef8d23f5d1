/**
 * A video being watched, for the watcher tests: a real SQLite store showing its card, a scripted API, watches
 * checked as the poller checks them, and what the card and the outbox then hold.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach } from 'vitest';
import { generationWatcher } from '../../../src/core/live/generation-watcher.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { showVideo } from '../../../src/core/live/projections.js';
import type { VideoCardModel } from '../../../src/core/live/video-card.js';
import type { WatchContext, WatchResult } from '../../../src/core/live/watcher.js';
import type { Logger, Watch } from '../../../src/core/ports/index.js';
import type { Card } from '../../../src/core/text/cards.js';
import {
  type Render,
  type Thumbnails,
  type Video,
  type VideoApi,
  VideoApiError,
  type VideoStatus,
} from '../../../src/core/video-api/video-api.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite-store.js';
import { asTyped } from '../../support/commands-as-typed.js';
import { TestClock } from '../../support/test-clock.js';

const T0 = Date.parse('2026-11-23T08:00:00Z');
export const CONV = 'slack:T1:C1';
export const VIDEO = 'vid1';
export const KEY = videoCardKey(VIDEO, CONV);

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

/** Scripted answers: each read returns the next scripted value (the last one repeats). */
class ScriptedApi {
  statuses: (VideoStatus | VideoApiError)[] = [];
  videos: (Video | VideoApiError)[] = [];
  renders: (Render | VideoApiError)[] = [];
  calls: string[] = [];
  private next<T>(list: (T | VideoApiError)[], name: string): T {
    this.calls.push(name);
    const value = list.length > 1 ? list.shift() : list[0];
    if (value instanceof VideoApiError) throw value;
    if (value === undefined) throw new Error(`nothing scripted for ${name}`);
    return value;
  }
  asApi(): VideoApi {
    return {
      videos: {
        status: async () => this.next(this.statuses, 'status'),
        get: async () => this.next(this.videos, 'get'),
      },
      renders: { get: async () => this.next(this.renders, 'render') },
    } as unknown as VideoApi;
  }
}

export const status = (s: string, percent: number, errorMessages: string[] = []): VideoStatus => ({
  id: VIDEO,
  status: s,
  percentCompleted: percent,
  errorMessages,
});
export const thumbs = (s: string, n = 0): Thumbnails => ({
  status: s,
  variants: Array.from({ length: n }, (_, i) => ({
    id: `t${i}`,
    url: `https://img/${i}.png`,
    score: 80 + i,
    grade: 'B',
  })),
  ...(n > 0 ? { selectedVariantId: 't0', selectedBy: 'ai' } : {}),
});
export const video = (t: Thumbnails, videoStatus = 'completed'): Video => ({
  id: VIDEO,
  name: 'Octopus facts',
  renderedVideoUrl: null,
  posts: {},
  status: videoStatus,
  thumbnails: t,
});

/** The running test's clock, store and scripted API (live bindings, made by onAVideoBeingGenerated's beforeEach). */
export let clock: TestClock;
export let store: SqliteStore;
export let api: ScriptedApi;

/** Before each test of the calling file: a fresh store whose video card shows generation just started. */
export function onAVideoBeingGenerated(): void {
  beforeEach(async () => {
    clock = new TestClock(T0);
    store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
    api = new ScriptedApi();
    const model: VideoCardModel = { videoId: VIDEO, name: 'Octopus facts', phase: 'generating', percent: 0 };
    await store.transaction(() => showVideo(store, { model, conversation: CONV, now: clock.now() }));
  });
  afterEach(() => store.close());
}

export async function watch(
  kind: 'generation' | 'render',
  state: Record<string, unknown>,
  target = VIDEO,
): Promise<Watch> {
  return await store.watches.add({
    kind,
    target,
    owner: 'slack:T1:U1',
    conversation: CONV,
    cardKey: KEY,
    state,
    nextCheckAt: clock.now(),
    expiresAt: clock.now() + 6 * 3600_000,
  });
}

/** Runs a check like the poller: apply + state update in one transaction. */
export async function check(w: Watch, watcher = generationWatcher): Promise<WatchResult> {
  const ctx: WatchContext = { api: api.asApi(), store, now: clock.now(), logger: silent };
  const current = (await store.watches.get(w.id)) as Watch;
  const result = await watcher.check(ctx, current);
  await store.transaction(async () => {
    await result.apply?.(store);
    await store.watches.update(w.id, { state: result.state, status: result.done ? 'done' : 'active' });
  });
  return result;
}

export const shown = async (): Promise<Card> => asTyped((await store.cards.get(KEY))?.card as Card);
export const outbox = async () =>
  (await store.outbox.ready('slack', Number.MAX_SAFE_INTEGER, 100)).map((i) => i.item);
export const replies = async () =>
  (await outbox()).filter((i) => i.op === 'reply').map((i) => (i.op === 'reply' ? i.card.title : ''));
export const updates = async () => (await outbox()).filter((i) => i.op === 'update-card').length;
