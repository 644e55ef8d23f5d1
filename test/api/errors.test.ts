import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ConnectionError,
  ForbiddenScopeError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UsageLimitReachedError,
  VideoApiError,
} from '../../src/api/index.js';
import { API_KEY, fail, harness, ok } from './harness.js';

const ONE_ATTEMPT = { maxAttempts: 1 };

describe('each documented error type → its class', () => {
  it.each([
    [400, 'invalid_input', InvalidInputError],
    [405, 'invalid_input', InvalidInputError],
    [401, 'unauthorized', UnauthorizedError],
    [402, 'insufficient_credits', InsufficientCreditsError],
    [403, 'forbidden_scope', ForbiddenScopeError],
    [403, 'usage_limit_reached', UsageLimitReachedError],
    [404, 'not_found', NotFoundError],
    [409, 'conflict', ConflictError],
    [429, 'rate_limited', RateLimitedError],
    [500, 'internal_error', InternalServerError],
    [503, 'internal_error', InternalServerError],
  ] as const)('%i %s', async (status, type, ErrorClass) => {
    const h = harness(ONE_ATTEMPT);
    h.reply('GET', '/videos/vid_1', status, fail(type, 'script: too short'), {
      headers: { 'x-request-id': 'req-42', ...(status === 429 ? { 'retry-after': '17' } : {}) },
    });
    const error = await h.clock.run(h.client.videos.get('vid_1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error).toMatchObject({
      type,
      status,
      name: ErrorClass.name,
      message: 'GET /videos/vid_1: script: too short',
      details: { status, method: 'GET', path: '/videos/vid_1', requestId: 'req-42' },
    });
    expect((error as VideoApiError).details.retryAfter).toBe(status === 429 ? 17 : undefined);
  });

  it('an unknown type → the base class carrying that type', async () => {
    const h = harness(ONE_ATTEMPT);
    h.reply('GET', '/me', 418, fail('teapot_mode', 'short and stout'));
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoApiError);
    expect((error as Error).constructor).toBe(VideoApiError);
    expect(error).toMatchObject({ type: 'teapot_mode', status: 418 });
  });

  it.each([
    [502, '<html>Bad gateway</html>', InternalServerError, 'internal_error'],
    [404, '', NotFoundError, 'not_found'],
    [429, '', RateLimitedError, 'rate_limited'],
    [418, '{}', VideoApiError, 'http_418'],
  ] as const)('no error.type in a %i body → typed by status', async (status, body, ErrorClass, type) => {
    const h = harness(ONE_ATTEMPT);
    h.reply('GET', '/me', status, body);
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ type, status, message: `GET /me: HTTP ${status}` });
  });

  it('Retry-After as an HTTP date becomes seconds', async () => {
    const h = harness(ONE_ATTEMPT);
    const inTwoMinutes = new Date(h.clock.now() + 120_000).toUTCString();
    h.reply('GET', '/me', 429, fail('rate_limited'), { headers: { 'retry-after': inTwoMinutes } });
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect((error as VideoApiError).details.retryAfter).toBe(120);
  });

  it('the error path has no query string', async () => {
    const h = harness(ONE_ATTEMPT);
    h.reply(
      'GET',
      '/calendar?startDate=2026-03-01&endDate=2026-03-02',
      400,
      fail('invalid_input', 'endDate'),
    );
    const error = await h.clock
      .run(h.client.posts.calendar({ startDate: '2026-03-01', endDate: '2026-03-02' }))
      .catch((e: unknown) => e);
    expect((error as VideoApiError).details.path).toBe('/calendar');
  });
});

describe('the API key never leaks', () => {
  function capture() {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { logger: pino({ level: 'debug' }, stream), lines };
  }

  function expectNoKey(error: unknown) {
    expect(error).toBeInstanceOf(VideoApiError);
    for (const text of [
      (error as Error).message,
      String(error),
      inspect(error, { depth: 5 }),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  }

  it('not when the server echoes it in an error message', async () => {
    const h = harness(ONE_ATTEMPT);
    h.reply('GET', '/me', 401, fail('unauthorized', `key ${API_KEY} was revoked`));
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expectNoKey(error);
    expect((error as Error).message).toBe('GET /me: key [redacted] was revoked');
  });

  it('not when the transport quotes request headers (undici mock mismatch)', async () => {
    const h = harness(ONE_ATTEMPT);
    h.agent
      .get('https://video.test')
      .intercept({ method: 'GET', path: '/api/v1/me', headers: { 'x-never': 'sent' } })
      .reply(200, ok({}));
    const error = await h.clock.run(h.client.me.get()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('[redacted]');
    expectNoKey(error);
  });

  it('not in a response that fails validation', async () => {
    const h = harness(ONE_ATTEMPT);
    h.reply('GET', '/me', 200, ok({ team: API_KEY }));
    expectNoKey(await h.clock.run(h.client.me.get()).catch((e: unknown) => e));
  });

  it('not in the logs, which carry route templates rather than raw ids', async () => {
    const { logger, lines } = capture();
    const h = harness({ logger, maxAttempts: 2 });
    h.reply('GET', '/videos/vid_secret_id/status', 500, fail('internal_error'));
    h.reply(
      'GET',
      '/videos/vid_secret_id/status',
      200,
      ok({ id: 'vid_secret_id', status: 'pending', percentCompleted: 0 }),
    );
    await h.clock.run(h.client.videos.status('vid_secret_id'));
    const log = lines.join('\n');
    expect(log).toContain('/videos/:id/status');
    expect(log).toContain('video api retry');
    expect(log).not.toContain(API_KEY);
    expect(log).not.toContain('vid_secret_id');
  });

  it('not in an inspected client', () => {
    const h = harness();
    expect(inspect(h.client, { depth: 6 })).not.toContain(API_KEY);
    expect(JSON.stringify(h.client.budget.usage())).not.toContain(API_KEY);
  });

  it('not in the constructor error for a malformed key', () => {
    expect(() => harness({ apiKey: `${API_KEY}\nX-Evil: 1` })).toThrow(/^apiKey must be/);
    try {
      harness({ apiKey: `${API_KEY} ` });
    } catch (error) {
      expect(String(error)).not.toContain(API_KEY);
    }
  });
});
