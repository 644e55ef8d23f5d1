import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, HOUR, KEY_B, PLATFORMS, renderedVideo, startHarness } from './harness.js';
import type { Account, Analytics, Voice } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

describe('GET /accounts', () => {
  it('is keyed by all seven platforms in the newer shape', async () => {
    const res = await h.api<Record<string, Account[]>>('GET', '/accounts');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json.data).sort()).toEqual([...PLATFORMS].sort());
    expect(res.json.data.youtube).toEqual([
      { authId: 'acc_a_youtube', label: 'A on youtube', isDefault: true },
    ]);
  });

  it('has empty arrays for platforms without accounts', async () => {
    const res = await h.api<Record<string, Account[]>>('GET', '/accounts', { key: KEY_B });
    expect(res.json.data).toEqual(Object.fromEntries(PLATFORMS.map((p) => [p, []])));
    h.run.sim.connectAccount('Team B', 'threads', { authId: 'th1', label: '@b' });
    const after = await h.api<Record<string, Account[]>>('GET', '/accounts', { key: KEY_B });
    expect(after.json.data.threads).toEqual([{ authId: 'th1', label: '@b', isDefault: true }]);
  });
});

describe('GET /voices', () => {
  it('lists about a dozen voices in the full newer shape, several languages, one custom', async () => {
    const res = await h.api<Voice[]>('GET', '/voices');
    expect(res.status).toBe(200);
    const voices = res.json.data;
    expect(voices.length).toBeGreaterThanOrEqual(12);
    for (const v of voices) {
      expect(v).toEqual({
        id: expect.any(String),
        baseVoiceId: expect.any(String),
        name: expect.any(String),
        previewUrl: expect.stringMatching(/^https:\/\//),
        labels: { language: expect.any(String), gender: expect.any(String), accent: expect.any(String) },
        isCustom: expect.any(Boolean),
        isRecommended: expect.any(Boolean),
        qualityTier: expect.any(String),
        modelPolicy: expect.any(String),
        targetLanguages: expect.any(Array),
      });
    }
    expect(voices.filter((v) => v.isCustom)).toHaveLength(1);
    expect(new Set(voices.map((v) => v.labels.language)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
  });
});

describe('GET /options', () => {
  it('without kind lists the kinds', async () => {
    const res = await h.api<{ kinds: string[] }>('GET', '/options');
    expect(res.json.data.kinds).toEqual([
      'sources',
      'styles',
      'niches',
      'languages',
      'durations',
      'models',
      'captionThemes',
      'music',
      'backgrounds',
      'subreddits',
    ]);
  });

  it('models carry value, name and credits 20/50/100', async () => {
    const res = await h.api<{ kind: string; items: unknown[] }>('GET', '/options?kind=models');
    expect(res.json.data).toEqual({
      kind: 'models',
      items: [
        { value: 'storyboard', name: expect.any(String), credits: 20 },
        { value: 'motion_lite', name: expect.any(String), credits: 50 },
        { value: 'motion_pro', name: expect.any(String), credits: 100 },
      ],
    });
  });

  it('every other kind has {value, name} items', async () => {
    const kinds = (await h.api<{ kinds: string[] }>('GET', '/options')).json.data.kinds;
    for (const kind of kinds.filter((k) => k !== 'models')) {
      const res = await h.api<{ kind: string; items: { value: string; name: string }[] }>(
        'GET',
        `/options?kind=${kind}`,
      );
      expect(res.json.data.kind).toBe(kind);
      expect(res.json.data.items.length).toBeGreaterThan(0);
      for (const item of res.json.data.items)
        expect(item).toEqual({ value: expect.any(String), name: expect.any(String) });
    }
  });
});

describe('POST /assets', () => {
  it('registers a hosted file and answers 201 with id, url, name', async () => {
    const res = await h.api<{ id: string; url: string; name: string }>('POST', '/assets', {
      body: { url: 'https://files.test/logo.png', name: 'Logo', fileType: 'image/png' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      url: 'https://files.test/logo.png',
      name: 'Logo',
    });
    const unnamed = await h.api<{ name: string }>('POST', '/assets', {
      body: { url: 'https://files.test/a/clip.mp4' },
    });
    expect(unnamed.json.data.name).toBe('clip.mp4');
  });
});

describe('GET /analytics', () => {
  it('has the newer shape and starts empty', async () => {
    const res = await h.api<Analytics>('GET', '/analytics');
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      rangeDays: 28,
      rollup: { rangeDays: 28, viewsGained: 0, totalViews: 0, postsSynced: 0, ready: true },
      windows: { d7: { viewsGained: 0, ready: true }, d28: { viewsGained: 0, ready: true } },
      byPlatform: {
        youtube: { totalViews: 0, postsSynced: 0, viewsGained28d: 0 },
        tiktok: { totalViews: 0, postsSynced: 0, viewsGained28d: 0 },
        instagram: { totalViews: 0, postsSynced: 0, viewsGained28d: 0 },
        facebook: { totalViews: 0, postsSynced: 0, viewsGained28d: 0 },
      },
      topPosts: [],
      totals: { totalViews: 0, postsSynced: 0, posts7d: 0 },
      timeseriesReady: true,
    });
  });

  it('reflects posts made, with views growing over time', async () => {
    const id = await renderedVideo(h);
    await h.api('POST', '/posts', { body: { videoId: id, platform: 'youtube', title: 'Moon' } });
    await h.api('POST', '/posts', { body: { videoId: id, platform: 'tiktok' } });
    h.advance(HOUR);
    const early = (await h.api<Analytics>('GET', '/analytics')).json.data;
    expect(early.totals.postsSynced).toBe(2);
    expect(early.totals.posts7d).toBe(2);
    expect(early.byPlatform.youtube?.postsSynced).toBe(1);
    expect(early.topPosts.map((p) => p.platform).sort()).toEqual(['tiktok', 'youtube']);
    expect(early.topPosts.find((p) => p.platform === 'youtube')).toMatchObject({
      title: 'Moon',
      postUrl: expect.any(String),
    });
    h.advance(3 * DAY);
    const later = (await h.api<Analytics>('GET', '/analytics?range=7')).json.data;
    expect(later.rangeDays).toBe(7);
    expect(later.totals.totalViews).toBeGreaterThan(early.totals.totalViews);
    expect(later.rollup.viewsGained).toBe(later.totals.totalViews);
    h.advance(10 * DAY);
    const old = (await h.api<Analytics>('GET', '/analytics?range=7')).json.data;
    expect(old.totals.posts7d).toBe(0);
    expect(old.rollup.viewsGained).toBeLessThan(old.totals.totalViews);
  });

  it('filters by platform and authId', async () => {
    const id = await renderedVideo(h);
    await h.api('POST', '/posts', { body: { videoId: id, platform: 'youtube' } });
    await h.api('POST', '/posts', { body: { videoId: id, platform: 'facebook' } });
    h.advance(DAY);
    const yt = (await h.api<Analytics>('GET', '/analytics?platform=youtube')).json.data;
    expect(Object.keys(yt.byPlatform)).toEqual(['youtube']);
    expect(yt.totals.postsSynced).toBe(1);
    const fb = (await h.api<Analytics>('GET', '/analytics?authId=acc_a_facebook')).json.data;
    expect(fb.topPosts.map((p) => p.platform)).toEqual(['facebook']);
  });
});
