/**
 * `seedPostHistory`: a team's past posts, seen through the contract's own reads on both profiles — the video
 * (GET /videos), a `posted` calendar entry at its time (GET /calendar) and, in the newer analytics shape, the
 * post with exactly its views (GET /analytics `topPosts`); the older shape has totals only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, KEY_A, startHarness, T0 } from './harness.js';
import type { Analytics } from './wire.js';

let h: Harness;
afterEach(() => h.close());

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(['spec', 'real'] as const)('seeded post history (%s profile)', (profile) => {
  it('reads as posted videos, calendar entries and analytics', async () => {
    h = await startHarness({ rateLimits: false, profile });
    const at = T0 - 3 * DAY;
    const [videoId] = h.run.sim.seedPostHistory(KEY_A, [
      { platform: 'youtube', at, views: 4200, title: 'Tuesday special' },
      { platform: 'tiktok', at: iso(at - DAY), views: 900, title: 'Monday clip' },
    ]);
    const videos = await h.api<{ id: string; name: string; renderedVideoUrl: string | null }[]>(
      'GET',
      '/videos',
    );
    expect(videos.json.data.find((v) => v.id === videoId)).toMatchObject({
      name: 'Tuesday special',
      renderedVideoUrl: expect.stringMatching(/\.mp4$/),
    });
    const day = iso(at).slice(0, 10);
    const calendar = await h.api<{ projectId: string; status: string; scheduledTime: string }[]>(
      'GET',
      `/calendar?startDate=${day}&endDate=${day}&status=posted`,
    );
    expect(calendar.json.data).toMatchObject([{ projectId: videoId, status: 'posted', platform: 'youtube' }]);
    expect(Date.parse(calendar.json.data[0]?.scheduledTime ?? '')).toBe(at);
    const analytics = await h.api<Analytics & { totals: Record<string, number> }>(
      'GET',
      '/analytics?range=90',
    );
    if (profile === 'spec') {
      expect(analytics.json.data.topPosts).toEqual([
        { platform: 'youtube', title: 'Tuesday special', views: 4200, postUrl: expect.any(String) },
        { platform: 'tiktok', title: 'Monday clip', views: 900, postUrl: expect.any(String) },
      ]);
    } else {
      expect(analytics.json.data).not.toHaveProperty('topPosts');
      expect(analytics.json.data.totals).toMatchObject({ posts: 2, views: 5100 });
    }
  });

  it('refuses a post in the future', async () => {
    h = await startHarness({ rateLimits: false, profile });
    expect(() =>
      h.run.sim.seedPostHistory(KEY_A, [{ platform: 'youtube', at: T0 + DAY, views: 1, title: 'Later' }]),
    ).toThrow(/past time/);
  });
});
