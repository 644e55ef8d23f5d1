/** rate_limited and internal_error end to end: the simulator's 429/5xx, the client's retries, idempotency. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  createVideoApiFactory,
  InternalServerError,
  RateLimitedError,
  TimeoutError,
  type VideoApiClient,
} from '../../src/api/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { describeApiError } from '../../src/core/video-api/api-errors.js';
import {
  type Contract,
  caught,
  completedVideo,
  DEMO_KEY,
  expectApiError,
  HOUR,
  MINUTE,
  renderedVideo,
  SCRIPT,
  startContract,
  startProxy,
  T0,
} from './support.js';

let c: Contract;
beforeEach(async () => {
  c = await startContract();
});
afterEach(async () => {
  c.clock.onSleep = undefined;
  await c.close();
});

const spends = () => c.run.sim.ledger(DEMO_KEY).filter((e) => e.type === 'spending').length;
const statuses = (route: string, from = 0) =>
  c.events
    .slice(from)
    .filter((e) => e.route === route)
    .map((e) => e.status);

/** Uses up POST /videos (10 per 60 s) with requests the simulator refuses as 400 after counting them. */
async function exhaustVideoCreation(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const res = await c.raw('POST', '/videos', { body: { script: 'short', voiceId: 'voice_aria_en' } });
    expect(res.status).toBe(400);
  }
}

describe('rate_limited (429)', () => {
  it('on the wire: 429 with Retry-After in seconds, the documented envelope (raw fetch)', async () => {
    await exhaustVideoCreation();
    const res = await c.raw('POST', '/videos', { body: { script: SCRIPT, voiceId: 'voice_aria_en' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.json).toEqual({
      success: false,
      error: { type: 'rate_limited', message: expect.any(String) },
    });
    c.advance(MINUTE);
    expect((await c.raw('POST', '/videos', { body: { script: 'short', voiceId: 'x' } })).status).toBe(400);
  });

  it('the client (own budget, unaware of the raw calls) waits Retry-After and retries once', async () => {
    await exhaustVideoCreation();
    const api = c.client();
    const from = c.events.length;
    const created = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    expect(statuses('/videos', from)).toEqual([429, 201]);
    expect(c.clock.sleeps).toEqual([60_000]);
    expect(c.clock.now()).toBe(T0 + MINUTE);
    expect(c.run.sim.chargesFor(created.id)).toHaveLength(1);
  });

  it('the key-wide limit (300 per 60 s): the client pauses the whole key, then retries', async () => {
    for (let batch = 0; batch < 6; batch++) {
      const replies = await Promise.all(Array.from({ length: 50 }, () => c.raw('GET', '/me')));
      expect(replies.every((r) => r.status === 200)).toBe(true);
    }
    const over = await c.raw('GET', '/voices');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const api = c.client();
    const from = c.events.length;
    expect((await api.me.get()).team.name).toBe('Demo Team');
    expect(statuses('/me', from)).toEqual([429, 200]);
    expect(c.clock.sleeps).toEqual([Number(over.headers.get('retry-after')) * 1000]);
  });

  it('Retry-After beyond maxRateLimitWaitMs: RateLimitedError with retryAfter, nothing waited', async () => {
    // Two clients of one key WITHOUT a shared budget: the second learns of the limit from the 429.
    const first = c.client();
    for (let i = 0; i < 10; i++)
      await first.videos.caption({ videoUrl: `https://cdn.example.com/${i}.mp4` }, c.idem());
    const second = c.client();
    const from = c.events.length;
    const error = await caught(
      second.videos.caption({ videoUrl: 'https://cdn.example.com/x.mp4' }, c.idem()),
    );
    expectApiError(error, RateLimitedError, 'rate_limited', 429);
    expect(error.details.retryAfter).toBe(300);
    expect(statuses('/videos/captions', from)).toEqual([429]);
    expect(c.clock.sleeps).toEqual([]);
    expect(describeApiError(error)).toContain('300 s');
    // The same second client now refuses on its own (its key is paused), without a request.
    const local = await caught(
      second.videos.caption({ videoUrl: 'https://cdn.example.com/y.mp4' }, c.idem()),
    );
    expect(local).toBeInstanceOf(RateLimitedError);
    expect(c.events.length - from).toBe(1);
    // A patient client waits the five minutes and gets through.
    const patient = c.client(DEMO_KEY, { maxRateLimitWaitMs: 10 * MINUTE });
    const created = await patient.videos.caption({ videoUrl: 'https://cdn.example.com/z.mp4' }, c.idem());
    expect(created.id).toEqual(expect.any(String));
    expect(c.clock.sleeps).toEqual([300_000]);
  });

  it('clients from one factory share the budget: the 11th waits locally instead of provoking a 429', async () => {
    const factory = createVideoApiFactory({
      baseUrl: c.run.url,
      clock: c.clock,
      timeoutClock: systemClock,
      random: () => 0.5,
      onResponse: (event) => c.events.push(event),
    });
    const a = factory(DEMO_KEY);
    for (let i = 0; i < 10; i++)
      await a.videos.caption({ videoUrl: `https://cdn.example.com/${i}.mp4` }, c.idem());
    const from = c.events.length;
    const error = await caught(
      factory(DEMO_KEY).videos.caption({ videoUrl: 'https://cdn.example.com/b.mp4' }, c.idem()),
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    // Five minutes and the transit margin the budget keeps (rate-budget.ts).
    expect(error.details.retryAfter).toBe(301);
    expect(c.events.length).toBe(from);
    expect(factory.budgets.forKey(DEMO_KEY).usage().endpoints['POST /videos/captions']?.used).toBe(10);
  });
});

describe('internal_error (5xx)', () => {
  it('on the wire: 500 with the documented envelope (raw fetch)', async () => {
    c.run.sim.setKnobs({ serverErrorRate: 1 });
    const res = await c.raw('GET', '/videos');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      success: false,
      error: { type: 'internal_error', message: expect.any(String) },
    });
  });

  it('GET: retried with backoff up to maxAttempts, then InternalServerError', async () => {
    c.run.sim.setKnobs({ serverErrorRate: 1 });
    const error = await caught(c.client().videos.list());
    expectApiError(error, InternalServerError, 'internal_error', 500);
    expect(statuses('/videos')).toEqual([500, 500, 500, 500]);
    // Full jitter with random() = 0.5: half of 500, 1000, 2000 ms.
    expect(c.clock.sleeps).toEqual([250, 500, 1000]);
  });

  it('GET recovers when the server does', async () => {
    c.run.sim.setKnobs({ serverErrorRate: 1 });
    c.clock.onSleep = () => c.run.sim.setKnobs({ serverErrorRate: 0 });
    expect((await c.client().credits.get()).balance).toBe(500);
    expect(statuses('/credits')).toEqual([500, 200]);
  });

  it('PATCH, DELETE and a POST without Idempotency-Key are not retried', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    c.run.sim.setKnobs({ serverErrorRate: 1 });
    const from = c.events.length;
    const calls: Promise<unknown>[] = [
      api.videos.update(id, { name: 'renamed' }),
      api.videos.delete(id),
      api.posts.cancel(id),
      api.series.update('0123456789abcdef01234567', { paused: true }),
      api.videos.selectThumbnail(id, 'variant'),
    ];
    for (const call of calls) expectApiError(await caught(call), InternalServerError, 'internal_error', 500);
    expect(c.events.length - from).toBe(calls.length);
    c.run.sim.setKnobs({ serverErrorRate: 0 });
    expect((await api.videos.get(id)).name).not.toBe('renamed');
  });

  it('POST /videos with an Idempotency-Key: retried once the knob flips, charged once; replays after', async () => {
    const api = c.client();
    c.run.sim.setKnobs({ serverErrorRate: 1 });
    c.clock.onSleep = () => c.run.sim.setKnobs({ serverErrorRate: 0 });
    const key = c.idem('create');
    const body = { script: SCRIPT, voiceId: 'voice_aria_en' };
    const created = await api.videos.create(body, key);
    expect(statuses('/videos')).toEqual([500, 201]);
    expect(c.clock.sleeps).toEqual([250]);
    expect(spends()).toBe(1);
    // The same logical action again (a double click, a restart): the stored response, no new charge.
    expect(await api.videos.create(body, key)).toEqual(created);
    expect(spends()).toBe(1);
    expect((await api.videos.list()).pagination.total).toBe(1);
    const raw = await c.raw('POST', '/videos', { body, headers: { 'idempotency-key': key.idempotencyKey } });
    expect(raw.status).toBe(201);
    expect(raw.headers.get('idempotent-replayed')).toBe('true');
    expect(raw.json.data).toMatchObject({ id: created.id });
  });
});

describe("the client's own failures against a real socket", () => {
  it('timeout: the simulator answers later than timeoutMs (real time, kept tiny)', async () => {
    c.run.sim.setKnobs({ latencyMs: 200 });
    const api = c.client(DEMO_KEY, { timeoutMs: 20, maxAttempts: 1 });
    const error = await caught(api.me.get());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.type).toBe('timeout');
    expect(describeApiError(error)).toContain('too long');
  });

  it('connection_error: nothing listens any more', async () => {
    const api = c.client(DEMO_KEY, { maxAttempts: 1 });
    await c.close();
    const error = await caught(api.me.get());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.type).toBe('connection_error');
    c = await startContract();
  });
});

describe('idempotency: the response is lost after the service acted, the client retries the same key', () => {
  /** Each idempotent endpoint with what "acting twice" would show. */
  const CASES: [
    string,
    string,
    (api: VideoApiClient, s: Setup) => Promise<unknown>,
    (s: Setup) => Promise<number>,
  ][] = [
    [
      'videos.create',
      '/videos',
      (api) => api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, { idempotencyKey: 'lost' }),
      async () => spends(),
    ],
    [
      'videos.caption',
      '/videos/captions',
      (api) => api.videos.caption({ videoUrl: 'https://cdn.example.com/v.mp4' }, { idempotencyKey: 'lost' }),
      async (s) => (await s.direct.videos.list()).pagination.total,
    ],
    [
      'videos.render',
      '/render',
      (api, s) => api.videos.render(s.completed, {}, { idempotencyKey: 'lost' }),
      async () => 0,
    ],
    [
      'series.create',
      '/series',
      (api) => api.series.create({ name: 'Once', source: 'ai_story' }, { idempotencyKey: 'lost' }),
      async (s) => (await s.direct.series.list()).length,
    ],
    [
      'series.generate',
      '/generate',
      (api, s) => api.series.generate(s.series, { idempotencyKey: 'lost' }),
      async () => spends(),
    ],
    [
      'posts.publish',
      '/posts',
      (api, s) => api.posts.publish({ videoId: s.rendered, platform: 'youtube' }, { idempotencyKey: 'lost' }),
      async () => c.run.sim.publishedPosts().length,
    ],
    [
      'posts.schedule',
      '/posts/schedule',
      (api, s) =>
        api.posts.schedule(
          {
            videoId: s.completed,
            platforms: ['youtube'],
            scheduledTime: new Date(T0 + 2 * HOUR).toISOString(),
          },
          { idempotencyKey: 'lost' },
        ),
      async (s) => (await s.direct.posts.calendar({ startDate: '2026-01-05', endDate: '2026-01-05' })).length,
    ],
    [
      'assets.create',
      '/assets',
      (api) => api.assets.create({ url: 'https://cdn.example.com/a.png' }, { idempotencyKey: 'lost' }),
      async () => 0,
    ],
  ];

  interface Setup {
    direct: VideoApiClient;
    completed: string;
    rendered: string;
    series: string;
  }

  it.each(CASES)('%s', async (_name, pathEnd, call, effects) => {
    const direct = c.client();
    const rendered = (await renderedVideo(c, direct)).id;
    const completed = (await completedVideo(c, direct)).id;
    await direct.videos.update(completed, { posts: { youtube: { title: 'Stored' } } });
    const series = (await direct.series.create({ name: 'S', source: 'ai_story' }, c.idem())).id;
    const setup: Setup = { direct, completed, rendered, series };
    const before = await effects(setup);

    let dropped = false;
    const proxy = await startProxy(c.run.url, (seen) => {
      if (dropped || seen.method !== 'POST' || !seen.path.split('?')[0]?.endsWith(pathEnd)) return undefined;
      dropped = true;
      return {
        status: 502,
        body: { success: false, error: { type: 'internal_error', message: 'bad gateway' } },
      };
    });
    try {
      const api = c.client(DEMO_KEY, { baseUrl: proxy.url });
      const result = await call(api, setup);
      const posts = proxy.seen.filter((s) => s.method === 'POST');
      expect(posts.map((s) => s.upstreamStatus)).toEqual([
        posts[0]?.upstreamStatus,
        posts[0]?.upstreamStatus,
      ]);
      expect(posts[0]?.upstreamStatus).toBeLessThan(300);
      expect(posts.map((s) => s.headers['idempotency-key'])).toEqual(['lost', 'lost']);
      expect(posts[1]?.upstreamHeaders.get('idempotent-replayed')).toBe('true');
      // What the client got is what the lost response said, and the service acted once.
      expect(JSON.parse(posts[1]?.upstreamBody ?? '')).toEqual(JSON.parse(posts[0]?.upstreamBody ?? ''));
      const lost = JSON.parse(posts[0]?.upstreamBody ?? '').data as Record<string, unknown>;
      // The field the client keeps that tells this response apart (a schedule's task id is not read).
      const idField =
        ['id', 'renderId', 'projectId', 'postUrl', 'scheduledTime'].find((k) => k in lost) ?? 'id';
      expect((result as Record<string, unknown>)[idField]).toBe(lost[idField]);
      const after = await effects(setup);
      expect(after - before).toBe(pathEnd === '/render' || pathEnd === '/assets' ? 0 : 1);
    } finally {
      await proxy.close();
    }
  });
});
