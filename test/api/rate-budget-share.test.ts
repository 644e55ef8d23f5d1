/**
 * A budget's share of the key's limits (several replicas send with one key), and the measurement:
 * replicas with shares from registries on one real PostgreSQL database never provoke a 429 from the real
 * simulator, which enforces video-api.md §8, while one process alone is allowed the whole limit.
 */
import { setMaxListeners } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScaledClock } from '../../bench/lib/virtual-clock.js';
import {
  createVideoApiClient,
  RateBudget,
  RateBudgetRegistry,
  type ResponseEvent,
  SPEC_RATE_LIMITS,
} from '../../src/api/index.js';
import { TRANSIT_MARGIN_MS } from '../../src/api/rate-budget.js';
import type { Logger } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { PostgresReplicaRegistry } from '../../src/replicas/postgres-registry.js';
import { SingleReplica } from '../../src/replicas/registry.js';
import { generateApiKey, type RunningSimulator, startSimulator } from '../../src/simulator/index.js';
import { migratePostgres } from '../../src/store/postgres/migrations.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { TestClock } from '../support/test-clock.js';

const M = TRANSIT_MARGIN_MS;
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

describe('a budget’s share of the limits', () => {
  it('scales every limit: max(1, floor(limit × share)); the background lane and reserve follow the key', async () => {
    const budget = new RateBudget({ clock: new TestClock({ sleep: 'waits' }), share: () => 1 / 3 });
    const usage = budget.usage();
    expect(usage.key.limit).toBe(100);
    expect(usage.background.limit).toBe(50);
    expect(usage.endpoints['POST /videos']?.limit).toBe(3);
    expect(usage.endpoints['POST /series']?.limit).toBe(1);
    expect(usage.endpoints['POST /posts/schedule']?.limit).toBe(6);
    for (let i = 0; i < 80; i++) await budget.acquire('GET /me');
    // 20 % of the replica's 100 is left to people: background waits.
    expect(budget.delayFor('GET /videos/:id/status', 'background')).toBe(60_000 + M);
    expect(budget.delayFor('GET /me')).toBe(0);
  });

  it('at share 0 nothing goes; a raised share admits the waiters when told', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    let share = 0;
    const budgets = new RateBudgetRegistry({ clock, share: () => share });
    const budget = budgets.forKey('fl_live_k');
    expect(budget.delayFor('GET /me')).toBe(60_000 + M);
    let done = false;
    void budget.acquire('GET /me').then(() => {
      done = true;
    });
    await clock.pass(1000);
    expect(done).toBe(false);
    share = 0.5;
    budgets.shareChanged();
    await clock.pass(0);
    expect(done).toBe(true);
    expect(budgets.peakUse()).toBeCloseTo(1 / 300);
  });

  it('lowered below what is already in the window: waits until enough has left it', async () => {
    const clock = new TestClock({ sleep: 'waits' });
    let share = 1;
    const budget = new RateBudget({ clock, share: () => share });
    for (let i = 0; i < 150; i++) await budget.acquire('GET /me');
    expect(budget.peakUse()).toBe(0.5);
    share = 1 / 3;
    expect(budget.delayFor('GET /me')).toBe(60_000 + M);
  });
});

/** Most of the sorted instants in any window of `windowMs`. */
function peakInWindow(at: number[], windowMs: number): number {
  let peak = 0;
  for (let first = 0, last = 0; last < at.length; last++) {
    while ((at[last] as number) - (at[first] as number) >= windowMs) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

describe('three replicas on one key against the real simulator', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('60 jobs polled and interactive calls, greedy on every replica, a third joining late: 0 × 429', async () => {
    const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
    const SCALE = 12; // a 60 s window passes in 5 real seconds
    // The budgets' transit margin covers real delays (a busy event loop between our count and the simulator's):
    // 1 s in production; the clock runs 12× faster here, so the same ~330 real ms is 4 s of clock time.
    const MARGIN = 4_000;
    const JOIN_AT = 30_000;
    const RUN = 200_000; // over two key windows with all three at 1/3 after c's wait
    const clock = new ScaledClock(T0, Date.now(), SCALE);
    const botKey = generateApiKey();
    const factoryKeys = Array.from({ length: 6 }, () => generateApiKey());
    const sim: RunningSimulator = await startSimulator({
      profile: 'real',
      clock,
      randomSeed: 7,
      teams: [
        {
          name: 'Busy team',
          credits: 1_000_000,
          projectCap: 1000,
          keys: [botKey, ...factoryKeys].map((key) => ({ key })),
        },
      ],
    });
    const pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 8 });
    await migratePostgres(pool, { logger: silent });
    try {
      // 60 generation jobs, made with other keys of the team (10 POST /videos per key and minute).
      const jobs: string[] = [];
      for (const [i, key] of factoryKeys.entries()) {
        const maker = createVideoApiClient({
          baseUrl: sim.url,
          apiKey: key,
          clock,
          timeoutClock: systemClock,
        });
        for (let j = 0; j < 10; j++) {
          const video = await maker.videos.create(
            { script: `Job ${i}-${j}: a script long enough to pass validation.`, voiceId: 'voice_aria_en' },
            { idempotencyKey: `job-${i}-${j}` },
          );
          jobs.push(video.id);
        }
      }
      const start = clock.now();

      const responses: { at: number; replica: string; status: number }[] = [];
      const refused = { count: 0 };
      const stopping = new AbortController();
      setMaxListeners(100, stopping.signal);
      const signal = stopping.signal;
      const replicas = ['a', 'b', 'c'].map((id) => {
        const registry: PostgresReplicaRegistry = new PostgresReplicaRegistry({
          pool,
          id,
          clock,
          logger: silent,
          peakUse: () => budgets.peakUse(),
        });
        const budgets = new RateBudgetRegistry({
          clock,
          transitMarginMs: MARGIN,
          share: () => registry.share(),
        });
        registry.onChange(() => budgets.shareChanged());
        const client = createVideoApiClient({
          baseUrl: sim.url,
          apiKey: botKey,
          budgets,
          clock,
          timeoutClock: systemClock,
          // A whole window of ours is worth waiting for, as in production (DEFAULTS.maxRateLimitWaitMs).
          maxRateLimitWaitMs: SPEC_RATE_LIMITS.key.windowMs + MARGIN,
          onResponse: (e: ResponseEvent) =>
            responses.push({ at: clock.now(), replica: id, status: e.status }),
        });
        return { id, registry, budgets, client };
      });

      /** One replica's load: pollers over the 60 jobs (background) and people (interactive), all greedy. */
      const drive = async (r: (typeof replicas)[number]) => {
        let next = 0;
        const loop = async (call: () => Promise<unknown>) => {
          while (!signal.aborted) {
            try {
              await call();
            } catch {
              if (signal.aborted) return;
              refused.count++;
              await clock.sleep(1000);
            }
          }
        };
        await Promise.all([
          ...Array.from({ length: 6 }, () =>
            loop(() =>
              r.client.videos.status(jobs[next++ % jobs.length] as string, {
                priority: 'background',
                signal,
              }),
            ),
          ),
          ...Array.from({ length: 3 }, (_, i) =>
            loop(() =>
              i === 0 ? r.client.me.get({ signal }) : r.client.videos.get(jobs[i] as string, { signal }),
            ),
          ),
        ]);
      };

      const [a, b, c] = replicas as [
        (typeof replicas)[number],
        (typeof replicas)[number],
        (typeof replicas)[number],
      ];
      await a.registry.start();
      await b.registry.start();
      const driving = [drive(a), drive(b)];
      const sampled: number[][] = [];
      // real-time-ok: samples the shares while the replicas run on the scaled real clock
      const sampler = setInterval(() => sampled.push(replicas.map((r) => r.registry.share())), 50);
      await clock.sleep(JOIN_AT);
      await c.registry.start();
      driving.push(drive(c));
      await clock.sleep(RUN - JOIN_AT);
      clearInterval(sampler);
      stopping.abort();
      await Promise.all(driving);
      await Promise.all(replicas.map((r) => r.registry.stop()));

      const window = SPEC_RATE_LIMITS.key.windowMs;
      const at = (replica?: string) =>
        responses.filter((r) => (replica ? r.replica === replica : true)).map((r) => r.at);
      const perReplica = Object.fromEntries(
        ['a', 'b', 'c'].map((id) => [
          id,
          { calls: at(id).length, peakPerWindow: peakInWindow(at(id), window) },
        ]),
      );
      const status429 = responses.filter((r) => r.status === 429).length;
      const result = {
        virtualSeconds: (clock.now() - start) / 1000,
        calls: responses.length,
        peakPerWindow: peakInWindow(at(), window),
        perReplica,
        status429,
        refusedByBudget: refused.count,
        // From c's first call on: the three at 1/3 each (two key windows or more).
        steady: Object.fromEntries(
          ['a', 'b', 'c'].map((id) => [
            id,
            peakInWindow(
              at(id).filter((t) => t >= (responses.find((r) => r.replica === 'c')?.at ?? 0)),
              window,
            ),
          ]),
        ),
        cFirstCallAfterJoinS:
          ((responses.find((r) => r.replica === 'c')?.at ?? Number.NaN) - start - JOIN_AT) / 1000,
      };
      console.log(`three replicas, one key: ${JSON.stringify(result)}`);

      // The simulator refuses the 301st call in any 60 s: none refused means the service never saw more than the
      // key's limit. (Counted here by response time, a busy machine can bunch a few more into one window.)
      expect(status429).toBe(0);
      // The three together used the key (not three times it), each about its third once c was in.
      expect(result.peakPerWindow).toBeGreaterThan(200);
      for (const id of ['a', 'b', 'c']) expect(perReplica[id]?.calls).toBeGreaterThan(50);
      // The shares in force at any one moment never added up to more than the whole.
      expect(Math.max(...sampled.map((s) => s.reduce((sum, x) => sum + x, 0)))).toBeLessThanOrEqual(1 + 1e-9);
      expect(sampled.at(-1)).toEqual([1 / 3, 1 / 3, 1 / 3]);
      // One process alone would be allowed the whole limit.
      const alone = new RateBudget({ share: () => new SingleReplica().share() });
      expect(alone.usage().key.limit).toBe(300);
    } finally {
      await pool.end();
      await sim.close();
    }
  }, 60_000);
});
