import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completedVideo,
  type Harness,
  KEY_A,
  KEY_A_READONLY,
  MINUTE,
  SCRIPT,
  SECOND,
  startHarness,
  teamA,
} from './harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ teams: [teamA({ credits: 10_000 })] });
});
afterEach(() => h.close());

const create = () => h.api('POST', '/videos', { body: { script: SCRIPT, voiceId: 'voice_aria_en' } });

describe('rate limits (spec §8)', () => {
  it('POST /videos: 10 per 60 s, then 429 rate_limited with Retry-After in seconds', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await create()).status).toBe(201);
      h.advance(SECOND);
    }
    const limited = await create();
    expect(limited.status).toBe(429);
    expect(limited.json.error.type).toBe('rate_limited');
    // The oldest of the ten was made 10 s ago, so a slot frees up in 50 s.
    expect(limited.headers.get('retry-after')).toBe('50');
    expect(h.run.sim.balance(KEY_A)).toBe(10_000 - 200);
    // Other endpoints are still open.
    expect((await h.api('GET', '/videos')).status).toBe(200);
    h.advance(50 * SECOND);
    expect((await create()).status).toBe(201);
  });

  it('POST /videos/{id}/render: 10 per 300 s', async () => {
    const id = await completedVideo(h);
    for (let i = 0; i < 10; i += 1)
      expect((await h.api('POST', `/videos/${id}/render`, { body: {} })).status).toBe(202);
    const limited = await h.api('POST', `/videos/${id}/render`, { body: {} });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(300);
  });

  it.each([
    ['/videos/captions', 10, { videoUrl: 'https://v.test/a.mp4' }],
    ['/series', 5, { name: 'S', source: 'ai_story' }],
    [
      '/posts/schedule',
      20,
      { videoId: 'f'.repeat(24), platforms: ['x'], scheduledTime: '2030-01-01T00:00:00Z' },
    ],
    ['/posts', 10, { videoId: 'f'.repeat(24), platform: 'x' }],
  ] as const)('POST %s: %i per 300 s (failed requests count too)', async (path, max, body) => {
    for (let i = 0; i < max; i += 1) expect((await h.api('POST', path, { body })).status).not.toBe(429);
    const limited = await h.api('POST', path, { body });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(300);
  });

  it('POST /series/{id}/generate: 5 per 300 s', async () => {
    const series = await h.api<{ id: string }>('POST', '/series', {
      body: { name: 'S', source: 'ai_story' },
    });
    for (let i = 0; i < 5; i += 1) {
      expect((await h.api('POST', `/series/${series.json.data.id}/generate`)).status).toBe(200);
    }
    expect((await h.api('POST', `/series/${series.json.data.id}/generate`)).status).toBe(429);
  });

  it('default: 300 requests per 60 s per key; other keys keep their own budget', async () => {
    for (let i = 0; i < 300; i += 1) expect((await h.api('GET', '/me')).status).toBe(200);
    const limited = await h.api('GET', '/voices');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect((await h.api('GET', '/me', { key: KEY_A_READONLY })).status).toBe(200);
    h.advance(MINUTE);
    expect((await h.api('GET', '/me')).status).toBe(200);
  });

  it('speed shrinks the windows (speed 60: a minute lasts a second)', async () => {
    h.run.sim.setKnobs({ speed: 60 });
    for (let i = 0; i < 10; i += 1) await create();
    const limited = await create();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    h.advance(SECOND);
    expect((await create()).status).toBe(201);
  });

  it('can be switched off', async () => {
    h.run.sim.setKnobs({ rateLimits: false });
    for (let i = 0; i < 12; i += 1) expect((await create()).status).toBe(201);
  });
});
