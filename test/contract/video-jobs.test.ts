/** The asynchronous side of a video: generation status, thumbnails, renders. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Contract,
  completedVideo,
  DEMO_KEY,
  GENERATION_MS,
  MINUTE,
  RENDER_MS,
  renderedVideo,
  SCRIPT,
  SECOND,
  startContract,
  THUMBNAILS_MS,
} from './support.js';

let c: Contract;
beforeEach(async () => {
  c = await startContract();
});
afterEach(async () => {
  await c.close();
});

describe('GET /videos/{id}/status', () => {
  it('percent rises while processing, then completed at 100', async () => {
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    const seen: number[] = [];
    let status = await api.videos.status(id);
    expect(status).toEqual({ id, status: 'processing', percentCompleted: 0, errorMessages: [] });
    while (status.status === 'processing') {
      seen.push(status.percentCompleted);
      c.advance(20 * SECOND);
      status = await api.videos.status(id);
    }
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    expect(status).toEqual({ id, status: 'completed', percentCompleted: 100, errorMessages: [] });
    expect((await api.videos.get(id)).status).toBe('completed');
  });

  it('a failed generation is HTTP 200 with status failed and reasons; no refund', async () => {
    c.run.sim.setKnobs({ generationFailureRate: 1 });
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    c.advance(GENERATION_MS);
    const status = await api.videos.status(id);
    expect(status.status).toBe('failed');
    expect(status.percentCompleted).toBeGreaterThan(0);
    expect(status.percentCompleted).toBeLessThan(100);
    expect(status.errorMessages.length).toBeGreaterThan(0);
    expect(status.errorMessages.join(' ')).toMatch(/refund/i);
    expect(c.run.sim.balance(DEMO_KEY)).toBe(480);
    // Nothing else happens to it: it stays failed.
    c.advance(10 * MINUTE);
    expect((await api.videos.status(id)).status).toBe('failed');
  });
});

describe('POST /videos/{id}/thumbnail', () => {
  it('three AI variants after completion; a user pick is kept through regeneration', async () => {
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    expect((await api.videos.get(id)).thumbnails).toEqual({ status: 'idle', variants: [] });
    c.advance(GENERATION_MS);
    expect((await api.videos.get(id)).thumbnails?.status).toBe('queued');
    c.advance(THUMBNAILS_MS);
    const ready = await api.videos.get(id);
    const thumbs = ready.thumbnails;
    expect(thumbs).toMatchObject({ status: 'ready', selectedBy: 'ai' });
    expect(thumbs?.variants).toHaveLength(3);
    for (const v of thumbs?.variants ?? []) {
      expect(v).toEqual({
        id: expect.any(String),
        url: expect.stringContaining(`/media/thumb/${id}/`),
        hookText: expect.any(String),
        score: expect.any(Number),
        grade: expect.stringMatching(/^[A-D]$/),
      });
    }
    const best = [...(thumbs?.variants ?? [])].sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
    expect(thumbs?.selectedVariantId).toBe(best?.id);
    expect(ready.thumbnailUrl).toBe(best?.url);

    const pick = thumbs?.variants.find((v) => v.id !== best?.id);
    const selection = await api.videos.selectThumbnail(id, pick?.id ?? '');
    expect(selection).toEqual({
      id,
      thumbnails: {
        status: 'ready',
        selectedVariantId: pick?.id,
        selectedBy: 'user',
        // Here variants are URL strings (spec §2); the client uses the URL as each one's id.
        variants: (thumbs?.variants ?? []).map((v) => ({ id: v.url, url: v.url })),
      },
    });

    c.run.sim.regenerateThumbnails(id);
    c.advance(THUMBNAILS_MS);
    const regenerated = (await api.videos.get(id)).thumbnails;
    const raw = await c.raw('GET', `/videos/${id}`);
    expect((raw.json.data as { thumbnails: { generation: number } }).thumbnails.generation).toBe(2);
    expect(regenerated?.selectedBy).toBe('user');
    expect(regenerated?.selectedVariantId).toBe(pick?.id);
    expect(regenerated?.variants.map((v) => v.id)).toContain(pick?.id);
    expect((await api.videos.get(id)).thumbnailUrl).toBe(pick?.url);
  });

  it('without a user pick, regeneration re-selects automatically', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    c.advance(THUMBNAILS_MS);
    const first = (await api.videos.get(id)).thumbnails?.selectedVariantId;
    c.run.sim.regenerateThumbnails(id);
    c.advance(THUMBNAILS_MS);
    const thumbs = (await api.videos.get(id)).thumbnails;
    expect(thumbs?.selectedBy).toBe('ai');
    expect(thumbs?.selectedVariantId).not.toBe(first);
  });
});

describe('POST /videos/{id}/render and GET /renders/{id}', () => {
  it('in-progress with rising progress, then done with a URL the video then carries', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    const started = await api.videos.render(id, { codec: 'vp8' }, c.idem('render'));
    expect(started).toEqual({ renderId: expect.any(String) });
    const first = await api.renders.get(started.renderId);
    expect(first).toEqual({ renderId: started.renderId, status: 'in-progress', overallProgress: 0 });
    c.advance(RENDER_MS / 2);
    const half = await api.renders.get(started.renderId);
    expect(half.status).toBe('in-progress');
    expect(half.overallProgress).toBeGreaterThan(0.4);
    expect(half.overallProgress).toBeLessThan(1);
    c.advance(RENDER_MS);
    const done = await api.renders.get(started.renderId);
    expect(done).toEqual({
      renderId: started.renderId,
      status: 'done',
      overallProgress: 1,
      url: expect.stringMatching(/\.mp4$/),
    });
    expect((await api.videos.get(id)).renderedVideoUrl).toBe(done.url);
    expect((await api.videos.list()).items[0]?.renderedVideoUrl).toBe(done.url);
    // The URL is served (by the simulator's media route).
    const media = await fetch(done.url ?? '');
    expect(media.status).toBe(200);
    await media.arrayBuffer();
  });

  it('a failed render is status error, not an HTTP error; rendering is free', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    const balance = c.run.sim.balance(DEMO_KEY);
    c.run.sim.setKnobs({ renderFailureRate: 1 });
    const { renderId } = await api.videos.render(id, {}, c.idem('render'));
    c.advance(RENDER_MS);
    const render = await api.renders.get(renderId);
    expect(render.status).toBe('error');
    expect(render.url).toBeUndefined();
    expect(render.overallProgress).toBeLessThan(1);
    expect((await api.videos.get(id)).renderedVideoUrl).toBeNull();
    expect(c.run.sim.balance(DEMO_KEY)).toBe(balance);
    // A second try succeeds once the failure is gone.
    c.run.sim.setKnobs({ renderFailureRate: 0 });
    const retry = await api.videos.render(id, {}, c.idem('render'));
    c.advance(RENDER_MS);
    expect((await api.renders.get(retry.renderId)).status).toBe('done');
  });

  it('renderedVideo helper: a rendered video is ready to publish', async () => {
    const { id, renderUrl } = await renderedVideo(c, c.client());
    expect((await c.client().videos.get(id)).renderedVideoUrl).toBe(renderUrl);
  });
});

describe('thumbnail failure never fails the video', () => {
  it('every variant failing: status failed, no selection, the b-roll frame stands in', async () => {
    c.run.sim.setKnobs({ thumbnailFailureRate: 1 });
    const api = c.client();
    const { id } = await completedVideo(c, api);
    c.advance(THUMBNAILS_MS);
    const video = await api.videos.get(id);
    expect(video.status).toBe('completed');
    expect(video.thumbnails).toEqual({ status: 'failed', variants: [] });
    expect(video.thumbnailUrl).toContain(`/media/broll/${id}/`);
    expect((await api.videos.list()).items[0]?.thumbnailUrl).toBe(video.thumbnailUrl);
    const error = await api.videos.selectThumbnail(id, 'any').catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'invalid_input', status: 400 });
  });
});

describe('partial thumbnails are still usable', () => {
  it('fewer than three variants survive: partial, the best survivor selected', async () => {
    c.run.sim.setKnobs({ thumbnailFailureRate: 0.5 });
    const api = c.client();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem())).id);
    }
    c.advance(GENERATION_MS + THUMBNAILS_MS);
    const videos = await Promise.all(ids.map((id) => api.videos.get(id)));
    const partial = videos.find((v) => v.thumbnails?.status === 'partial');
    expect(partial, 'the seed gives at least one partial run among six').toBeDefined();
    const thumbs = partial?.thumbnails;
    expect(thumbs?.variants.length).toBeGreaterThanOrEqual(1);
    expect(thumbs?.variants.length).toBeLessThanOrEqual(2);
    expect(thumbs?.selectedBy).toBe('ai');
    expect(thumbs?.variants.map((v) => v.id)).toContain(thumbs?.selectedVariantId);
    expect(partial?.status).toBe('completed');
    expect(partial?.thumbnailUrl).toContain('/media/thumb/');
  });
});
