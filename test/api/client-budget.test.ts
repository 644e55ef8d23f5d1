import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  createVideoApiFactory,
  RateBudgetRegistry,
  RateLimitedError,
  type VideoApiClient,
} from '../../src/api/index.js';
import { TRANSIT_MARGIN_MS } from '../../src/api/rate-budget.js';
import { TestClock } from '../support/test-clock.js';
import { API_KEY, BASE_URL, fail, harness, ORIGIN, ok } from './harness.js';

const CREATED = ok({ id: 'vid_1', name: 'n', status: 'processing', creditsUsed: 20 });
const create = (c: VideoApiClient, i: number) =>
  c.videos.create({ script: 'long enough script', voiceId: 'v' }, { idempotencyKey: `k${i}` });

describe('the client waits for its budget instead of provoking a 429', () => {
  it('the 11th POST /videos in a minute is sent when the window allows, not before', async () => {
    const h = harness();
    h.reply('POST', '/videos', 201, CREATED, { times: 11 });
    const start = h.clock.now();
    await h.clock.run(Promise.all(Array.from({ length: 11 }, (_, i) => create(h.client, i))));
    // The window plus the transit margin (see rate-budget.ts).
    expect(h.seen.map((s) => s.at - start)).toEqual([...Array(10).fill(0), 60_000 + TRANSIT_MARGIN_MS]);
  });

  it('a wait longer than maxRateLimitWaitMs fails at once with retryAfter, sending nothing', async () => {
    const h = harness({ maxRateLimitWaitMs: 60_000 });
    h.reply('POST', '/series', 200, ok({ id: 's', name: 'S' }), { times: 5 });
    for (let i = 0; i < 5; i++) {
      await h.clock.run(h.client.series.create({ name: 'S', source: 'x' }, { idempotencyKey: `s${i}` }));
    }
    const error = await h.clock
      .run(h.client.series.create({ name: 'S', source: 'x' }, { idempotencyKey: 's5' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({
      type: 'rate_limited',
      details: { retryAfter: 301, method: 'POST', path: '/series' },
    });
    expect((error as RateLimitedError).status).toBeUndefined();
    expect(h.seen).toHaveLength(5);
  });

  it('a 429 the budget did not foresee pauses the key for every caller', async () => {
    const h = harness();
    h.reply('GET', '/voices', 429, fail('rate_limited'), { headers: { 'retry-after': '4' } });
    h.reply('GET', '/voices', 200, ok([]));
    h.reply('GET', '/accounts', 200, ok({}));
    // Time stays put until the 429 is in: the pause is seen before the retry's wait runs out.
    const first = h.client.voices.list();
    await h.clock.pass(0);
    expect(h.client.budget.delayFor('GET /accounts')).toBe(4000);
    await h.clock.run(Promise.all([first, h.client.accounts.list()]));
    // Both wait out the same pause; which goes first within its last millisecond is not the point.
    const arrivals = h.seen.map((s) => `${s.path} at ${s.at - (h.seen[0]?.at ?? 0)}`);
    expect(arrivals.sort()).toEqual(['/accounts at 4000', '/voices at 0', '/voices at 4000']);
  });

  it('every attempt, retries included, counts against the budget', async () => {
    const h = harness();
    h.reply('GET', '/me', 500, fail('internal_error'), { times: 2 });
    h.reply(
      'GET',
      '/me',
      200,
      ok({
        team: { id: 't', name: 'T', credits: 1 },
        plan: 'p',
        auth: { via: 'b', keyPrefix: 'k', scopes: [], legacy: false },
      }),
    );
    await h.clock.run(h.client.me.get());
    expect(h.client.budget.usage().key.used).toBe(3);
  });
});

describe('one budget per key across clients', () => {
  function factoryHarness() {
    const clock = new TestClock({ sleep: 'waits' });
    const agent = new MockAgent();
    agent.disableNetConnect();
    const budgets = new RateBudgetRegistry({
      clock,
      limits: { key: { limit: 4, windowMs: 1000 }, backgroundShare: 0.5, endpoints: {} },
      transitMarginMs: 0,
    });
    const factory = createVideoApiFactory({ baseUrl: BASE_URL, dispatcher: agent, clock, budgets });
    const arrivals: { path: string; at: number }[] = [];
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: (p: string) => p.startsWith('/api/v1/videos/') })
      .reply((req) => {
        arrivals.push({ path: req.path, at: clock.now() });
        return {
          statusCode: 200,
          data: JSON.stringify(ok({ id: 'x', name: 'n', status: 'processing', percentCompleted: 5 })),
        };
      })
      .persist();
    return { clock, factory, budgets, arrivals };
  }

  it('clients built for the same key share it; another key has its own', async () => {
    const { clock, factory, budgets } = factoryHarness();
    expect(factory.budgets).toBe(budgets);
    const a = factory(API_KEY);
    const b = factory(API_KEY);
    const other = factory('sk_live_OTHER_KEY_000000');
    expect(a.videos).not.toBe(b.videos);
    await clock.run(
      Promise.all([a.videos.status('1'), b.videos.status('2'), a.videos.status('3'), b.videos.status('4')]),
    );
    expect(budgets.forKey(API_KEY).usage().key.used).toBe(4);
    expect(a.budget.delayFor('GET /videos/:id/status')).toBe(1000);
    expect(other.budget.delayFor('GET /videos/:id/status')).toBe(0);
  });

  it("priority 'background' (the poller) gets at most half, and interactive calls overtake it", async () => {
    const { clock, factory, arrivals } = factoryHarness();
    const client = factory(API_KEY);
    const polls = ['p1', 'p2', 'p3'].map((id) => client.videos.status(id, { priority: 'background' }));
    const user = ['u1', 'u2', 'u3'].map((id) => client.videos.get(id));
    await clock.run(Promise.all([...polls, ...user]));
    const byTime = arrivals.map((a) => `${a.at - (arrivals[0]?.at ?? 0)}:${a.path.split('/')[4]}`);
    // t=0: two polls (the background half of 4) and the two interactive calls that fit; t=1000: the
    // queued interactive call before the third poll.
    expect(byTime).toEqual(['0:p1', '0:p2', '0:u1', '0:u2', '1000:u3', '1000:p3']);
  });
});
