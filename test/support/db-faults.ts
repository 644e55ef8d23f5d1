/**
 * Database faults at the worst moments, for the store, chaos and effect suites:
 * - `commitFaults`: right after the video service took a write (or from now on: a full disk), the store's
 *   commits fail the way better-sqlite3 fails (a real `SqliteError`: `SQLITE_FULL` "database or disk is full",
 *   or `SQLITE_BUSY`). Everything else is the real store, the real client and the real simulator.
 * - `holdWriteLock`: a second real connection holds the database file's write lock, as an operator's shell would.
 * - `measuringStalls` and `WallTestClock`: the event loop's longest stall, measured in real time.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { Store } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { spyOnHarness } from './api-spy.js';
import { HARNESS_START, type Harness, TestClock } from './harness.js';

const MESSAGES = { SQLITE_FULL: 'database or disk is full', SQLITE_BUSY: 'database is locked' } as const;

export interface CommitFault {
  /** How many commits failed so far. */
  readonly failed: number;
  /** Fails the next `times` commits that follow a call of `method` (`videos.create`, `posts.publish`…). */
  after(method: string, times?: number): void;
  /** Fails every commit from now until `heal` (a full disk). */
  full(): void;
  /** Stops failing. */
  heal(): void;
}

export function commitFaults(h: Harness, code: keyof typeof MESSAGES = 'SQLITE_FULL'): CommitFault {
  let armedFor: string | undefined;
  let left = 0;
  let pending = false;
  let failed = 0;
  let depth = 0;
  const transaction = h.store.transaction.bind(h.store);
  h.store.transaction = async <T>(fn: (tx: Store) => Promise<T>): Promise<T> => {
    if (depth === 0 && pending && left > 0) {
      left -= 1;
      pending = left > 0;
      failed += 1;
      throw new Database.SqliteError(MESSAGES[code], code);
    }
    depth += 1;
    try {
      return await transaction(fn);
    } finally {
      depth -= 1;
    }
  };
  afterCalls(h, (method) => {
    if (armedFor === method && left > 0) pending = true;
  });
  return {
    get failed() {
      return failed;
    },
    after(method, times = 1) {
      armedFor = method;
      left = times;
      pending = false;
    },
    full() {
      left = Number.POSITIVE_INFINITY;
      pending = true;
    },
    heal() {
      left = 0;
      pending = false;
    },
  };
}

/** Calls `then(method)` each time a call of the bot's API clients (`videos.create`…) has answered. */
export function afterCalls(h: Harness, then: (method: string) => void): void {
  spyOnHarness(h, { after: (call) => then(call.name) });
}

/** Virtual start, real pace: `now` follows the wall clock, `sleep` waits for real. */
export class WallTestClock extends TestClock {
  readonly #origin = performance.now();
  #offset = 0;
  override now(): number {
    return HARNESS_START + Math.round(performance.now() - this.#origin) + this.#offset;
  }
  override async sleep(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
  override timer(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.timer(ms, signal);
  }
  override advance(ms: number): void {
    this.#offset += ms;
  }
}

/**
 * Takes the database's write lock from a second connection, as `sqlite3 reelbot.sqlite` and `BEGIN IMMEDIATE`
 * would, with a write pending; a timer rolls it back after `holdMs`. Resolves when the lock is released.
 */
export function holdWriteLock(path: string, holdMs: number): Promise<void> {
  const other = new Database(path);
  other.exec('BEGIN IMMEDIATE');
  other
    .prepare('INSERT INTO user_prefs (user_address, time_zone) VALUES (?, ?)')
    .run('playground:W1:operator', 'UTC');
  return new Promise((resolve) =>
    setTimeout(() => {
      other.exec('ROLLBACK');
      other.close();
      resolve();
    }, holdMs),
  );
}

/**
 * Runs `work` while measuring the event loop's longest stall (ms): Node's delay histogram, and the gaps of a
 * 10 ms interval timer as a second witness. Both only see a stall once the loop turns again, so the
 * measurement ends a few timer turns after `work` (a stall at its very end would otherwise go unseen).
 */
export async function measuringStalls<T>(work: () => Promise<T>): Promise<{ result: T; maxStallMs: number }> {
  const monitor = monitorEventLoopDelay({ resolution: 10 });
  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last - 10);
    last = now;
  }, 10);
  monitor.enable();
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { result, maxStallMs: Math.max(monitor.max / 1e6, maxGap) };
  } finally {
    monitor.disable();
    clearInterval(ticker);
  }
}
