import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  DEFAULTS,
  InternalServerError,
  RateLimitedError,
  type ResponseEvent,
  type VideoApiClient,
} from '../../src/api/index.js';
import { backoffDelay, retryDelay } from '../../src/api/retry.js';
import { ME, VIDEO } from './fixtures.js';
import { fail, harness, ORIGIN, ok } from './harness.js';

const gaps = (seen: { at: number }[]) => seen.slice(1).map((s, i) => s.at - (seen[i]?.at ?? 0));
const idem = { idempotencyKey: 'idem-abc' };
const VIDEO_CREATED = ok({ id: 'vid_1', name: 'n', status: 'processing', creditsUsed: 20 });

describe('429', () => {
  it('waits Retry-After, then retries', async () => {
    const h = harness();
    h.reply('GET', '/me', 429, fail('rate_limited'), { headers: { 'retry-after': '3' } });
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(gaps(h.seen)).toEqual([3000]);
  });

  it('retries any method, since the service did not process the request', async () => {
    const h = harness();
    h.reply('PATCH', '/videos/vid_1', 429, fail('rate_limited'), { headers: { 'retry-after': '1' } });
    h.reply('PATCH', '/videos/vid_1', 200, ok({ id: 'vid_1', name: 'n' }));
    await h.clock.run(h.client.videos.update('vid_1', { name: 'n' }));
    expect(h.seen).toHaveLength(2);
  });

  it('over the max wait: fails at once with retryAfter, and the key pauses for other calls', async () => {
    const h = harness({ maxRateLimitWaitMs: 30_000 });
    h.reply('GET', '/me', 429, fail('rate_limited'), { headers: { 'retry-after': '90' } });
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, details: { retryAfter: 90 } });
    expect(h.seen).toHaveLength(1);
    // The next call is refused locally (no request) with the remaining wait.
    const local = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(RateLimitedError);
    expect(local).toMatchObject({ details: { retryAfter: 90 } });
    expect(h.seen).toHaveLength(1);
  });

  it('without Retry-After backs off like a 5xx', async () => {
    const h = harness();
    h.reply('GET', '/me', 429, fail('rate_limited'));
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(gaps(h.seen)).toEqual([250]);
  });

  it('without Retry-After, repeated: exponential with jitter, bounded by backoffMaxMs', async () => {
    const h = harness({ backoffBaseMs: 1_000, backoffMaxMs: 3_000, maxAttempts: 5, random: () => 0.9 });
    h.reply('GET', '/me', 429, fail('rate_limited'), { times: 4 });
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    // 0.9 of a ceiling doubling from 1 s, capped at 3 s.
    expect(gaps(h.seen)).toEqual([900, 1800, 2700, 2700]);
    expect(h.seen.every((s) => s.headers['retry-after'] === undefined)).toBe(true);
  });

  it('without Retry-After, every wait stays within the bounds whatever the jitter', () => {
    const options = { ...DEFAULTS, maxRateLimitWaitMs: 60_000 };
    for (const r of [0, 0.25, 0.5, 0.999]) {
      for (let attempt = 1; attempt < DEFAULTS.maxAttempts; attempt++) {
        const failure = { kind: 'status', status: 429 } as const;
        const wait = retryDelay({
          method: 'POST',
          idempotent: false,
          attempt,
          failure,
          options,
          random: () => r,
        });
        const ceiling = Math.min(DEFAULTS.backoffMaxMs, DEFAULTS.backoffBaseMs * 2 ** (attempt - 1));
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(ceiling);
      }
    }
  });
});

describe('5xx, connection errors and timeouts', () => {
  it('GET: retried with exponential backoff (full jitter), then gives up after maxAttempts', async () => {
    const events: ResponseEvent[] = [];
    const h = harness({ onResponse: (e) => events.push(e) });
    h.reply('GET', '/videos/vid_1', 500, fail('internal_error'), { times: 4 });
    const error = await h.clock.run(h.client.videos.get('vid_1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(h.seen).toHaveLength(DEFAULTS.maxAttempts);
    // random() = 0.5 of a ceiling doubling from 500 ms.
    expect(gaps(h.seen)).toEqual([250, 500, 1000]);
    expect(events.map((e) => [e.attempt, e.status, e.route, e.errorType])).toEqual([
      [1, 500, '/videos/:id', 'internal_error'],
      [2, 500, '/videos/:id', 'internal_error'],
      [3, 500, '/videos/:id', 'internal_error'],
      [4, 500, '/videos/:id', 'internal_error'],
    ]);
  });

  it('GET: recovers when a retry succeeds', async () => {
    const h = harness();
    h.reply('GET', '/videos/vid_1', 503, fail('internal_error'), { times: 2 });
    h.reply('GET', '/videos/vid_1', 200, ok(VIDEO));
    expect((await h.clock.run(h.client.videos.get('vid_1'))).id).toBe('vid_1');
    expect(h.seen).toHaveLength(3);
  });

  it('a 503 Retry-After is honoured instead of the backoff', async () => {
    const h = harness();
    h.reply('GET', '/me', 503, fail('internal_error'), { headers: { 'retry-after': '5' } });
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(gaps(h.seen)).toEqual([5000]);
  });

  it('POST with an Idempotency-Key: retried with the SAME key', async () => {
    const h = harness();
    h.reply('POST', '/videos', 502, fail('internal_error'), { times: 2 });
    h.reply('POST', '/videos', 201, VIDEO_CREATED);
    await h.clock.run(h.client.videos.create({ script: 'long enough script', voiceId: 'v' }, idem));
    expect(h.seen.map((s) => s.headers['idempotency-key'])).toEqual(['idem-abc', 'idem-abc', 'idem-abc']);
    expect(h.seen.map((s) => s.body)).toEqual(Array(3).fill({ script: 'long enough script', voiceId: 'v' }));
  });

  it.each([
    [
      'PATCH',
      (c: VideoApiClient): Promise<unknown> => c.videos.update('vid_1', { name: 'n' }),
      'PATCH',
      '/videos/vid_1',
    ],
    [
      'DELETE (a retried cancel could 409)',
      (c: VideoApiClient) => c.posts.cancel('vid_1'),
      'DELETE',
      '/posts/vid_1',
    ],
    [
      'POST without an Idempotency-Key',
      (c: VideoApiClient) => c.videos.selectThumbnail('vid_1', 'v1'),
      'POST',
      '/videos/vid_1/thumbnail',
    ],
  ])('%s: not retried', async (_name, call, method, path) => {
    const h = harness();
    h.reply(method, path, 500, fail('internal_error'));
    await expect(h.clock.run(call(h.client))).rejects.toBeInstanceOf(InternalServerError);
    expect(h.seen).toHaveLength(1);
  });

  it('connection errors: GET retried, PATCH not', async () => {
    const events: ResponseEvent[] = [];
    const h = harness({ onResponse: (e) => events.push(e) });
    const pool = h.agent.get(ORIGIN);
    pool.intercept({ method: 'GET', path: '/api/v1/me' }).replyWithError(new Error('socket hang up'));
    h.reply('GET', '/me', 200, ok(ME));
    await h.clock.run(h.client.me.get());
    expect(events.map((e) => [e.status, e.errorType])).toEqual([
      [0, 'connection_error'],
      [200, undefined],
    ]);
    pool
      .intercept({ method: 'PATCH', path: '/api/v1/videos/vid_1' })
      .replyWithError(new Error('socket hang up'));
    await expect(h.clock.run(h.client.videos.update('vid_1', { name: 'n' }))).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(events).toHaveLength(3);
  });
});

describe('never retried', () => {
  it.each([
    [402, 'insufficient_credits'],
    [409, 'conflict'],
    [400, 'invalid_input'],
    [401, 'unauthorized'],
    [403, 'forbidden_scope'],
    [404, 'not_found'],
  ])('%i %s, even on an idempotency-keyed POST', async (status, type) => {
    const h = harness();
    h.reply('POST', '/videos', status, fail(type));
    await expect(
      h.clock.run(h.client.videos.create({ script: 'long enough script', voiceId: 'v' }, idem)),
    ).rejects.toMatchObject({ type, status });
    expect(h.seen).toHaveLength(1);
  });
});

describe('the policy itself', () => {
  const options = { maxAttempts: 6, backoffBaseMs: 500, backoffMaxMs: 4000, maxRateLimitWaitMs: 60_000 };
  const server = { kind: 'status', status: 500 } as const;

  it('backoff ceilings double up to the max; jitter is uniform below them', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, options, () => 0.999999))).toEqual([
      499, 999, 1999, 3999, 3999,
    ]);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it('stops at maxAttempts', () => {
    const ctx = { method: 'GET', idempotent: false, failure: server, options, random: () => 0.5 } as const;
    expect(retryDelay({ ...ctx, attempt: 5 })).toBe(2000);
    expect(retryDelay({ ...ctx, attempt: 6 })).toBeUndefined();
  });

  it('a timeout is retried like a 5xx', () => {
    const ctx = { attempt: 1, failure: { kind: 'timeout' }, options, random: () => 0.5 } as const;
    expect(retryDelay({ ...ctx, method: 'GET', idempotent: false })).toBe(250);
    expect(retryDelay({ ...ctx, method: 'POST', idempotent: true })).toBe(250);
    expect(retryDelay({ ...ctx, method: 'POST', idempotent: false })).toBeUndefined();
    expect(retryDelay({ ...ctx, method: 'DELETE', idempotent: false })).toBeUndefined();
  });
});
