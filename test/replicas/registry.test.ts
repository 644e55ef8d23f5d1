/**
 * The replica registry (src/replicas/postgres-registry.ts) against a real PostgreSQL server, on a fake clock
 * (times in the table are the replicas' clock, so a test moves them by hand): live replicas counted, a dead one
 * forgotten after the timeout, the row gone on a clean stop, and the share rules of src/replicas/share-rule.ts:
 * lower at once, rise only after the window, a joiner waits for the others' old calls to age out.
 * Heartbeats are driven with tick(), never by the timer loop.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/ports/index.js';
import { PostgresReplicaRegistry } from '../../src/replicas/postgres-registry.js';
import { SingleReplica } from '../../src/replicas/registry.js';
import { nextShare } from '../../src/replicas/share-rule.js';
import { migratePostgres } from '../../src/store/postgres/migrations.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { TestClock } from '../support/test-clock.js';

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const HEARTBEAT = 2_000;
const TIMEOUT = 6_000;
const RETAIN = 301_000;

let server: TestPostgres;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

async function database(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 4 });
  pools.push(pool);
  await migratePostgres(pool, { logger: silent });
  return pool;
}

/** A replica whose use of its limits the test sets (`peak`). */
function replica(pool: pg.Pool, clock: TestClock, id: string) {
  const state = { peak: 0 };
  const registry = new PostgresReplicaRegistry({
    pool,
    id,
    clock,
    logger: silent,
    peakUse: () => state.peak,
    heartbeatMs: HEARTBEAT,
    retainMs: RETAIN,
  });
  return Object.assign(registry, { state });
}

const rows = async (pool: pg.Pool) =>
  (await pool.query('SELECT id, left_at, bound FROM replicas ORDER BY id')).rows as {
    id: string;
    left_at: number | null;
    bound: number;
  }[];

describe('the replica registry on PostgreSQL', () => {
  it('counts the live replicas, itself included, and tells when the count changes', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const b = replica(pool, clock, 'b');
    const c = replica(pool, clock, 'c');
    const changes: number[] = [];
    a.onChange(() => changes.push(a.liveCount()));
    await a.tick();
    expect(a.liveCount()).toBe(1);
    await b.tick();
    await c.tick();
    await a.tick();
    expect([a.liveCount(), b.liveCount(), c.liveCount()]).toEqual([3, 2, 3]);
    await b.tick();
    expect(b.liveCount()).toBe(3);
    expect(changes).toEqual([1, 3]);
    expect((await rows(pool)).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('forgets a replica that stops heartbeating after the timeout, not before', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const dead = replica(pool, clock, 'dead');
    await dead.tick();
    await a.tick();
    expect(a.liveCount()).toBe(2);
    await clock.pass(TIMEOUT - 1);
    await a.tick();
    expect(a.liveCount()).toBe(2);
    await clock.pass(1);
    await a.tick();
    expect(a.liveCount()).toBe(1);
    // Its row stays while its calls may still be in the service's windows, then goes.
    expect((await rows(pool)).map((r) => r.id)).toEqual(['a', 'dead']);
    await clock.pass(RETAIN);
    await a.tick();
    expect((await rows(pool)).map((r) => r.id)).toEqual(['a']);
  });

  it('a replica that cannot renew its row for the timeout stops sending (share 0) until it renews', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    await a.tick();
    expect(a.share()).toBe(1);
    await clock.pass(TIMEOUT - 1);
    expect(a.share()).toBe(1);
    await clock.pass(1);
    expect(a.share()).toBe(0);
    await a.tick();
    expect(a.share()).toBe(1);
  });

  it('on a clean stop an idle replica’s row goes at once, and its share is 0 from the start of stop()', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const b = replica(pool, clock, 'b');
    await a.tick();
    await b.tick();
    await b.stop();
    expect(b.share()).toBe(0);
    expect((await rows(pool)).map((r) => r.id)).toEqual(['a']);
    await a.tick();
    expect(a.liveCount()).toBe(1);
  });

  it('a replica stopping with calls in its windows leaves its row (left_at, bound) for the window', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const b = replica(pool, clock, 'b');
    await a.tick();
    await b.tick();
    await a.tick();
    b.state.peak = 0.4;
    await b.stop();
    expect(await rows(pool)).toEqual([
      { id: 'a', left_at: null, bound: 0.5 },
      { id: 'b', left_at: clock.now(), bound: 0.4 },
    ]);
    await a.tick();
    expect(a.liveCount()).toBe(1);
    expect(a.share()).toBe(0.5);
  });

  it('the SQLite registry: one replica, the whole limit', () => {
    const single = new SingleReplica('me');
    expect([single.id, single.liveCount(), single.share()]).toEqual(['me', 1, 1]);
  });
});

describe('shares', () => {
  it('lowers at once when a replica joins; rises only a window after one left', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const b = replica(pool, clock, 'b');
    await a.tick();
    expect(a.share()).toBe(1);
    await b.tick(); // b joins: a's bound (1) leaves it no room yet
    expect(b.share()).toBe(0);
    await a.tick(); // a sees b: 1/2 at once
    expect(a.share()).toBe(0.5);
    await b.tick(); // a's bound is now 1/2 (it used nothing): b takes its half
    expect(b.share()).toBe(0.5);

    a.state.peak = 0.5;
    await a.tick();
    await a.stop();
    for (const step of [HEARTBEAT, RETAIN - HEARTBEAT - 1]) {
      await clock.pass(step);
      await b.tick();
      expect(b.share()).toBe(0.5); // a's calls may still be in the windows
    }
    await clock.pass(1);
    await b.tick();
    expect(b.share()).toBe(1);
  });

  it('a dead replica counts for the timeout plus the window before the others rise', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const dead = replica(pool, clock, 'dead');
    await a.tick();
    await dead.tick();
    await a.tick();
    await dead.tick();
    expect([a.share(), dead.share()]).toEqual([0.5, 0.5]);
    await clock.pass(TIMEOUT + RETAIN - 1);
    await a.tick();
    expect([a.liveCount(), a.share()]).toEqual([1, 0.5]);
    await clock.pass(1);
    await a.tick();
    expect(a.share()).toBe(1);
  });

  it('a joiner waits while the others’ calls under their old share are in the window', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const a = replica(pool, clock, 'a');
    const b = replica(pool, clock, 'b');
    const c = replica(pool, clock, 'c');
    await a.tick();
    await b.tick();
    await a.tick();
    await b.tick();
    // a and b each used their half of some limit in the current window.
    a.state.peak = 0.5;
    b.state.peak = 0.5;
    await c.tick();
    await a.tick();
    await b.tick();
    expect([a.share(), b.share()]).toEqual([1 / 3, 1 / 3]);
    await c.tick();
    expect(c.share()).toBe(0); // 0.5 + 0.5 of the window is taken: nothing left for c
    // One of them's calls age out: still 0.5 + 1/3 > 2/3.
    a.state.peak = 1 / 3;
    await a.tick();
    await c.tick();
    expect(c.share()).toBe(0);
    b.state.peak = 0.2;
    await b.tick();
    await c.tick();
    expect(c.share()).toBe(1 / 3);
  });

  it('replicas joining together never hold more than the whole between them', async () => {
    const pool = await database();
    const clock = new TestClock({ sleep: 'waits' });
    const all = ['a', 'b', 'c', 'd'].map((id) => replica(pool, clock, id));
    for (let round = 0; round < 4; round++) {
      await Promise.all(all.map((r) => r.tick()));
      const total = all.reduce((sum, r) => sum + r.share(), 0);
      expect(total).toBeLessThanOrEqual(1 + 1e-9);
    }
    expect(all.map((r) => r.share())).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('nextShare: lower at once, rise only into the room the others leave', () => {
    expect(nextShare({ current: 1, count: 3, othersBound: 2 })).toBe(1 / 3);
    expect(nextShare({ current: 0, count: 3, othersBound: 0.7 })).toBe(0);
    expect(nextShare({ current: 0, count: 3, othersBound: 2 / 3 })).toBe(1 / 3);
    expect(nextShare({ current: 1 / 3, count: 2, othersBound: 0.6 })).toBe(1 / 3);
    expect(nextShare({ current: 1 / 3, count: 2, othersBound: 0.5 })).toBe(0.5);
  });
});
