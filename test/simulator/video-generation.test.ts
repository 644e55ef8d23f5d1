/** The simulator's POST /videos, and generation running in simulated time. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVideo, type Harness, MINUTE, SCRIPT, SECOND, startHarness } from './harness.js';
import type { VideoCreated, VideoDetail, VideoStatus } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const status = async (id: string) => (await h.api<VideoStatus>('GET', `/videos/${id}/status`)).json.data;
const detail = async (id: string) => (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;

describe('POST /videos', () => {
  it('creates a processing video, charges the model cost and answers 201', async () => {
    const res = await h.api<VideoCreated>('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_aria_en', model: 'motion_lite', name: 'Moon' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Moon',
      model: 'motion_lite',
      status: 'processing',
      creditsUsed: 50,
      statusUrl: `/api/v1/videos/${res.json.data.id}/status`,
    });
    expect(h.run.sim.balance('Team A')).toBe(450);
  });

  it.each([
    ['storyboard', 20],
    ['motion_lite', 50],
    ['motion_pro', 100],
  ])('%s costs %i credits', async (model, credits) => {
    const id = await createVideo(h, { model });
    expect(h.run.sim.chargesFor(id).map((c) => c.credits)).toEqual([-credits]);
  });

  it('defaults to storyboard', async () => {
    const res = await h.api<VideoCreated>('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_aria_en' },
    });
    expect(res.json.data.model).toBe('storyboard');
    expect(res.json.data.creditsUsed).toBe(20);
  });

  it('accepts the team’s custom voice', async () => {
    const voices = await h.api<{ id: string; isCustom: boolean }[]>('GET', '/voices');
    const custom = voices.json.data.find((v) => v.isCustom);
    expect(custom).toBeDefined();
    expect((await h.api('POST', '/videos', { body: { script: SCRIPT, voiceId: custom?.id } })).status).toBe(
      201,
    );
  });
});

describe('generation in simulated time', () => {
  it('storyboard: processing with rising percentCompleted, then completed at ~90 s', async () => {
    const id = await createVideo(h);
    const first = await status(id);
    expect(first).toMatchObject({
      id,
      status: 'processing',
      readyForEditing: false,
      errorMessages: [],
      renderedVideoUrl: null,
    });
    const seen: number[] = [first.percentCompleted];
    for (let i = 0; i < 8; i += 1) {
      h.advance(10 * SECOND);
      const s = await status(id);
      expect(s.status).toBe('processing');
      seen.push(s.percentCompleted);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThan(seen[0]!);
    expect(seen.at(-1)).toBeLessThan(100);
    h.advance(10 * SECOND);
    expect(await status(id)).toMatchObject({
      status: 'completed',
      percentCompleted: 100,
      readyForEditing: true,
    });
  });

  it.each([
    ['motion_lite', 150],
    ['motion_pro', 240],
  ])('%s takes about %i s', async (model, seconds) => {
    const id = await createVideo(h, { model });
    h.advance((seconds - 5) * SECOND);
    expect((await status(id)).status).toBe('processing');
    h.advance(10 * SECOND);
    expect((await status(id)).status).toBe('completed');
  });

  it('speed divides durations', async () => {
    h.run.sim.setKnobs({ speed: 60 });
    const id = await createVideo(h);
    h.advance(2 * SECOND);
    expect((await status(id)).status).toBe('completed');
  });

  it('fails with errorMessages (HTTP 200) per the failure-rate knob, with no refund', async () => {
    h.run.sim.setKnobs({ generationFailureRate: 1 });
    const id = await createVideo(h);
    h.advance(2 * MINUTE);
    const res = await h.api<VideoStatus>('GET', `/videos/${id}/status`);
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe('failed');
    expect(res.json.data.errorMessages.length).toBeGreaterThan(0);
    expect(res.json.data.percentCompleted).toBeLessThan(100);
    expect(res.json.data.readyForEditing).toBe(false);
    expect(h.run.sim.balance('Team A')).toBe(480);
    expect((await detail(id)).thumbnails.status).toBe('idle');
  });

  it('captions: free, 201, completes in about 60 s', async () => {
    const res = await h.api<{ id: string; status: string; statusUrl: string }>('POST', '/videos/captions', {
      body: { videoUrl: 'https://media.example/clips/interview.mp4', language: 'en' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.any(String),
      status: 'processing',
      statusUrl: `/api/v1/videos/${res.json.data.id}/status`,
    });
    expect(h.run.sim.balance('Team A')).toBe(500);
    h.advance(61 * SECOND);
    expect((await status(res.json.data.id)).status).toBe('completed');
    expect((await detail(res.json.data.id)).name).toBe('interview.mp4');
  });
});
