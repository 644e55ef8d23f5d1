/**
 * The words a user reads for each error type (DESIGN §6): every documented `error.type`, the client's own
 * types, `payment_failed` (seen from the real service), and any other type, which stays open.
 */
import { describe, expect, it } from 'vitest';
import { VideoApiError } from '../../src/api/index.js';
import { say } from '../../src/core/text/messages.js';
import { describeApiError } from '../../src/core/video-api/api-errors.js';
import { commandsAsTyped } from '../support/commands-as-typed.js';
import { API_KEY, fail, harness } from './harness.js';

const ONE_ATTEMPT = { maxAttempts: 1 };

/** Each type with a phrase of its own message: what the user should do about it. */
const WORDS: [type: string, status: number | undefined, phrase: RegExp][] = [
  ['invalid_input', 400, /^The video service rejected the request: POST \/videos: script too short/],
  ['unauthorized', 401, /Run `\/reel link` with a fresh key/],
  ['insufficient_credits', 402, /top up in the dashboard/],
  ['payment_failed', 402, /payment failed .* nothing was charged or created\. Update the payment method/],
  ['forbidden_scope', 403, /lacks the `videos:write` scope/],
  ['usage_limit_reached', 403, /cap on video projects is reached/],
  ['not_found', 404, /was not found in your team/],
  ['conflict', 409, /That changed meanwhile: .* check the current state/],
  ['rate_limited', 429, /busy for your team\. Try again in 7 s/],
  ['internal_error', 500, /internal error .* try again in a moment/],
  ['connection_error', undefined, /could not reach the video service/],
  ['timeout', undefined, /took too long to answer/],
  ['invalid_response', 200, /sent an answer I could not read/],
];

describe('every error type has words of its own', () => {
  it.each(WORDS)('%s', (type, status, phrase) => {
    const error = new VideoApiError(type, 'POST /videos: script too short', {
      method: 'POST',
      path: '/videos',
      ...(status === undefined ? {} : { status }),
      ...(type === 'rate_limited' ? { retryAfter: 7 } : {}),
    });
    // As a Slack member reads it: command references written as typed there.
    const words = commandsAsTyped(describeApiError(error));
    expect(words).toMatch(phrase);
    expect(words).not.toMatch(/^The video service refused this/);
  });

  it('an unknown type: generic but actionable, with the service’s message and the type', () => {
    const error = new VideoApiError('quota_frozen', 'POST /videos: your workspace is frozen', {
      method: 'POST',
      path: '/videos',
      status: 423,
    });
    const words = describeApiError(error);
    expect(words).toContain(
      'The video service refused this (quota_frozen): POST /videos: your workspace is frozen',
    );
    expect(words).toContain(
      'Try again later; if it keeps happening, check the dashboard or tell your admin.',
    );
    expect(words).toBe(say('api.unknown', { type: 'quota_frozen', message: error.message }));
  });
});

describe('payment_failed through the real client', () => {
  it('a 402 payment_failed is carried as its own type, never retried, and worded plainly', async () => {
    const h = harness({ maxAttempts: 4 });
    h.reply('POST', '/videos', 402, fail('payment_failed', `card declined for ${API_KEY}`));
    const error = await h.clock
      .run(h.client.videos.create({ script: 'A script long enough.', voiceId: 'v' }, { idempotencyKey: 'k' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoApiError);
    expect(error).toMatchObject({ type: 'payment_failed', status: 402 });
    expect(h.seen).toHaveLength(1);
    expect(String(error)).not.toContain(API_KEY);
    expect(describeApiError(error as VideoApiError)).toBe(
      'The payment failed at the video service, so nothing was charged or created. Update the payment method in the dashboard, then try again.',
    );
  });

  it('an unknown type keeps the service’s message, redacted', async () => {
    const h = harness(ONE_ATTEMPT);
    h.reply('GET', '/me', 451, fail('region_blocked', `not here, ${API_KEY}`));
    const error = (await h.clock.run(h.client.me.get()).catch((e: unknown) => e)) as VideoApiError;
    expect(error.type).toBe('region_blocked');
    const words = describeApiError(error);
    // Card markdown: the brackets are escaped.
    expect(words).toContain('(region_blocked): GET /me: not here, \\[redacted\\]');
    expect(words).not.toContain(API_KEY);
  });
});
