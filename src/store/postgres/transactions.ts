/**
 * Transactions of the PostgreSQL store, and the one executor every table statement goes through.
 *
 * A transaction takes a client from the pool and runs `BEGIN ISOLATION LEVEL REPEATABLE READ … COMMIT` around
 * the awaited callback; `AsyncLocalStorage` carries it through the callback's async context, so every statement
 * made there (through `tx` or the store itself) runs on that client, and every statement made elsewhere runs on
 * the pool, outside it. No lock spans replicas: a transaction waits only for the rows it writes.
 * Each reads one snapshot, and of two concurrent transactions that write the same row the second fails
 * (SQLSTATE 40001; 40P01 for a deadlock) and runs again from the start, so a read-modify-write never loses
 * another's update. What must hold across rows is held by the schema and the statements, not by isolation:
 * unique keys (outbox dedupe keys, idempotency actions, subscriptions), conditional updates (an approval decided
 * once, claims), row locks for claims (`FOR UPDATE SKIP LOCKED`). SERIALIZABLE would also catch write skew, but
 * its predicate locks cover a whole index page of these small tables, so unrelated transactions failed each
 * other (measured: 2 of 40 watches were checked twice when their retries ran out); nothing here needs it.
 *
 * Nothing waits long on a replica that stopped (SIGSTOP, a paused VM, a long GC, a partition): every session
 * carries the timeouts of `sessionSettings` (session.ts), so the server ends a transaction left idle by a
 * paused replica after half the lock timeout, releasing its row locks, while a statement waits for a lock at
 * most the lock timeout (then it fails with 55P03 and its transaction runs again). Leases (watch and outbox claims) are
 * fenced and timed by the database's clock, so the paused replica's late commit is refused (see the tables).
 *
 * A statement outside a transaction runs alone (autocommit, the server's default READ COMMITTED): each one the
 * store issues reads and writes the same rows (a compare-and-set UPDATE, an INSERT … ON CONFLICT), and
 * PostgreSQL re-checks its WHERE on the latest committed row after waiting for that row's lock, so racing
 * replicas still see exactly one of them win.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as realDelay } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from '../../core/ports/index.js';

/** How many times a transaction runs before its last conflict is thrown. */
export const MAX_ATTEMPTS = 12;
/** The first retry waits up to this long (jittered), doubling each time up to `MAX_BACKOFF_MS`. */
const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 200;

/**
 * serialization_failure, deadlock_detected: the transaction lost a race and may simply run again; and
 * lock_not_available (a lock timeout): the row's holder stopped, and the server ends its transaction soon.
 */
const CONFLICT_CODES: ReadonlySet<string> = new Set(['40001', '40P01', '55P03']);

/** Whether `error` is PostgreSQL failing a transaction that conflicted with another one. */
export function isConflict(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CONFLICT_CODES.has(code);
}

/**
 * A statement of the transaction failed and the callback went on regardless: PostgreSQL had aborted the
 * transaction there (unlike SQLite, which undoes only the failed statement), so nothing was committed.
 */
export class TransactionAbortedError extends Error {
  override readonly name = 'TransactionAbortedError';
  readonly code = 'transaction_aborted';
}

interface OpenTransaction {
  client: pg.PoolClient;
  /** False once committed or rolled back: a statement from a callback that outlived it runs on the pool. */
  open: boolean;
  /** Savepoints made so far, to name the next one. */
  savepoints: number;
  /** The first conflict a statement met, even if the callback caught it: the attempt is lost. */
  conflict: unknown;
  /** The last failed statement, the cause if COMMIT finds the transaction aborted. */
  failed: unknown;
}

export interface TransactionOptions {
  pool: pg.Pool;
  logger: Logger;
  /** In [0, 1): spreads the retries of transactions that conflicted together. */
  random?: () => number;
}

export class PostgresTransactions {
  readonly #context = new AsyncLocalStorage<OpenTransaction>();
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #random: () => number;

  constructor(options: TransactionOptions) {
    this.#pool = options.pool;
    this.#logger = options.logger;
    this.#random = options.random ?? Math.random;
  }

  /** Runs one statement in the caller's open transaction, or on the pool when there is none. */
  readonly query = async (text: string, params?: readonly unknown[]): Promise<pg.QueryResult> => {
    const tx = this.#context.getStore();
    if (tx === undefined || !tx.open) return this.#pool.query(text, params as unknown[] | undefined);
    try {
      return await tx.client.query(text, params as unknown[] | undefined);
    } catch (error) {
      if (isConflict(error)) tx.conflict ??= error;
      tx.failed = error;
      throw error;
    }
  };

  /**
   * Runs `fn` in one REPEATABLE READ transaction, and again from the start (up to MAX_ATTEMPTS times, after a short
   * jittered pause) when PostgreSQL fails it for conflicting with another transaction, at any statement or at
   * COMMIT. Re-running is safe because a callback only makes store calls, all undone by the rollback: it must
   * not send, post or charge anything (the port's rule), nor keep state of its own across attempts. A call from
   * inside an open transaction becomes a savepoint of it; throwing rolls back (to the savepoint).
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const open = this.#context.getStore();
    if (open?.open) return await this.#savepoint(open, fn);
    return await this.#withRetries(fn);
  }

  async #withRetries<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(fn);
      } catch (error) {
        if (!isConflict(error) || attempt >= MAX_ATTEMPTS) throw error;
        const pauseMs = this.#random() * Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (attempt - 1));
        this.#logger.debug(
          { attempt, code: (error as { code?: string }).code, pauseMs },
          'transaction conflicted, running it again',
        );
        // Real time, not the injected clock: the transaction it waits for runs on the server, in real time.
        await realDelay(pauseMs);
      }
    }
  }

  async #attempt<T>(fn: () => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    // A checked-out client whose connection drops emits 'error' besides failing its query; unheard, that
    // would crash the process. The statement in flight fails too, so the transaction's caller hears of it.
    const onError = (error: Error) =>
      this.#logger.warn({ err: error }, 'PostgreSQL connection lost mid-transaction');
    client.on('error', onError);
    const tx: OpenTransaction = { client, open: true, savepoints: 0, conflict: undefined, failed: undefined };
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const result = await this.#context.run(tx, fn);
      // The callback caught a conflict and went on: the transaction is aborted, run it again.
      if (tx.conflict !== undefined) throw tx.conflict;
      const { command } = await client.query('COMMIT');
      // COMMIT of an aborted transaction answers ROLLBACK rather than failing.
      if (command !== 'COMMIT') {
        throw new TransactionAbortedError(
          'The transaction was rolled back: one of its statements failed and the callback went on.',
          { cause: tx.failed },
        );
      }
      return result;
    } catch (error) {
      tx.open = false;
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is unusable: the pool must not hand it out again.
        broken = rollbackError as Error;
      }
      throw tx.conflict !== undefined && !isConflict(error) ? tx.conflict : error;
    } finally {
      tx.open = false;
      client.off('error', onError);
      client.release(broken);
    }
  }

  async #savepoint<T>(tx: OpenTransaction, fn: () => Promise<T>): Promise<T> {
    const name = `nested_${++tx.savepoints}`;
    await tx.client.query(`SAVEPOINT ${name}`);
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      try {
        await tx.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        await tx.client.query(`RELEASE SAVEPOINT ${name}`);
      } catch (rollbackError) {
        // The transaction stays aborted: its next statement or COMMIT reports it.
        tx.failed = rollbackError;
      }
      throw error;
    }
    await tx.client.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  }
}
