import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPTION_KINDS, PLATFORMS } from '../../src/core/video-api/video-api.js';
import {
  type Contract,
  completedVideo,
  DAY,
  DEMO_KEY,
  OTHER_KEY,
  renderedVideo,
  startContract,
} from './support.js';

let c: Contract;
beforeEach(async () => {
  c = await startContract();
});
afterEach(async () => {
  await c.close();
});

describe('GET /me', () => {
  it('maps the team, plan and key', async () => {
    const me = await c.client().me.get();
    expect(me.team).toEqual({ id: expect.any(String), name: 'Demo Team', credits: 500 });
    expect(me.plan).toBe('pro');
    expect(me.auth).toEqual({
      via: 'api_key',
      keyPrefix: DEMO_KEY.slice(0, 12),
      scopes: expect.arrayContaining(['videos:write', 'credits:read', 'analytics:read']),
      legacy: false,
    });
    expect(me.auth.scopes).toHaveLength(11);
    const other = await c.client(OTHER_KEY).me.get();
    expect(other.team.name).toBe('Other Team');
    expect(other.team.id).not.toBe(me.team.id);
  });
});

describe('GET /credits', () => {
  it('balance and ledger, newest first, paginated', async () => {
    const api = c.client();
    await completedVideo(c, api);
    c.advance(1000);
    await completedVideo(c, api);
    const all = await api.credits.get();
    expect(all.balance).toBe(460);
    expect(all.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(all.history.map((e) => [e.type, e.credits])).toEqual([
      ['spending', -20],
      ['spending', -20],
      ['subscription_grant', 500],
    ]);
    expect(all.history[0]).toEqual({
      credits: -20,
      type: 'spending',
      description: expect.stringContaining('storyboard'),
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const page2 = await api.credits.get({ page: 2, limit: 2 });
    expect(page2.pagination).toEqual({ page: 2, limit: 2, total: 3 });
    expect(page2.history.map((e) => e.type)).toEqual(['subscription_grant']);
    expect(page2.balance).toBe(460);
    // The client's view agrees with the simulator's own books.
    const books = c.run.sim.ledger(DEMO_KEY).map((e) => [e.credits, e.type, e.createdAt]);
    expect(books).toEqual(all.history.map((e) => [e.credits, e.type, e.createdAt]).reverse());
  });
});

describe('GET /accounts', () => {
  it('every platform keyed, demo accounts in the newer shape', async () => {
    const accounts = await c.client().accounts.list();
    expect(Object.keys(accounts).sort()).toEqual([...PLATFORMS].sort());
    expect(accounts.youtube).toEqual([
      { authId: 'acc_demo_youtube', label: 'Demo Channel', isDefault: true },
    ]);
    const raw = await c.raw('GET', '/accounts');
    expect(raw.json.data).toMatchObject({ youtube: [{ authId: 'acc_demo_youtube' }] });
  });

  it('a team with nothing connected: empty arrays', async () => {
    const accounts = await c.client(OTHER_KEY).accounts.list();
    for (const platform of PLATFORMS) expect(accounts[platform]).toEqual([]);
  });
});

describe('GET /voices', () => {
  it('stock voices in the full shape, plus the team custom voice', async () => {
    const voices = await c.client().voices.list();
    const aria = voices.find((v) => v.id === 'voice_aria_en');
    expect(aria).toEqual({
      id: 'voice_aria_en',
      name: 'Aria',
      previewUrl: expect.stringMatching(/^https:\/\/.*\.mp3$/),
      labels: { language: 'en', gender: 'female', accent: 'american' },
      isCustom: false,
      isRecommended: true,
      qualityTier: 'premium',
      targetLanguages: ['en', 'es', 'fr'],
    });
    const custom = voices.filter((v) => v.isCustom);
    expect(custom).toHaveLength(1);
    // The custom voice is the team's own: usable as voiceId for this team only.
    const other = await c.client(OTHER_KEY).voices.list();
    expect(other.some((v) => v.id === custom[0]?.id)).toBe(false);
  });
});

describe('GET /options', () => {
  it('without kind: the available kinds', async () => {
    const kinds = await c.client().options.kinds();
    expect([...kinds].sort()).toEqual([...OPTION_KINDS].sort());
  });

  it('models carry their credit cost', async () => {
    const models = await c.client().options.get('models');
    expect(models).toEqual({
      kind: 'models',
      items: [
        { value: 'storyboard', name: expect.any(String), credits: 20 },
        { value: 'motion_lite', name: expect.any(String), credits: 50 },
        { value: 'motion_pro', name: expect.any(String), credits: 100 },
      ],
    });
  });

  it('every kind parses into value/name items', async () => {
    const api = c.client();
    for (const kind of OPTION_KINDS) {
      const catalog = await api.options.get(kind);
      expect(catalog.kind).toBe(kind);
      expect(catalog.items.length).toBeGreaterThan(0);
      for (const item of catalog.items) expect(item).toMatchObject({ value: expect.any(String) });
    }
    const styles = await api.options.get('styles');
    expect(styles.items).toContainEqual({ value: 'cinematic', name: 'Cinematic' });
  });
});

describe('POST /assets', () => {
  it('registers a URL; the same key and body replay the same asset', async () => {
    const api = c.client();
    const key = c.idem('asset');
    const body = { url: 'https://cdn.example.com/media/intro.mp4', name: 'Intro', fileType: 'video/mp4' };
    const asset = await api.assets.create(body, key);
    expect(asset).toEqual({ id: expect.any(String), url: body.url, name: 'Intro' });
    expect(await api.assets.create(body, key)).toEqual(asset);
    const unnamed = await api.assets.create({ url: 'https://cdn.example.com/a/logo.png' }, c.idem('asset'));
    expect(unnamed.name).toBe('logo.png');
    expect(unnamed.id).not.toBe(asset.id);
  });
});

describe('GET /analytics', () => {
  it('empty before anything is posted', async () => {
    const analytics = await c.client().analytics.get();
    expect(analytics).toMatchObject({
      rangeDays: 28,
      totalViews: 0,
      postsSynced: 0,
      ready: true,
      topPosts: [],
    });
  });

  it('posts published through the API show up, views growing with time', async () => {
    const api = c.client();
    const { id } = await renderedVideo(c, api);
    const post = await api.posts.publish(
      { videoId: id, platform: 'youtube', title: 'Octopus facts' },
      c.idem('publish'),
    );
    // X is not an analytics platform (spec §4 enum): published, but not counted.
    await api.posts.publish({ videoId: id, platform: 'x' }, c.idem('publish'));
    c.advance(2 * DAY);
    const analytics = await api.analytics.get();
    expect(analytics.rangeDays).toBe(28);
    expect(analytics.postsSynced).toBe(1);
    expect(analytics.totalViews).toBeGreaterThan(0);
    expect(analytics.viewsGained).toBe(analytics.totalViews);
    expect(analytics.posts7d).toBe(1);
    expect(analytics.byPlatform.youtube).toEqual({
      totalViews: analytics.totalViews,
      postsSynced: 1,
      viewsGained28d: analytics.totalViews,
    });
    expect(analytics.byPlatform.tiktok).toEqual({ totalViews: 0, postsSynced: 0, viewsGained28d: 0 });
    expect(analytics.topPosts).toEqual([
      { platform: 'youtube', title: 'Octopus facts', views: analytics.totalViews, postUrl: post.postUrl },
    ]);
    c.advance(DAY);
    const later = await api.analytics.get({ range: 7, platform: 'youtube', authId: 'acc_demo_youtube' });
    expect(later.rangeDays).toBe(7);
    expect(later.totalViews).toBeGreaterThan(analytics.totalViews);
    expect(Object.keys(later.byPlatform)).toEqual(['youtube']);
    const elsewhere = await api.analytics.get({ platform: 'youtube', authId: 'acc_unknown' });
    expect(elsewhere.postsSynced).toBe(0);
  });

  it('the simulator serves the newer documented shape', async () => {
    const raw = await c.raw('GET', '/analytics?range=90');
    expect(raw.json.data).toMatchObject({
      rangeDays: 90,
      rollup: { rangeDays: 90, ready: true },
      windows: { d7: { ready: true }, d28: { ready: true } },
      totals: { totalViews: 0, postsSynced: 0, posts7d: 0 },
      timeseriesReady: true,
    });
    expect((await c.client().analytics.get({ range: 90 })).rangeDays).toBe(90);
  });
});
