/**
 * Transactions of the PostgreSQL store, and the one executor every table statement goes through.
 *
 * A transaction takes a client from the pool and runs `BEGIN ISOLATION LEVEL SERIALIZABLE … COMMIT` around the
 * awaited callback; `AsyncLocalStorage` carries it through the callback's async context, so every statement made
 * there (through `tx` or the store itself) runs on that client, and every statement made elsewhere runs on the
 * pool, outside it. SERIALIZABLE gives the transactions of every replica one serial order, as SQLite's
 * BEGIN IMMEDIATE does for one process; PostgreSQL keeps it by failing one of two conflicting transactions
 * (SQLSTATE 40001, or 40P01 for a deadlock), which is then run again from the start.
 *
 * Transactions are also taken one at a time across all replicas (`serialize`, the default): each first takes a
 * session-level advisory lock, before BEGIN so its snapshot is taken after the previous holder committed, and a
 * replica queues its own transactions so it holds at most one connection waiting for that lock. This is
 * SQLite's one-writer model on a shared server: store transactions are a few statements with no network call
 * in them, so one at a time costs little, while what takes time between them (API calls, chat posts) spreads
 * across replicas; and it avoids SERIALIZABLE's false conflicts (a sequential scan of a small table locks the
 * whole table as a predicate), which made concurrent commits fail and re-run many times. The conflict retry
 * stays as the safety net (a deadlock with a single statement outside any transaction).
 *
 * A statement outside a transaction runs alone (autocommit, the server's default READ COMMITTED): each one the
 * store issues reads and writes the same rows (a compare-and-set UPDATE, an INSERT … ON CONFLICT), and
 * PostgreSQL re-checks its WHERE on the latest committed row after waiting for that row's lock, so racing
 * replicas still see exactly one of them win.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { Clock, Logger } from '../../core/ports.js';

/** How many times a transaction runs before its last conflict is thrown. */
export const MAX_ATTEMPTS = 8;
/** The first retry waits up to this long (jittered), doubling each time up to `MAX_BACKOFF_MS`. */
const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 200;

/** The advisory lock every serialized transaction takes first (the migration lock and leader leases differ). */
export const TRANSACTION_LOCK_KEY = '32199633629507445';

/** serialization_failure, deadlock_detected: the transaction lost a race and may simply run again. */
const CONFLICT_CODES: ReadonlySet<string> = new Set(['40001', '40P01']);

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
  clock: Clock;
  logger: Logger;
  /** In [0, 1): spreads the retries of transactions that conflicted together. */
  random?: () => number;
  /** One transaction at a time across replicas (see the file comment); default true. */
  serialize?: boolean;
}

export class PostgresTransactions {
  readonly #context = new AsyncLocalStorage<OpenTransaction>();
  readonly #pool: pg.Pool;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #random: () => number;
  readonly #serialize: boolean;
  /** This replica's transactions, one after another when serialized. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: TransactionOptions) {
    this.#serialize = options.serialize ?? true;
    this.#pool = options.pool;
    this.#clock = options.clock;
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
   * Runs `fn` in one SERIALIZABLE transaction, and again from the start (up to MAX_ATTEMPTS times, after a short
   * jittered pause) when PostgreSQL fails it for conflicting with another transaction, at any statement or at
   * COMMIT. Re-running is safe because a callback only makes store calls, all undone by the rollback: it must
   * not send, post or charge anything (the port's rule), nor keep state of its own across attempts. A call from
   * inside an open transaction becomes a savepoint of it; throwing rolls back (to the savepoint).
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const open = this.#context.getStore();
    if (open?.open) return this.#savepoint(open, fn);
    if (!this.#serialize) return this.#withRetries(fn);
    const turn = this.#queue.then(() => this.#withRetries(fn));
    this.#queue = turn.catch(() => {});
    return turn;
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
        await this.#clock.sleep(pauseMs);
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
    let locked = false;
    try {
      if (this.#serialize) {
        await client.query('SELECT pg_advisory_lock($1)', [TRANSACTION_LOCK_KEY]);
        locked = true;
      }
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
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
      if (locked && broken === undefined) {
        try {
          await client.query('SELECT pg_advisory_unlock($1)', [TRANSACTION_LOCK_KEY]);
        } catch (unlockError) {
          // Dropping the connection releases its session lock.
          broken = unlockError as Error;
        }
      }
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
