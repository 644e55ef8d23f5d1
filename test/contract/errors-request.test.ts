/** Error types a caller provokes with the request itself: invalid_input (400 and 405), not_found, conflict. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConflictError, InvalidInputError, NotFoundError, type VideoApiClient } from '../../src/api/index.js';
import {
  type Contract,
  caught,
  completedVideo,
  DEMO_KEY,
  expectApiError,
  HOUR,
  OTHER_KEY,
  RENDER_MS,
  SCRIPT,
  startContract,
  T0,
} from './support.js';

let c: Contract;
/** A fresh simulator per test of the calling describe. */
function freshContract(): void {
  beforeEach(async () => {
    c = await startContract();
  });
  afterEach(async () => {
    await c.close();
  });
}

const FUTURE = new Date(T0 + HOUR).toISOString();

describe('invalid_input (400): the message names the field; nothing is created or retried', () => {
  // One simulator for the whole table: each case checks only what it would have changed.
  let ids: { done: string; busy: string };
  beforeAll(async () => {
    c = await startContract();
    const api = c.client();
    const done = (await completedVideo(c, api)).id;
    await api.videos.update(done, { posts: { youtube: { title: 'Stored' } } });
    const busy = (await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, idem())).id;
    ids = { done, busy };
  });
  afterAll(async () => {
    await c.close();
  });

  it.each<[string, string, (api: VideoApiClient, ids: { done: string; busy: string }) => Promise<unknown>]>([
    [
      'script too short',
      'script',
      (api) => api.videos.create({ script: 'short', voiceId: 'voice_aria_en' }, idem()),
    ],
    [
      'unknown voice',
      'voiceId',
      (api) => api.videos.create({ script: SCRIPT, voiceId: 'voice_nobody' }, idem()),
    ],
    [
      'style outside the catalog',
      'style',
      (api) => api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en', style: 'baroque' }, idem()),
    ],
    [
      'a field the endpoint does not take',
      'duration',
      (api) => api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en', duration: 30 } as never, idem()),
    ],
    ['captions without a URL', 'videoUrl', (api) => api.videos.caption({ name: 'x' }, idem())],
    ['captions with a non-URL', 'audioUrl', (api) => api.videos.caption({ audioUrl: 'pod.mp3' }, idem())],
    ['page 0', 'page', (api) => api.credits.get({ page: 0 })],
    ['limit over 100', 'limit', (api) => api.videos.list({ limit: 101 })],
    ['episodes limit 0', 'limit', (api) => api.series.episodes('0'.repeat(24), { limit: 0 })],
    [
      'YouTube title over 100',
      'youtubePost.title',
      (api, { done }) => api.videos.update(done, { posts: { youtube: { title: 'T'.repeat(101) } } }),
    ],
    [
      'X text over 280',
      'xPost.text',
      (api, { done }) => api.videos.update(done, { posts: { x: { text: 'x'.repeat(281) } } }),
    ],
    ['name over 120', 'name', (api, { done }) => api.videos.update(done, { name: 'n'.repeat(121) })],
    ['unknown thumbnail variant', 'variantId', (api, { done }) => api.videos.selectThumbnail(done, 'nope')],
    ['render before generation completes', 'status', (api, { busy }) => api.videos.render(busy, {}, idem())],
    [
      'publish an unrendered video',
      'videoId',
      (api, { done }) => api.posts.publish({ videoId: done, platform: 'youtube' }, idem()),
    ],
    [
      'schedule without the platform metadata',
      'xPost',
      (api, { done }) =>
        api.posts.schedule({ videoId: done, platforms: ['youtube', 'x'], scheduledTime: FUTURE }, idem()),
    ],
    [
      'schedule in the past',
      'scheduledTime',
      (api, { done }) =>
        api.posts.schedule(
          { videoId: done, platforms: ['youtube'], scheduledTime: new Date(T0 - HOUR).toISOString() },
          idem(),
        ),
    ],
    [
      'calendar with a bad date',
      'startDate',
      (api) => api.posts.calendar({ startDate: '5 Jan', endDate: '2026-01-05' }),
    ],
    [
      'calendar range reversed',
      'endDate',
      (api) => api.posts.calendar({ startDate: '2026-01-05', endDate: '2026-01-01' }),
    ],
    [
      'series autoPostTime not HH:mm',
      'autoPostTime',
      (api) => api.series.create({ name: 'S', source: 'ai_story', autoPostTime: '9am' }, idem()),
    ],
    [
      'series duration not 30/60/90',
      'duration',
      (api) => api.series.create({ name: 'S', source: 'ai_story', duration: 45 as 30 }, idem()),
    ],
    [
      'series source outside the catalog',
      'source',
      (api) => api.series.create({ name: 'S', source: 'tv' }, idem()),
    ],
    ['asset URL not a URL', 'url', (api) => api.assets.create({ url: 'intro.mp4' }, idem())],
    ['analytics range 30', 'range', (api) => api.analytics.get({ range: 30 as 28 })],
  ])('%s → names %s', async (_name, field, call) => {
    const api = c.client();
    const ledger = c.run.sim.ledger(DEMO_KEY).length;
    const videos = (await api.videos.list()).pagination.total;
    const attempts = c.events.length;

    const error = await caught(call(api, ids));
    expectApiError(error, InvalidInputError, 'invalid_input', 400);
    expect(error.message).toContain(field);
    expect(c.events.length - attempts).toBe(1);
    expect(c.run.sim.ledger(DEMO_KEY)).toHaveLength(ledger);
    expect((await api.videos.list()).pagination.total).toBe(videos);
    expect(await api.posts.calendar({ startDate: '2026-01-01', endDate: '2026-12-31' })).toEqual([]);
  });
});

describe('invalid_input (400): refusals that depend on state', () => {
  freshContract();

  it('a failed video cannot be scheduled; a platform without an account cannot be published to', async () => {
    const other = c.client(OTHER_KEY);
    const { id } = await completedVideo(c, other);
    const { renderId } = await other.videos.render(id, {}, idem());
    c.advance(RENDER_MS);
    expect((await other.renders.get(renderId)).status).toBe('done');
    const error = await caught(other.posts.publish({ videoId: id, platform: 'tiktok' }, idem()));
    expectApiError(error, InvalidInputError, 'invalid_input', 400);
    expect(error.message).toContain('platform');

    const api = c.client();
    c.run.sim.setKnobs({ generationFailureRate: 1 });
    const failed = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, idem());
    await api.videos.update(failed.id, { posts: { youtube: { title: 'T' } } });
    c.advance(5 * 60_000);
    const refused = await caught(
      api.posts.schedule({ videoId: failed.id, platforms: ['youtube'], scheduledTime: FUTURE }, idem()),
    );
    expectApiError(refused, InvalidInputError, 'invalid_input', 400);
    expect(refused.message).toContain('videoId');
  });
});

describe('invalid_input (405): wrong method', () => {
  freshContract();

  it('on the wire: 405, Allow, the documented envelope (raw fetch)', async () => {
    const res = await c.raw('PUT', '/videos');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, GET');
    expect(res.json).toEqual({
      success: false,
      error: { type: 'invalid_input', message: expect.stringContaining('PUT') },
    });
    expect((await c.raw('POST', '/me')).status).toBe(405);
  });

  it("through the client's generic request(): InvalidInputError carrying 405", async () => {
    // The resource methods only use documented methods, so only request() can send a wrong one.
    const api = c.client();
    const error = await caught(api.request({ method: 'DELETE', route: '/credits', schema: z.unknown() }));
    expectApiError(error, InvalidInputError, 'invalid_input', 405);
    expect(error.message).toContain('DELETE');
  });
});

describe('not_found (404): unknown, malformed and other-team ids are all the same', () => {
  freshContract();

  it('every id-taking endpoint', async () => {
    const other = c.client(OTHER_KEY);
    const theirs = await completedVideo(c, other);
    const theirRender = await other.videos.render(theirs.id, {}, idem());
    const theirSeries = await other.series.create({ name: 'Theirs', source: 'ai_story' }, idem());
    const api = c.client();

    const calls: [string, (video: string, render: string, series: string) => Promise<unknown>][] = [
      ['videos.get', (v) => api.videos.get(v)],
      ['videos.update', (v) => api.videos.update(v, { name: 'mine now' })],
      ['videos.delete', (v) => api.videos.delete(v)],
      ['videos.selectThumbnail', (v) => api.videos.selectThumbnail(v, 'variant')],
      ['videos.status', (v) => api.videos.status(v)],
      ['videos.render', (v) => api.videos.render(v, {}, idem())],
      ['renders.get', (_v, r) => api.renders.get(r)],
      ['series.get', (_v, _r, s) => api.series.get(s)],
      ['series.update', (_v, _r, s) => api.series.update(s, { paused: true })],
      ['series.delete', (_v, _r, s) => api.series.delete(s)],
      ['series.generate', (_v, _r, s) => api.series.generate(s, idem())],
      ['series.episodes', (_v, _r, s) => api.series.episodes(s)],
      ['posts.cancel', (v) => api.posts.cancel(v)],
      ['posts.publish', (v) => api.posts.publish({ videoId: v, platform: 'youtube' }, idem())],
      [
        'posts.schedule',
        (v) => api.posts.schedule({ videoId: v, platforms: ['youtube'], scheduledTime: FUTURE }, idem()),
      ],
    ];
    const unknown = '0123456789abcdef01234567';
    const ids: [string, string, string, string][] = [
      ['unknown', unknown, unknown, unknown],
      ['malformed', 'not-an-id', '../me', 'x%2Fy'],
      ['other team', theirs.id, theirRender.renderId, theirSeries.id],
    ];
    for (const [kind, video, render, series] of ids) {
      for (const [name, call] of calls) {
        const error = await caught(call(video, render, series));
        expect({ kind, name, type: error.type }).toEqual({ kind, name, type: 'not_found' });
        expectApiError(error, NotFoundError, 'not_found', 404);
      }
    }
    // The other team's resources are untouched.
    expect((await other.videos.get(theirs.id)).name).not.toBe('mine now');
    expect((await other.series.get(theirSeries.id)).paused).toBe(false);
    expect(c.run.sim.publishedPosts()).toEqual([]);
  });

  it('an empty id is refused by the client without a request', async () => {
    const attempts = c.events.length;
    const error = await caught(c.client().videos.get(''));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(c.events.length).toBe(attempts);
  });

  it('an unknown endpoint is 404 not_found on the wire', async () => {
    const res = await c.raw('GET', '/teams');
    expect(res.status).toBe(404);
    expect(res.json.error?.type).toBe('not_found');
  });
});

describe('conflict (409)', () => {
  freshContract();

  it('an Idempotency-Key reused with a different body: not retried, nothing created', async () => {
    const api = c.client();
    const key = idem();
    const first = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, key);
    const ledger = c.run.sim.ledger(DEMO_KEY).length;
    const attempts = c.events.length;
    const error = await caught(
      api.videos.create({ script: `${SCRIPT} Again.`, voiceId: 'voice_aria_en' }, key),
    );
    expectApiError(error, ConflictError, 'conflict', 409);
    expect(error.message).toContain(key.idempotencyKey);
    expect(c.events.length - attempts).toBe(1);
    expect(c.run.sim.ledger(DEMO_KEY)).toHaveLength(ledger);
    expect((await api.videos.list()).items.map((v) => v.id)).toEqual([first.id]);
    // The same key on another endpoint is a different request too.
    const elsewhere = await caught(api.assets.create({ url: 'https://cdn.example.com/a.png' }, key));
    expectApiError(elsewhere, ConflictError, 'conflict', 409);
  });

  it('cancelling when nothing is scheduled', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    const attempts = c.events.length;
    const error = await caught(api.posts.cancel(id));
    expectApiError(error, ConflictError, 'conflict', 409);
    expect(c.events.length - attempts).toBe(1);
  });
});

let idemCount = 0;
function idem(): { idempotencyKey: string } {
  idemCount += 1;
  return { idempotencyKey: `errors-request-${idemCount}` };
}
