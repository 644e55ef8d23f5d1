/**
 * The generation and render watchers against a scripted API and a real SQLite store: what each check edits,
 * says and asks for, including the edges the simulator rarely produces (thumbnails never started, a 404).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generationWatcher } from '../../../src/core/live/generation-watcher.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { showVideo } from '../../../src/core/live/projections.js';
import { renderWatcher } from '../../../src/core/live/render-watcher.js';
import { IDLE_WAIT_MS } from '../../../src/core/live/thumbnail-phase.js';
import type { VideoCardModel } from '../../../src/core/live/video-card.js';
import type { WatchContext, WatchResult } from '../../../src/core/live/watcher.js';
import type { Clock, Logger, Watch } from '../../../src/core/ports/index.js';
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
import { untilAborted } from '../../support/test-clock.js';

const T0 = Date.parse('2026-11-23T08:00:00Z');
const CONV = 'slack:T1:C1';
const VIDEO = 'vid1';
const KEY = videoCardKey(VIDEO, CONV);

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

const status = (s: string, percent: number, errorMessages: string[] = []): VideoStatus => ({
  id: VIDEO,
  status: s,
  percentCompleted: percent,
  errorMessages,
});
const thumbs = (s: string, n = 0): Thumbnails => ({
  status: s,
  variants: Array.from({ length: n }, (_, i) => ({
    id: `t${i}`,
    url: `https://img/${i}.png`,
    score: 80 + i,
    grade: 'B',
  })),
  ...(n > 0 ? { selectedVariantId: 't0', selectedBy: 'ai' } : {}),
});
const video = (t: Thumbnails, videoStatus = 'completed'): Video => ({
  id: VIDEO,
  name: 'Octopus facts',
  renderedVideoUrl: null,
  posts: {},
  status: videoStatus,
  thumbnails: t,
});

let store: SqliteStore;
let api: ScriptedApi;
let now: number;

beforeEach(async () => {
  now = T0;
  const clock: Clock = { now: () => now, sleep: async () => {}, timer: untilAborted };
  store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
  api = new ScriptedApi();
  const model: VideoCardModel = { videoId: VIDEO, name: 'Octopus facts', phase: 'generating', percent: 0 };
  await store.transaction(async () => await showVideo(store, { model, conversation: CONV, now }));
});
afterEach(async () => await store.close());

async function watch(
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
    nextCheckAt: now,
    expiresAt: now + 6 * 3600_000,
  });
}

/** Runs a check like the poller: apply + state update in one transaction. */
async function check(w: Watch, watcher = generationWatcher): Promise<WatchResult> {
  const ctx: WatchContext = { api: api.asApi(), store, now, logger: silent };
  const current = (await store.watches.get(w.id)) as Watch;
  const result = await watcher.check(ctx, current);
  await store.transaction(async () => {
    await result.apply?.(store);
    await store.watches.update(w.id, { state: result.state, status: result.done ? 'done' : 'active' });
  });
  return result;
}

const shown = async (): Promise<Card> => asTyped((await store.cards.get(KEY))?.card as Card);
const outbox = async () =>
  (await store.outbox.ready('slack', Number.MAX_SAFE_INTEGER, 100)).map((i) => i.item);
const replies = async () =>
  (await outbox()).filter((i) => i.op === 'reply').map((i) => (i.op === 'reply' ? i.card.title : ''));
const updates = async () => (await outbox()).filter((i) => i.op === 'update-card').length;

describe('generation watcher', () => {
  it('lets only a finished video’s thumbnail looks wait when the budget is short; renders never', async () => {
    const running = await watch('generation', { name: 'x', samples: [], lastStep: -1, phase: 'generating' });
    const finished = await watch(
      'generation',
      { name: 'x', samples: [], lastStep: -1, phase: 'thumbnails' },
      'v2',
    );
    expect(generationWatcher.deferrable?.(running)).toBe(false);
    expect(generationWatcher.deferrable?.(finished)).toBe(true);
    expect(renderWatcher.deferrable).toBeUndefined();
  });

  it('shows errorMessages while processing as notes on the card, not as failure, and drops them when gone', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: -1,
      phase: 'generating',
    });
    api.statuses = [status('processing', 10, ['b-roll fetch timed out, retried'])];
    let r = await check(w);
    expect(r.done).toBe(false);
    expect((await shown()).tone).toBe('progress');
    expect((await shown()).text).toContain('⚠️ b-roll fetch timed out, retried');
    expect((await shown()).text).not.toContain('failed');
    expect(await replies()).toEqual([]);
    const edits = await updates();

    now += 10_000;
    api.statuses = [status('processing', 11, ['b-roll fetch timed out, retried'])];
    await check(w);
    expect(await updates()).toBe(edits); // same warning, same step: no edit

    now += 10_000;
    api.statuses = [status('processing', 12)];
    r = await check(w);
    expect((await shown()).text).not.toContain('⚠️');
    expect(r.done).toBe(false);

    // Only `failed` is failure, with its reasons.
    now += 10_000;
    api.statuses = [status('failed', 12, ['Voiceover synthesis failed for the selected voice.'])];
    r = await check(w);
    expect(r.done).toBe(true);
    expect((await shown()).text).toContain('Generation failed');
  });

  it('edits once per 5 % step, estimates the finish and adapts the interval', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: -1,
      phase: 'generating',
    });
    api.statuses = [status('processing', 3)];
    let r = await check(w);
    expect(r.nextCheckInMs).toBe(10_000);
    expect((await shown()).progress?.percent).toBe(3);
    expect(await updates()).toBe(1);

    now += 10_000;
    api.statuses = [status('processing', 4)];
    r = await check(w);
    expect(await updates()).toBe(1); // same 0–5 % step: no edit
    // 1 % per 10 s: 96 % left is far away, look at the slowest allowed.
    expect(r.nextCheckInMs).toBe(30_000);

    now += 30_000;
    api.statuses = [status('processing', 60)];
    r = await check(w);
    expect(await updates()).toBe(2);
    expect((await shown()).progress?.label).toContain('60%');
    expect((await shown()).progress?.label).toContain('left');
    // 57 % in 40 s: about 28 s left, within reach: just after it.
    expect(r.nextCheckInMs).toBe(Math.round((40 * 40_000) / 57) + 1000);
    expect(api.calls).toEqual(['status', 'status', 'status']);
  });

  it('gets a rate from its first look at a video it created, and the finish look reads the video once', async () => {
    // A 60 s generation the bot started at `now`.
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: -1,
      phase: 'generating',
      startedAt: now,
    });
    now += 10_000;
    api.statuses = [status('processing', 16)];
    let r = await check(w);
    // 16 % in the 10 s since it started: ~52 s left, so the slowest allowed interval.
    expect(r.nextCheckInMs).toBe(30_000);
    expect(r.state.finishing).toBeUndefined();

    now += 30_000;
    api.statuses = [status('processing', 66)];
    r = await check(w);
    // 50 % in 30 s (real readings only now): 20.4 s left; a second after it (one percent is only 0.6 s).
    expect(r.nextCheckInMs).toBe(21_400);
    expect(r.state.finishing).toBe(true);

    now += 21_400;
    api.videos = [video(thumbs('queued'))];
    r = await check(w);
    expect(r.done).toBe(false);
    expect((await shown()).text).toContain('Thumbnails are on the way');
    expect(await replies()).toEqual(['✅ Octopus facts is ready']);
    // Thumbnails take seconds: the first look at them waits the longest thumbnail interval.
    expect(r.nextCheckInMs).toBe(15_000);
    expect(api.calls).toEqual(['status', 'status', 'get']);
  });

  it('a finish look that finds it still running goes back to status checks', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [
        { at: now - 20_000, percent: 40 },
        { at: now - 10_000, percent: 70 },
      ],
      lastStep: 70,
      phase: 'generating',
      finishing: true,
    });
    api.videos = [video(thumbs('idle'), 'processing')];
    let r = await check(w);
    expect(r.done).toBe(false);
    expect(r.nextCheckInMs).toBe(10_000);
    expect(r.state.finishing).toBeUndefined();
    expect(await replies()).toEqual([]);
    now += 10_000;
    api.statuses = [status('processing', 97)];
    r = await check(w);
    expect(api.calls).toEqual(['get', 'status']);
    expect(r.state.finishing).toBe(true);
  });

  it('a finish look that finds it failed reads the reasons from its status', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [{ at: now - 10_000, percent: 80 }],
      lastStep: 80,
      phase: 'generating',
      finishing: true,
    });
    api.videos = [video(thumbs('idle'), 'failed')];
    api.statuses = [status('failed', 88, ['Rendering the b-roll failed.'])];
    const r = await check(w);
    expect(r.done).toBe(true);
    expect((await shown()).text).toContain('• Rendering the b-roll failed.');
    expect(await replies()).toEqual(['❌ Octopus facts failed']);
    expect(api.calls).toEqual(['get', 'status']);
  });

  it('on completion shows the video, says it is ready once, and keeps watching queued thumbnails', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: 50,
      phase: 'generating',
    });
    api.statuses = [status('completed', 100)];
    api.videos = [video(thumbs('queued'))];
    let r = await check(w);
    expect(r.done).toBe(false);
    expect(r.nextCheckInMs).toBe(15_000);
    expect((await shown()).text).toContain('Thumbnails are on the way');
    expect(await replies()).toEqual(['✅ Octopus facts is ready']);

    now += 15_000;
    api.videos = [video(thumbs('generating'))];
    r = await check(w);
    expect(r.done).toBe(false);
    now += 7_500;
    api.videos = [video(thumbs('ready', 3))];
    r = await check(w);
    expect(r.done).toBe(true);
    expect((await shown()).sections).toHaveLength(3);
    expect(await replies()).toEqual(['✅ Octopus facts is ready']);
    expect(api.calls).toEqual(['status', 'get', 'get', 'get']);
  });

  it('stops waiting for thumbnails that were never started', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: 95,
      phase: 'generating',
    });
    api.statuses = [status('completed', 100)];
    api.videos = [video(thumbs('idle'))];
    expect((await check(w)).done).toBe(false);
    now += IDLE_WAIT_MS;
    const r = await check(w);
    expect(r.done).toBe(true);
    expect((await shown()).text).toContain('Thumbnails could not be made');
  });

  it('a failure shows the reasons and is said once', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: 20,
      phase: 'generating',
    });
    api.statuses = [status('failed', 42, ['Voiceover synthesis failed.'])];
    const r = await check(w);
    expect(r.done).toBe(true);
    expect((await shown()).text).toContain('• Voiceover synthesis failed.');
    // Even if the same result were applied again (a retried commit), nothing is said twice.
    await store.transaction(async () => await r.apply?.(store));
    expect(await replies()).toEqual(['❌ Octopus facts failed']);
  });

  it('a vanished video ends the watch with a note', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: 20,
      phase: 'generating',
    });
    api.statuses = [new VideoApiError('not_found', 'gone', { status: 404 })];
    const r = await check(w);
    expect(r.done).toBe(true);
    expect((await shown()).text).toContain('I can no longer find this video');
  });

  it('other errors are left to the poller (backoff)', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: 20,
      phase: 'generating',
    });
    api.statuses = [new VideoApiError('internal_error', 'boom', { status: 500 })];
    await expect(check(w)).rejects.toBeInstanceOf(VideoApiError);
  });

  it('expiry says how long and what to run', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [],
      lastStep: 20,
      phase: 'generating',
    });
    await store.transaction(
      async () => await generationWatcher.expire({ store: store, watch: w, now: now, reason: 'expired' }),
    );
    expect((await shown()).text).toContain('Stopped watching after 6 h; run `/reel status vid1`');
  });
});

describe('render watcher', () => {
  beforeEach(async () => {
    const model: VideoCardModel = {
      videoId: VIDEO,
      name: 'Octopus facts',
      phase: 'completed',
      render: { renderId: 'r1', status: 'in-progress', progress: 0 },
    };
    await store.transaction(async () => await showVideo(store, { model, conversation: CONV, now }));
  });
  const rw = async () =>
    await watch(
      'render',
      { videoId: VIDEO, name: 'Octopus facts', codec: 'h264', samples: [], lastStep: -1 },
      'r1',
    );

  it('edits per 10 % step, then shows the MP4 and says "Rendered: <url>" once', async () => {
    const w = await rw();
    const before = await updates();
    api.renders = [{ renderId: 'r1', status: 'in-progress', overallProgress: 0.12 }];
    let r = await check(w, renderWatcher);
    expect(r.nextCheckInMs).toBe(5_000);
    expect(await updates()).toBe(before + 1);
    now += 5_000;
    api.renders = [{ renderId: 'r1', status: 'in-progress', overallProgress: 0.18 }];
    r = await check(w, renderWatcher);
    expect(await updates()).toBe(before + 1);
    // 6 % per 5 s: 82 % left ≈ 68 s, so the slowest allowed interval.
    expect(r.nextCheckInMs).toBe(15_000);
    now += 15_000;
    api.renders = [{ renderId: 'r1', status: 'done', overallProgress: 1, url: 'https://cdn/r1.mp4' }];
    r = await check(w, renderWatcher);
    expect(r.done).toBe(true);
    expect((await shown()).video?.url).toBe('https://cdn/r1.mp4');
    const reply = (await outbox()).find((i) => i.op === 'reply');
    expect(reply?.op === 'reply' && reply.card.text).toBe('Rendered: https://cdn/r1.mp4');
    expect(reply?.op === 'reply' && reply.threadOfCard).toBe(KEY);
  });

  it('an error offers Render again, in the thread and on the card', async () => {
    api.renders = [{ renderId: 'r1', status: 'error', overallProgress: 0.4 }];
    const r = await check(await rw(), renderWatcher);
    expect(r.done).toBe(true);
    const reply = (await outbox()).find((i) => i.op === 'reply');
    expect(reply?.op === 'reply' && reply.card.controls?.[0]).toMatchObject({
      action: 'video.render',
      value: VIDEO,
      label: 'Render again',
    });
    expect((await shown()).controls?.[0]).toMatchObject({ action: 'video.render', label: 'Render again' });
  });

  it('replies go to the channel, not a thread, when threading is off', async () => {
    await store.settings.put(CONV, { ...(await store.settings.get(CONV)), threading: false });
    api.renders = [{ renderId: 'r1', status: 'done', overallProgress: 1, url: 'https://cdn/r1.mp4' }];
    await check(await rw(), renderWatcher);
    const reply = (await outbox()).find((i) => i.op === 'reply');
    expect(reply?.op === 'reply' && reply.threadOfCard).toBeUndefined();
  });
});
