import { describe, expect, it } from 'vitest';
import { createVideo, type Harness, MINUTE, startHarness } from './harness.js';
import type { VideoDetail, VideoStatus } from './wire.js';

/** A fixed script of calls; returns everything observable that depends on randomness. */
async function scenario(h: Harness) {
  const ids: string[] = [];
  for (let i = 0; i < 6; i += 1) ids.push(await createVideo(h));
  h.advance(5 * MINUTE);
  const outcomes: unknown[] = [];
  for (const id of ids) {
    const status = (await h.api<VideoStatus>('GET', `/videos/${id}/status`)).json.data;
    const video = (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;
    outcomes.push([status.status, status.percentCompleted, status.errorMessages, video.thumbnails]);
  }
  return { ids, outcomes };
}

const hostile = { generationFailureRate: 0.5, thumbnailFailureRate: 0.3, rateLimits: false };

describe('randomSeed', () => {
  it('the same seed gives the same ids, failures and thumbnails', async () => {
    const a = await startHarness({ ...hostile, randomSeed: 7 });
    const b = await startHarness({ ...hostile, randomSeed: 7 });
    try {
      const ra = await scenario(a);
      const rb = await scenario(b);
      // URLs embed the port, which differs between the two servers.
      const origin = (h: Harness) => h.url.replace('/api/v1', '');
      expect(JSON.stringify(ra).replaceAll(origin(a), '')).toBe(JSON.stringify(rb).replaceAll(origin(b), ''));
      const statuses = ra.outcomes.map((o) => (o as [string])[0]);
      expect(statuses).toContain('failed');
      expect(statuses).toContain('completed');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('another seed gives other ids', async () => {
    const a = await startHarness({ randomSeed: 1 });
    const b = await startHarness({ randomSeed: 2 });
    try {
      expect(await createVideo(a)).not.toBe(await createVideo(b));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
