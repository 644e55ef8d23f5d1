/**
 * A poller pass while another connection holds the database's write lock: the pass neither
 * throws nor records a failed look; the spell is logged once as a warning; the other checks of the pass do
 * not each block the loop on the lock; the next pass after the release commits as usual. A lock already
 * held when the pass starts stops it at the lease: nothing is checked that could not be committed.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Watcher } from '../../src/core/live/watcher.js';
import type { Watch } from '../../src/core/ports/index.js';
import { POLLER_STATE_KEY } from '../../src/poller/failure-state.js';
import { Poller } from '../../src/poller/poller.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import {
  ALICE,
  CONV,
  newSecretKey,
  processing,
  recordingLogger,
  scriptedApi,
  T0,
  tempDir,
} from './support.js';

describe('Poller: a locked database', () => {
  let clock: TestClock;
  let store: SqliteStore;
  let path: string;
  let cleanup: () => void;

  beforeEach(() => {
    clock = new TestClock(T0);
    const dir = tempDir();
    cleanup = dir.cleanup;
    path = join(dir.dir, 'reelbot.db');
    store = openStore({ path, secretKey: newSecretKey(), clock });
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const addWatch = async (target: string): Promise<Watch> =>
    await store.watches.add({
      kind: 'generation',
      target,
      owner: ALICE,
      conversation: CONV,
      cardKey: null,
      state: {},
      nextCheckAt: clock.now(),
      expiresAt: clock.now() + 3_600_000,
    });

  const lockFromOtherConnection = () => {
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    other
      .prepare('INSERT INTO user_prefs (user_address, time_zone) VALUES (?, ?)')
      .run('slack:T1:OPS', 'UTC');
    return () => {
      other.exec('ROLLBACK');
      other.close();
    };
  };

  it('does not throw, records no failure, warns once, and commits on the pass after the release', async () => {
    const checked: string[] = [];
    let unlock: (() => void) | undefined;
    const watcher = {
      kind: 'generation',
      minIntervalMs: 10_000,
      maxIntervalMs: 30_000,
      check(_ctx, watch) {
        checked.push(watch.target);
        // The lock appears mid-pass, after the watches were leased: their commits meet it.
        if (!unlock && checked.length <= 3) unlock = lockFromOtherConnection();
        return Promise.resolve({ state: { seen: true }, done: false });
      },
      async expire() {},
    } satisfies Watcher;
    const logger = recordingLogger();
    const { api } = scriptedApi((id) => processing(id, 10));
    const poller = new Poller({
      store,
      watchers: { generation: watcher } as never,
      apiFor: () => api,
      clock,
      logger,
      concurrency: 1,
      random: () => 0.5,
    });
    const watches = [await addWatch('v1'), await addWatch('v2'), await addWatch('v3')];

    const started = performance.now();
    await expect(poller.tick()).resolves.toBeUndefined();
    const elapsed = performance.now() - started;
    unlock?.();

    expect(checked).toEqual(['v1', 'v2', 'v3']);
    // Only the first commit waited for the lock (~100 ms busy timeout); the others did not even try.
    expect(elapsed).toBeLessThan(250);
    for (const watch of watches) {
      const now = (await store.watches.get(watch.id))!;
      expect(now.state).toEqual({});
      expect(now.state[POLLER_STATE_KEY]).toBeUndefined();
      expect(now.nextCheckAt).toBe(watch.nextCheckAt);
    }
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'database locked by another connection; checks are retried on later passes',
    ]);

    clock.advance(1_000); // the next pass
    await poller.tick();
    for (const watch of watches) expect((await store.watches.get(watch.id))!.state).toEqual({ seen: true });
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('leases nothing and checks nothing while the lock is held, then checks everything once it is released', async () => {
    const checked: string[] = [];
    const watcher = {
      kind: 'generation',
      minIntervalMs: 10_000,
      maxIntervalMs: 30_000,
      check(_ctx, watch) {
        checked.push(watch.target);
        return Promise.resolve({ state: { seen: true }, done: false });
      },
      async expire() {},
    } satisfies Watcher;
    const logger = recordingLogger();
    const { api } = scriptedApi((id) => processing(id, 10));
    const poller = new Poller({
      store,
      watchers: { generation: watcher } as never,
      apiFor: () => api,
      clock,
      logger,
      concurrency: 1,
    });
    const watches = [await addWatch('v1'), await addWatch('v2')];

    const unlock = lockFromOtherConnection();
    await expect(poller.tick()).resolves.toBeUndefined();
    unlock();
    expect(checked).toEqual([]);
    expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'database locked by another connection; checks are retried on later passes',
    ]);

    clock.advance(1_000);
    await poller.tick();
    expect(checked).toEqual(['v1', 'v2']);
    for (const watch of watches) expect((await store.watches.get(watch.id))!.state).toEqual({ seen: true });
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
