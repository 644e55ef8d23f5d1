/**
 * The generation watcher against a scripted API and a real SQLite store: what each check edits, says and asks for,
 * including the edges the simulator rarely produces (thumbnails never started, a 404).
 */
import { describe, expect, it } from 'vitest';
import { generationWatcher } from '../../../src/core/live/generation-watcher.js';
import { renderWatcher } from '../../../src/core/live/render-watcher.js';
import { IDLE_WAIT_MS } from '../../../src/core/live/thumbnail-phase.js';
import { VideoApiError } from '../../../src/core/video-api/video-api.js';
import {
  api,
  check,
  clock,
  onAVideoBeingGenerated,
  replies,
  shown,
  status,
  store,
  thumbs,
  updates,
  video,
  watch,
} from './watched-video.js';

onAVideoBeingGenerated();

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
    const card = await shown();
    expect(card.tone).toBe('progress');
    expect(card.text).toContain('⚠️ b-roll fetch timed out, retried');
    expect(card.text).not.toContain('failed');
    expect(await replies()).toEqual([]);
    const edits = await updates();

    clock.advance(10_000);
    api.statuses = [status('processing', 11, ['b-roll fetch timed out, retried'])];
    await check(w);
    expect(await updates()).toBe(edits); // same warning, same step: no edit

    clock.advance(10_000);
    api.statuses = [status('processing', 12)];
    r = await check(w);
    expect((await shown()).text).not.toContain('⚠️');
    expect(r.done).toBe(false);

    // Only `failed` is failure, with its reasons.
    clock.advance(10_000);
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

    clock.advance(10_000);
    api.statuses = [status('processing', 4)];
    r = await check(w);
    expect(await updates()).toBe(1); // same 0–5 % step: no edit
    // 1 % per 10 s: 96 % left is far away, look at the slowest allowed.
    expect(r.nextCheckInMs).toBe(30_000);

    clock.advance(30_000);
    api.statuses = [status('processing', 60)];
    r = await check(w);
    expect(await updates()).toBe(2);
    const { progress } = await shown();
    expect(progress?.label).toContain('60%');
    expect(progress?.label).toContain('left');
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
      startedAt: clock.now(),
    });
    clock.advance(10_000);
    api.statuses = [status('processing', 16)];
    let r = await check(w);
    // 16 % in the 10 s since it started: ~52 s left, so the slowest allowed interval.
    expect(r.nextCheckInMs).toBe(30_000);
    expect(r.state.finishing).toBeUndefined();

    clock.advance(30_000);
    api.statuses = [status('processing', 66)];
    r = await check(w);
    // 50 % in 30 s (real readings only now): 20.4 s left; a second after it (one percent is only 0.6 s).
    expect(r.nextCheckInMs).toBe(21_400);
    expect(r.state.finishing).toBe(true);

    clock.advance(21_400);
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
        { at: clock.now() - 20_000, percent: 40 },
        { at: clock.now() - 10_000, percent: 70 },
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
    clock.advance(10_000);
    api.statuses = [status('processing', 97)];
    r = await check(w);
    expect(api.calls).toEqual(['get', 'status']);
    expect(r.state.finishing).toBe(true);
  });

  it('a finish look that finds it failed reads the reasons from its status', async () => {
    const w = await watch('generation', {
      name: 'Octopus facts',
      samples: [{ at: clock.now() - 10_000, percent: 80 }],
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

    clock.advance(15_000);
    api.videos = [video(thumbs('generating'))];
    r = await check(w);
    expect(r.done).toBe(false);
    clock.advance(7_500);
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
    clock.advance(IDLE_WAIT_MS);
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
      async () =>
        await generationWatcher.expire({ store: store, watch: w, now: clock.now(), reason: 'expired' }),
    );
    expect((await shown()).text).toContain('Stopped watching after 6 h; run `/reel status vid1`');
  });
});
