import { describe, expect, it } from 'vitest';
import type { VideoApiClient } from '../../src/api/index.js';
import {
  ACCOUNTS_NEW,
  ANALYTICS_NEW,
  CREDITS,
  ME,
  SERIES_CONFIG,
  STATUS,
  VIDEO,
  VIDEO_LIST_ITEM,
  VOICE_FULL,
} from './fixtures.js';
import { API_KEY, harness, ok } from './harness.js';

const PAGE = { page: 2, limit: 5, total: 11 };
const idem = { idempotencyKey: 'idem-123' };

interface Case {
  name: string;
  call: (c: VideoApiClient) => Promise<unknown>;
  method: string;
  path: string;
  status?: number;
  reply: unknown;
  body?: unknown;
  idempotencyKey?: string;
}

const CASES: Case[] = [
  { name: 'me.get', call: (c) => c.me.get(), method: 'GET', path: '/me', reply: ok(ME) },
  {
    name: 'credits.get',
    call: (c) => c.credits.get({ page: 2, limit: 5 }),
    method: 'GET',
    path: '/credits?page=2&limit=5',
    reply: ok(CREDITS, PAGE),
  },
  {
    name: 'videos.create',
    call: (c) =>
      c.videos.create({ script: 'A script long enough', voiceId: 'voice_anna', model: 'motion_pro' }, idem),
    method: 'POST',
    path: '/videos',
    status: 201,
    body: { script: 'A script long enough', voiceId: 'voice_anna', model: 'motion_pro' },
    idempotencyKey: 'idem-123',
    reply: ok({
      id: 'vid_1',
      name: 'A script',
      model: 'motion_pro',
      status: 'processing',
      creditsUsed: 100,
      statusUrl: '/api/v1/videos/vid_1/status',
    }),
  },
  {
    name: 'videos.caption',
    call: (c) => c.videos.caption({ videoUrl: 'https://cdn.test/in.mp4', language: 'en' }, idem),
    method: 'POST',
    path: '/videos/captions',
    status: 201,
    body: { videoUrl: 'https://cdn.test/in.mp4', language: 'en' },
    idempotencyKey: 'idem-123',
    reply: ok({ id: 'vid_2', status: 'processing', statusUrl: '/api/v1/videos/vid_2/status' }),
  },
  {
    name: 'videos.list',
    call: (c) => c.videos.list({ page: 2, limit: 5, archived: true }),
    method: 'GET',
    path: '/videos?page=2&limit=5&archived=true',
    reply: ok([VIDEO_LIST_ITEM], PAGE),
  },
  {
    name: 'videos.get',
    call: (c) => c.videos.get('vid_1'),
    method: 'GET',
    path: '/videos/vid_1',
    reply: ok(VIDEO),
  },
  {
    name: 'videos.update',
    call: (c) =>
      c.videos.update('vid_1', { name: 'New', posts: { youtube: { title: 'T' }, x: { text: 'hi' } } }),
    method: 'PATCH',
    path: '/videos/vid_1',
    body: { name: 'New', youtubePost: { title: 'T' }, xPost: { text: 'hi' } },
    reply: ok({ id: 'vid_1', name: 'New', youtubePost: { title: 'T' }, xPost: { text: 'hi' } }),
  },
  {
    name: 'videos.delete',
    call: (c) => c.videos.delete('vid_1'),
    method: 'DELETE',
    path: '/videos/vid_1',
    reply: ok({ deleted: true }),
  },
  {
    name: 'videos.selectThumbnail',
    call: (c) => c.videos.selectThumbnail('vid_1', 'v2'),
    method: 'POST',
    path: '/videos/vid_1/thumbnail',
    body: { variantId: 'v2' },
    reply: ok({
      id: 'vid_1',
      thumbnailUrl: 'https://cdn.test/t2.jpg',
      thumbnails: {
        status: 'ready',
        selectedVariantId: 'v2',
        selectedBy: 'user',
        variants: ['https://cdn.test/t2.jpg'],
      },
    }),
  },
  {
    name: 'videos.status',
    call: (c) => c.videos.status('vid_1'),
    method: 'GET',
    path: '/videos/vid_1/status',
    reply: ok(STATUS),
  },
  {
    name: 'videos.render',
    call: (c) => c.videos.render('vid_1', { codec: 'vp8' }, idem),
    method: 'POST',
    path: '/videos/vid_1/render',
    status: 202,
    body: { codec: 'vp8' },
    idempotencyKey: 'idem-123',
    reply: ok({ renderId: 'r_1', statusUrl: '/api/v1/renders/r_1' }),
  },
  {
    name: 'renders.get',
    call: (c) => c.renders.get('r_1'),
    method: 'GET',
    path: '/renders/r_1',
    reply: ok({ renderId: 'r_1', status: 'done', overallProgress: 1, url: 'https://cdn.test/r_1.mp4' }),
  },
  {
    name: 'series.create',
    call: (c) => c.series.create({ name: 'Daily facts', source: 'ai_topics', duration: 60 }, idem),
    method: 'POST',
    path: '/series',
    body: { name: 'Daily facts', source: 'ai_topics', duration: 60 },
    idempotencyKey: 'idem-123',
    reply: ok({
      id: 'ser_1',
      name: 'Daily facts',
      source: 'ai_topics',
      niche: null,
      createdAt: '2026-02-01T10:00:00Z',
    }),
  },
  {
    name: 'series.list',
    call: (c) => c.series.list(),
    method: 'GET',
    path: '/series',
    reply: ok([{ id: 'ser_1', name: 'Daily facts', source: 'ai_topics', niche: 'science', paused: false }]),
  },
  {
    name: 'series.get',
    call: (c) => c.series.get('ser_1'),
    method: 'GET',
    path: '/series/ser_1',
    reply: ok(SERIES_CONFIG),
  },
  {
    name: 'series.update',
    call: (c) => c.series.update('ser_1', { paused: true, autoPostTime: '10:00' }),
    method: 'PATCH',
    path: '/series/ser_1',
    body: { paused: true, autoPostTime: '10:00' },
    reply: ok({ id: 'ser_1', name: 'Daily facts', paused: true, autoPostTime: '10:00' }),
  },
  {
    name: 'series.delete',
    call: (c) => c.series.delete('ser_1'),
    method: 'DELETE',
    path: '/series/ser_1',
    reply: ok({ deleted: true }),
  },
  {
    name: 'series.generate',
    call: (c) => c.series.generate('ser_1', idem),
    method: 'POST',
    path: '/series/ser_1/generate',
    idempotencyKey: 'idem-123',
    reply: ok({ projectId: 'vid_9', statusUrl: '/api/v1/videos/vid_9/status' }),
  },
  {
    name: 'series.episodes',
    call: (c) => c.series.episodes('ser_1', { page: 1, limit: 10 }),
    method: 'GET',
    path: '/series/ser_1/episodes?page=1&limit=10',
    reply: ok(
      [{ id: 'ep_1', projectId: 'vid_9', status: 'posted', scheduledTime: '2026-02-02T09:30:00Z' }],
      PAGE,
    ),
  },
  {
    name: 'posts.publish',
    call: (c) =>
      c.posts.publish(
        { videoId: 'vid_1', platform: 'youtube', privacyStatus: 'private', authId: 'acc_yt_2' },
        idem,
      ),
    method: 'POST',
    path: '/posts',
    body: { videoId: 'vid_1', platform: 'youtube', privacyStatus: 'private', authId: 'acc_yt_2' },
    idempotencyKey: 'idem-123',
    reply: ok({ platform: 'youtube', videoId: 'vid_1', postUrl: 'https://youtu.be/x' }),
  },
  {
    name: 'posts.schedule',
    call: (c) =>
      c.posts.schedule(
        { videoId: 'vid_1', platforms: ['x', 'threads'], scheduledTime: '2026-04-01T09:00:00Z' },
        idem,
      ),
    method: 'POST',
    path: '/posts/schedule',
    body: { videoId: 'vid_1', platforms: ['x', 'threads'], scheduledTime: '2026-04-01T09:00:00Z' },
    idempotencyKey: 'idem-123',
    reply: ok({ taskId: 'task_1', platforms: ['x', 'threads'], scheduledTime: '2026-04-01T09:00:00Z' }),
  },
  {
    name: 'posts.cancel',
    call: (c) => c.posts.cancel('vid_1'),
    method: 'DELETE',
    path: '/posts/vid_1',
    reply: ok({ cancelled: true }),
  },
  {
    name: 'posts.calendar',
    call: (c) =>
      c.posts.calendar({
        startDate: '2026-03-01',
        endDate: '2026-03-07',
        platform: 'x',
        status: 'scheduled',
      }),
    method: 'GET',
    path: '/calendar?startDate=2026-03-01&endDate=2026-03-07&platform=x&status=scheduled',
    reply: ok([
      {
        id: 'c1',
        projectId: 'vid_1',
        platform: 'x',
        status: 'scheduled',
        scheduledTime: '2026-03-02T09:00:00Z',
      },
    ]),
  },
  {
    name: 'accounts.list',
    call: (c) => c.accounts.list(),
    method: 'GET',
    path: '/accounts',
    reply: ok(ACCOUNTS_NEW),
  },
  {
    name: 'voices.list',
    call: (c) => c.voices.list(),
    method: 'GET',
    path: '/voices',
    reply: ok([VOICE_FULL]),
  },
  {
    name: 'options.get',
    call: (c) => c.options.get('models'),
    method: 'GET',
    path: '/options?kind=models',
    reply: ok({ kind: 'models', items: [{ value: 'storyboard', name: 'Storyboard', credits: 20 }] }),
  },
  {
    name: 'options.kinds',
    call: (c) => c.options.kinds(),
    method: 'GET',
    path: '/options',
    reply: ok(['sources', 'styles', 'models']),
  },
  {
    name: 'assets.create',
    call: (c) =>
      c.assets.create({ url: 'https://cdn.test/a.png', name: 'Logo', fileType: 'image/png' }, idem),
    method: 'POST',
    path: '/assets',
    body: { url: 'https://cdn.test/a.png', name: 'Logo', fileType: 'image/png' },
    idempotencyKey: 'idem-123',
    reply: ok({ id: 'asset_1', url: 'https://cdn.test/a.png', name: 'Logo' }),
  },
  {
    name: 'analytics.get',
    call: (c) => c.analytics.get({ platform: 'youtube', authId: 'acc_yt_1', range: 7 }),
    method: 'GET',
    path: '/analytics?platform=youtube&authId=acc_yt_1&range=7',
    reply: ok(ANALYTICS_NEW),
  },
];

describe('each endpoint sends the documented request', () => {
  it.each(CASES)('$name → $method $path', async (c) => {
    const h = harness();
    h.reply(c.method, c.path, c.status ?? 200, c.reply);
    await h.clock.run(c.call(h.client));
    expect(h.seen).toHaveLength(1);
    const [req] = h.seen;
    expect(req?.method).toBe(c.method);
    expect(req?.path).toBe(c.path);
    expect(req?.body).toEqual(c.body);
    expect(req?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req?.headers['user-agent']).toMatch(/^reelbot\/\d+\.\d+\.\d+/);
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers['idempotency-key']).toBe(c.idempotencyKey);
    expect(req?.headers['content-type']).toBe(c.body === undefined ? undefined : 'application/json');
  });

  it('covers every method of the VideoApi port', () => {
    const h = harness();
    const resources = [
      'me',
      'credits',
      'videos',
      'renders',
      'series',
      'posts',
      'accounts',
      'voices',
      'options',
      'assets',
      'analytics',
    ] as const;
    const methods = resources.flatMap((r) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(h.client[r]))
        .filter((m) => m !== 'constructor')
        .map((m) => `${r}.${m}`),
    );
    expect(new Set(CASES.map((c) => c.name))).toEqual(new Set(methods));
  });

  it('percent-encodes path ids as one segment', async () => {
    const h = harness();
    h.reply('GET', '/videos/a%2Fb%20c%3F', 200, ok(VIDEO));
    await h.clock.run(h.client.videos.get('a/b c?'));
    expect(h.seen[0]?.path).toBe('/videos/a%2Fb%20c%3F');
  });

  it.each(['', '.', '..'])(
    'refuses the id %j without sending (not_found, like a malformed id)',
    async (id) => {
      const h = harness();
      await expect(h.client.videos.get(id)).rejects.toMatchObject({
        name: 'NotFoundError',
        type: 'not_found',
      });
      expect(h.seen).toHaveLength(0);
    },
  );

  it('leaves out query parameters that are not given', async () => {
    const h = harness();
    h.reply('GET', '/videos', 200, ok([], { page: 1, limit: 20, total: 0 }));
    await h.clock.run(h.client.videos.list());
    expect(h.seen[0]?.path).toBe('/videos');
  });

  it('accepts a base URL with a trailing slash', async () => {
    const h = harness({ baseUrl: 'https://video.test/api/v1/' });
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(h.seen[0]?.path).toBe('/me');
  });

  it('sends a custom user agent when given', async () => {
    const h = harness({ userAgent: 'reelbot/9.9.9 (test)' });
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(h.seen[0]?.headers['user-agent']).toBe('reelbot/9.9.9 (test)');
  });
});
