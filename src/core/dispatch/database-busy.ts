/**
 * A locked database (an operator's shell, a backup, a second instance) must never freeze the bot: the store
 * waits only briefly for a lock (`busyTimeoutMs`) and throws; the callers here retry later, asynchronously.
 */
import type { Clock } from '../ports/index.js';

/**
 * The stores' codes for "another connection holds the lock" (SQLite's result codes, PostgreSQL's SQLSTATEs),
 * as their drivers report them on the error's `code`. Matched by code, never by message, and without importing
 * a driver (the core stays free).
 */
const BUSY_CODES: ReadonlySet<string> = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
  // PostgreSQL (SQLSTATE): a transaction that kept conflicting with others' after its re-runs, a deadlock, a
  // lock or statement timeout. Likewise brief, likewise worth another try later.
  '40001',
  '40P01',
  '55P03',
  '57014',
]);

/** Whether `error` is the store refusing a write because the database is locked by someone else. */
export function isDatabaseBusy(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

export interface BusyRetryOptions {
  clock: Clock;
  /** How long to keep trying, from the first attempt (ms of `clock`). */
  budgetMs: number;
  /** Asked after each busy failure; false rethrows at once (e.g. a remote write already went out). */
  mayRetry: () => boolean;
}

/** Waits between attempts: short first (a lock is usually brief), then steady; never a busy spin. */
const BACKOFF_MS = [25, 50, 100, 200, 250] as const;

/**
 * Runs `run`, and again after a pause each time it fails with a busy database, while `mayRetry` allows and
 * the budget lasts; then throws the last error. Pauses go through the clock, so the event loop stays free.
 */
export async function retryWhileBusy<T>(run: () => Promise<T> | T, options: BusyRetryOptions): Promise<T> {
  const { clock, budgetMs, mayRetry } = options;
  const started = clock.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const pause = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
      if (!isDatabaseBusy(error) || !mayRetry() || clock.now() - started + pause > budgetMs) throw error;
      await clock.sleep(pause);
    }
  }
}
