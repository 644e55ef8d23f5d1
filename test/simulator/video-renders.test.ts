/** The simulator's renders of a finished video. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completedVideo,
  createVideo,
  type Harness,
  MINUTE,
  renderedVideo,
  SECOND,
  startHarness,
} from './harness.js';
import type { Render, RenderStarted, VideoDetail, VideoStatus } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const detail = async (id: string) => (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;
const status = async (id: string) => (await h.api<VideoStatus>('GET', `/videos/${id}/status`)).json.data;

describe('renders', () => {
  it('requires generation completed (invalid_input naming the status)', async () => {
    const id = await createVideo(h);
    const res = await h.api('POST', `/videos/${id}/render`, { body: {} });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('invalid_input');
    expect(res.json.error.message).toContain('processing');
  });

  it('202, in-progress with rising overallProgress, then done with an .mp4 url in ~45 s', async () => {
    const id = await completedVideo(h);
    const start = await h.api<RenderStarted>('POST', `/videos/${id}/render`, { body: { codec: 'vp8' } });
    expect(start.status).toBe(202);
    const { renderId, statusUrl } = start.json.data;
    expect(renderId).toMatch(/^[0-9a-f]{24}$/);
    expect(statusUrl).toBe(`/api/v1/renders/${renderId}`);
    const get = async () => (await h.api<Render>('GET', `/renders/${renderId}`)).json.data;
    const r0 = await get();
    expect(r0).toMatchObject({ renderId, status: 'in-progress' });
    expect(r0.url).toBeUndefined();
    h.advance(20 * SECOND);
    const r1 = await get();
    expect(r1.overallProgress).toBeGreaterThan(r0.overallProgress);
    expect(r1.overallProgress).toBeLessThan(1);
    h.advance(30 * SECOND);
    const done = await get();
    expect(done).toMatchObject({ status: 'done', overallProgress: 1, url: expect.stringMatching(/\.mp4$/) });
    expect((await status(id)).renderedVideoUrl).toBe(done.url);
    expect((await detail(id)).renderedVideoUrl).toBe(done.url);
    expect((await fetch(done.url!)).status).toBe(200);
  });

  it('fails as status error (HTTP 200) per the knob', async () => {
    h.run.sim.setKnobs({ renderFailureRate: 1 });
    const id = await completedVideo(h);
    const start = await h.api<RenderStarted>('POST', `/videos/${id}/render`, { body: {} });
    h.advance(MINUTE);
    const res = await h.api<Render>('GET', `/renders/${start.json.data.renderId}`);
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe('error');
    expect(res.json.data.url).toBeUndefined();
    expect((await status(id)).renderedVideoUrl).toBeNull();
  });

  it('renders are free', async () => {
    await renderedVideo(h);
    expect(h.run.sim.balance('Team A')).toBe(480);
  });
});
