/** The render watcher against a scripted API and a real SQLite store: what each check edits, says and asks for. */
import { beforeEach, describe, expect, it } from 'vitest';
import { showVideo } from '../../../src/core/live/projections.js';
import { renderWatcher } from '../../../src/core/live/render-watcher.js';
import type { VideoCardModel } from '../../../src/core/live/video-card.js';
import {
  api,
  CONV,
  check,
  clock,
  KEY,
  onAVideoBeingGenerated,
  outbox,
  shown,
  store,
  updates,
  VIDEO,
  watch,
} from './watched-video.js';

onAVideoBeingGenerated();

describe('render watcher', () => {
  beforeEach(async () => {
    const model: VideoCardModel = {
      videoId: VIDEO,
      name: 'Octopus facts',
      phase: 'completed',
      render: { renderId: 'r1', status: 'in-progress', progress: 0 },
    };
    await store.transaction(() => showVideo(store, { model, conversation: CONV, now: clock.now() }));
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
    clock.advance(5_000);
    api.renders = [{ renderId: 'r1', status: 'in-progress', overallProgress: 0.18 }];
    r = await check(w, renderWatcher);
    expect(await updates()).toBe(before + 1);
    // 6 % per 5 s: 82 % left ≈ 68 s, so the slowest allowed interval.
    expect(r.nextCheckInMs).toBe(15_000);
    clock.advance(15_000);
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
