/**
 * Pollers sharing one database (replicas) lease the watches they check: each due watch is checked by
 * exactly one of them; a poller that dies mid-check leaves its watches to the others once the lease lapses,
 * and its late result is dropped rather than committed twice. On SQLite (two pollers on one process's store)
 * and on a real PostgreSQL server (two stores on one database, as two replicas open it).
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Watcher, WatchResult } from '../../src/core/live/watcher.js';
import type { Store, Watch } from '../../src/core/ports/index.js';
import { Poller } from '../../src/poller/poller.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { TestClock } from '../support/test-clock.js';
import {
  ALICE,
  CONV,
  deferred,
  newSecretKey,
  processing,
  recordingLogger,
  scriptedApi,
  T0,
  tempDir,
} from './support.js';

const LEASE_MS = 5_000;

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Two stores on one database, as two replicas (or two processes on one SQLite file) open it. */
const BACKENDS: { name: string; open(clock: TestClock): Promise<[Store, Store]> }[] = [
  {
    // One process holds a SQLite file (its data directory is locked), so both pollers share its connection.
    name: 'SQLite file',
    open(clock) {
      const { dir, cleanup } = tempDir();
      const store = openStore({ path: join(dir, 'reelbot.db'), secretKey: newSecretKey(), clock });
      closers.push(cleanup, () => store.close());
      return Promise.resolve([store, store]);
    },
  },
  {
    name: 'PostgreSQL',
    async open(clock) {
      const url = await pg.createDatabase();
      const secretKey = newSecretKey();
      const a = await openPostgresStore({ url, secretKey, clock });
      const b = await openPostgresStore({ url, secretKey, clock });
      closers.push(
        () => a.close(),
        () => b.close(),
      );
      return [a, b];
    },
  },
];

/** A watcher that records which poller looked at what, and counts the effects each commit applied. */
function countingWatcher(name: string, log: { checks: string[]; applied: string[] }, hold?: Promise<void>) {
  return {
    kind: 'generation',
    minIntervalMs: 10_000,
    maxIntervalMs: 30_000,
    async check(_ctx, watch): Promise<WatchResult> {
      log.checks.push(`${name}:${watch.target}`);
      if (hold) await hold;
      return {
        state: { by: name },
        done: false,
        apply: () => {
          log.applied.push(`${name}:${watch.target}`);
          return Promise.resolve();
        },
      };
    },
    async expire() {},
  } satisfies Watcher;
}

function pollerOn(store: Store, clock: TestClock, holder: string, watcher: Watcher): Poller {
  const { api } = scriptedApi((id) => processing(id, 10));
  return new Poller({
    store,
    watchers: { generation: watcher },
    apiFor: () => api,
    clock,
    logger: recordingLogger(),
    concurrency: 8,
    holder,
    leaseMs: LEASE_MS,
    random: () => 0,
  });
}

async function addWatches(store: Store, clock: TestClock, n: number): Promise<Watch[]> {
  const watches: Watch[] = [];
  for (let i = 0; i < n; i++) {
    watches.push(
      await store.watches.add({
        kind: 'generation',
        target: `v${i}`,
        owner: `${ALICE}${i % 4}`,
        conversation: CONV,
        cardKey: null,
        state: {},
        nextCheckAt: clock.now(),
        expiresAt: clock.now() + 3_600_000,
      }),
    );
  }
  return watches;
}

describe.each(BACKENDS)('watch leases ($name)', (backend) => {
  it('two pollers passing at once check each due watch exactly once between them', async () => {
    const clock = new TestClock(T0);
    const [a, b] = await backend.open(clock);
    const log = { checks: [] as string[], applied: [] as string[] };
    const watches = await addWatches(a, clock, 40);
    const one = pollerOn(a, clock, 'replica-a', countingWatcher('a', log));
    const two = pollerOn(b, clock, 'replica-b', countingWatcher('b', log));

    await Promise.all([one.tick(), two.tick()]);

    const targets = log.checks.map((c) => c.split(':').slice(1).join(':')).sort();
    expect(targets).toEqual(watches.map((w) => w.target).sort());
    // A commit that met a serialization conflict is run again (PostgreSQL): its effects land once, from one
    // transaction, but the callback may have run more than once; what counts is which checks committed.
    expect([...new Set(log.applied)].sort()).toEqual([...log.checks].sort());
    for (const watch of watches) {
      const now = (await b.watches.get(watch.id))!;
      expect(now.nextCheckAt).toBeGreaterThan(clock.now());
      expect(['a', 'b']).toContain(now.state.by);
    }
    // Leases end with the commit: nothing is held back for the next look.
    clock.advance(31_000);
    expect(await a.watches.due(clock.now(), 100)).toHaveLength(40);
  });

  it('a poller that dies mid-check leaves its watches to another once the lease lapses; its late result is dropped', async () => {
    const clock = new TestClock(T0);
    const [a, b] = await backend.open(clock);
    const log = { checks: [] as string[], applied: [] as string[] };
    const [watch] = await addWatches(a, clock, 1);
    const hung = deferred();
    const dying = pollerOn(a, clock, 'replica-a', countingWatcher('a', log, hung.promise));
    const survivor = pollerOn(b, clock, 'replica-b', countingWatcher('b', log));

    const stuck = dying.tick(); // leases the watch, then hangs in its check
    await expect.poll(() => log.checks).toEqual(['a:v0']);
    await survivor.tick();
    expect(log.checks).toEqual(['a:v0']); // leased to a: b leaves it alone

    clock.advance(LEASE_MS);
    await survivor.tick();
    expect(log.checks).toEqual(['a:v0', 'b:v0']);
    expect((await b.watches.get(watch!.id))!.state).toEqual({ by: 'b' });

    hung.resolve(); // a's check returns after b took over: its result must not land
    await stuck;
    expect(new Set(log.applied)).toEqual(new Set(['b:v0']));
    expect((await a.watches.get(watch!.id))!.state).toEqual({ by: 'b' });
  });

  it('a poller stopping gives its leased watches back at once', async () => {
    const clock = new TestClock(T0);
    const [a, b] = await backend.open(clock);
    const log = { checks: [] as string[], applied: [] as string[] };
    await addWatches(a, clock, 1);
    const hung = deferred();
    const leaving = pollerOn(a, clock, 'replica-a', countingWatcher('a', log, hung.promise));
    const staying = pollerOn(b, clock, 'replica-b', countingWatcher('b', log));

    const ticking = leaving.tick();
    await expect.poll(() => log.checks).toEqual(['a:v0']);
    const stopping = leaving.stop();
    hung.reject(new Error('aborted by shutdown'));
    await Promise.all([ticking, stopping]);

    await staying.tick(); // no lease to wait for
    expect(log.checks).toEqual(['a:v0', 'b:v0']);
    expect(new Set(log.applied)).toEqual(new Set(['b:v0']));
  });
});
