import { describe, expect, it } from 'vitest';
import { RateBudget, RateBudgetRegistry, type RateLimits } from '../../src/api/index.js';
import { TRANSIT_MARGIN_MS } from '../../src/api/rate-budget.js';
import { keyId } from '../../src/core/video-api/catalog-cache.js';
import { settle, TestClock } from '../support/test-clock.js';

/** Watches a promise without awaiting it. */
function track(promise: Promise<unknown>) {
  const state = { done: false, error: undefined as unknown };
  promise.then(
    () => {
      state.done = true;
    },
    (error: unknown) => {
      state.error = error;
    },
  );
  return state;
}

async function acquireN(budget: RateBudget, n: number, ...args: Parameters<RateBudget['acquire']>) {
  for (let i = 0; i < n; i++) await budget.acquire(...args);
}

const SMALL: RateLimits = {
  key: { limit: 4, windowMs: 1000 },
  backgroundShare: 0.5,
  endpoints: { 'POST /videos': { limit: 2, windowMs: 10_000 } },
};

/** A call stays in our window this much longer than in the service's (see `TRANSIT_MARGIN_MS`). */
const M = TRANSIT_MARGIN_MS;

describe('RateBudget with the spec limits', () => {
  it('POST /videos: 10 per 60 s, the 11th waits for the oldest to leave the window', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    for (let i = 0; i < 10; i++) {
      await budget.acquire('POST /videos');
      await clock.pass(1000);
    }
    expect(budget.delayFor('POST /videos')).toBe(50_000 + M);
    expect(budget.delayFor('GET /videos/:id')).toBe(0);
    const eleventh = track(budget.acquire('POST /videos'));
    await clock.pass(50_000 + M - 1);
    expect(eleventh.done).toBe(false);
    await clock.pass(1);
    expect(eleventh.done).toBe(true);
  });

  it.each([
    ['POST /videos/captions', 10],
    ['POST /videos/:id/render', 10],
    ['POST /series', 5],
    ['POST /series/:id/generate', 5],
    ['POST /posts', 10],
    ['POST /posts/schedule', 20],
  ] as const)('%s: %i per 300 s', async (endpoint, limit) => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    await acquireN(budget, limit, endpoint);
    expect(budget.delayFor(endpoint)).toBe(300_000 + M);
    expect(budget.usage().endpoints[endpoint]).toEqual({ used: limit, limit, windowMs: 300_000 });
  });

  it('300 per 60 s for the key, across endpoints', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    await acquireN(budget, 299, 'GET /videos/:id/status');
    await budget.acquire('POST /videos');
    expect(budget.delayFor('GET /me')).toBe(60_000 + M);
    expect(budget.usage().key).toEqual({ used: 300, limit: 300, windowMs: 60_000 });
    const next = track(budget.acquire('GET /me'));
    await clock.pass(60_000 + M - 1);
    expect(next.done).toBe(false);
    await clock.pass(1);
    expect(next.done).toBe(true);
  });

  it('background may use 150 of the 300; interactive still has the rest', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    await acquireN(budget, 150, 'GET /videos/:id/status', 'background');
    expect(budget.delayFor('GET /videos/:id/status', 'background')).toBe(60_000 + M);
    expect(budget.delayFor('GET /me', 'interactive')).toBe(0);
    const background = track(budget.acquire('GET /renders/:id', 'background'));
    await acquireN(budget, 150, 'GET /me', 'interactive');
    expect(budget.usage()).toMatchObject({
      key: { used: 300 },
      background: { used: 150, limit: 150 },
      waiting: { background: 1, interactive: 0 },
    });
    await clock.pass(60_000 + M);
    expect(background.done).toBe(true);
  });

  it('a deferrable background look leaves the lane’s last quarter to looks at running jobs', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    // 150 in the background lane; deferrable looks stop at 150 − 37, the others go on to 150.
    await acquireN(budget, 112, 'GET /videos/:id', 'background');
    expect(budget.delayFor('GET /videos/:id', 'background', { deferrable: true })).toBe(0);
    await budget.acquire('GET /videos/:id', 'background');
    expect(budget.delayFor('GET /videos/:id', 'background', { deferrable: true })).toBe(60_000 + M);
    expect(budget.delayFor('GET /videos/:id/status', 'background')).toBe(0);
    await acquireN(budget, 37, 'GET /videos/:id/status', 'background');
    expect(budget.delayFor('GET /videos/:id/status', 'background')).toBe(60_000 + M);
    // People are never held back by either.
    expect(budget.delayFor('GET /me', 'interactive', { deferrable: true })).toBe(0);
  });

  it('background leaves the last fifth of the key to people, even with room left in its own lane', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    await acquireN(budget, 200, 'GET /me', 'interactive');
    // The background lane (150) is untouched, but only 40 more calls fit before the key's reserve (60).
    await acquireN(budget, 40, 'GET /videos/:id/status', 'background');
    expect(budget.delayFor('GET /videos/:id/status', 'background')).toBeGreaterThan(0);
    const poll = track(budget.acquire('GET /videos/:id/status', 'background'));
    // People still have the reserve, at once.
    expect(budget.delayFor('GET /me', 'interactive')).toBe(0);
    await acquireN(budget, 60, 'GET /me', 'interactive');
    expect(budget.usage().key.used).toBe(300);
    await settle();
    expect(poll.done).toBe(false);
  });

  it('keeps each call in its window a little longer than the service does, against differences in transit', async () => {
    // The service counts a call when it arrives: one sent at 0 that took 300 ms in transit is still in its
    // window at 60.1 s, when a call sent at 60 s with 50 ms of transit arrives.
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock });
    await acquireN(budget, 300, 'GET /me');
    await clock.pass(60_000);
    expect(budget.delayFor('GET /me')).toBe(M);
    const zero = new RateBudget({ clock, transitMarginMs: 0 });
    await acquireN(zero, 300, 'GET /me');
    await clock.pass(60_000);
    expect(zero.delayFor('GET /me')).toBe(0);
  });
});

describe('RateBudget lanes and waiting', () => {
  it('background yields: a later interactive caller gets the freed slot first', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock, limits: SMALL, transitMarginMs: 0 });
    await acquireN(budget, 4, 'GET /me');
    const order: string[] = [];
    budget.acquire('GET /videos/:id/status', 'background').then(() => order.push('background'));
    await clock.pass(10);
    budget.acquire('GET /me', 'interactive').then(() => order.push('interactive'));
    expect(budget.delayFor('GET /renders/:id', 'background')).toBe(990);
    await clock.pass(990);
    expect(order).toEqual(['interactive', 'background']);
  });

  it('an interactive caller blocked only by its endpoint does not hold background back', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock, limits: SMALL, transitMarginMs: 0 });
    await acquireN(budget, 2, 'POST /videos');
    const create = track(budget.acquire('POST /videos'));
    const poll = track(budget.acquire('GET /videos/:id/status', 'background'));
    await settle();
    expect(poll.done).toBe(true);
    expect(create.done).toBe(false);
  });

  it('queued callers count in delayFor', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock, limits: SMALL, transitMarginMs: 0 });
    await budget.acquire('GET /me');
    await clock.pass(100);
    await budget.acquire('GET /voices');
    await clock.pass(100);
    await acquireN(budget, 2, 'GET /accounts');
    budget.acquire('GET /series').catch(() => {});
    // One caller is ahead: this one goes when the second-oldest call leaves the window.
    expect(budget.delayFor('GET /me')).toBe(900);
  });

  it('an aborted waiter leaves the queue with the signal reason', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock, limits: SMALL, transitMarginMs: 0 });
    await acquireN(budget, 4, 'GET /me');
    const controller = new AbortController();
    const waiting = budget.acquire('GET /me', 'interactive', controller.signal);
    expect(budget.usage().waiting.interactive).toBe(1);
    controller.abort(new Error('user left'));
    await expect(waiting).rejects.toThrow('user left');
    expect(budget.usage().waiting.interactive).toBe(0);
    expect(clock.pending()).toEqual([]);
  });

  it('a 429 on an unlimited route pauses the whole key', () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock, limits: SMALL, transitMarginMs: 0 });
    budget.noteRateLimited('GET /me', 5000);
    expect(budget.delayFor('GET /voices')).toBe(5000);
    expect(budget.delayFor('POST /videos', 'background')).toBe(5000);
    expect(budget.usage().blockedForMs).toBe(5000);
  });

  it('a 429 on a route with its own limit pauses that route only', () => {
    const clock = new TestClock({ sleep: 'waits' });
    const budget = new RateBudget({ clock, limits: SMALL, transitMarginMs: 0 });
    budget.noteRateLimited('POST /videos', 5000);
    expect(budget.delayFor('POST /videos')).toBe(5000);
    expect(budget.delayFor('GET /voices')).toBe(0);
  });
});

describe('RateBudgetRegistry', () => {
  it('one budget per key, found by a hash of the key', () => {
    const registry = new RateBudgetRegistry({ clock: new TestClock({ sleep: 'waits' }) });
    const a = registry.forKey('sk_live_aaaaaaaaaaaa');
    expect(registry.forKey('sk_live_aaaaaaaaaaaa')).toBe(a);
    expect(registry.forKey('sk_live_bbbbbbbbbbbb')).not.toBe(a);
    const ids = [...registry.entries()].map(([id]) => id);
    expect(ids).toEqual([keyId('sk_live_aaaaaaaaaaaa'), keyId('sk_live_bbbbbbbbbbbb')]);
    expect(ids.join()).not.toContain('sk_live');
  });
});
