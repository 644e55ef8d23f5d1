/**
 * A locked database seen by a background loop: the store gave up after its short busy timeout,
 * nothing was committed, and the work is still due, so a later pass simply tries again. This logs the spell
 * once (a warning, not an error per watch) and, for about one pass after, spares the other checks from each
 * blocking the event loop for the busy timeout only to fail the same way.
 */
import { isDatabaseBusy } from '../core/dispatch/database-busy.js';
import type { Clock, Logger } from '../core/ports/index.js';

/** Thrown instead of touching a database found locked a moment ago. */
class StillLockedError extends Error {
  override readonly name = 'StillLockedError';
}

export class LockedDatabase {
  #lockedAt: number | undefined;
  #warned = false;

  /** Commits are not even tried for one pass period (`intervalMs`, default 1 s) after a busy error. */
  constructor(private readonly loop: () => { clock: Clock; intervalMs?: number | undefined }) {}

  private now(): number {
    return this.loop().clock.now();
  }

  /** Runs a commit, unless the database was locked a moment ago (then throws, as the commit would). */
  async commit<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#lockedAt !== undefined && this.now() - this.#lockedAt < (this.loop().intervalMs ?? 1000)) {
      throw new StillLockedError('the database was locked a moment ago');
    }
    try {
      const result = await fn();
      this.#lockedAt = undefined;
      this.#warned = false;
      return result;
    } catch (error) {
      if (isDatabaseBusy(error)) this.#lockedAt = this.now();
      throw error;
    }
  }

  /** True when `error` means a locked database; logs the first of a spell as a warning, the rest at debug. */
  seen(error: unknown, log: Logger): boolean {
    const still = error instanceof StillLockedError;
    if (!still && !isDatabaseBusy(error)) return false;
    if (!still) this.#lockedAt = this.now();
    const context = { err: { name: (error as Error).name, code: (error as { code?: string }).code } };
    if (this.#warned) log.debug(context, 'database still locked; the check is left for a later pass');
    else log.warn(context, 'database locked by another connection; checks are retried on later passes');
    this.#warned = true;
    return true;
  }
}
