/**
 * The PostgreSQL `Store` (DESIGN §9): each replica opens one on the shared database, a connection pool
 * under every table, migrations applied at open. The tables are SQLite's too (src/store/tables/, one executor
 * for both); this file opens, wires and closes them. Transactions: see ./transactions.ts.
 */
import pg from 'pg';
import type { Clock, Logger, Store } from '../../core/ports/index.js';
import { systemClock } from '../../core/time/system-clock.js';
import { assertSecretKey, secretKeyFingerprint } from '../crypto.js';
import { silentLogger } from '../silent-logger.js';
import { TableStore } from '../tables/index.js';
import { migratePostgres } from './migrations.js';
import { DEFAULT_DATABASE_TIMEOUT_MS, sessionSettings } from './session.js';
import { type LeaseClock, PG_TYPES, sqlOver } from './sql.js';
import { PostgresTransactions } from './transactions.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (DATABASE_URL). */
  url: string;
  /** 32 bytes encrypting linked API keys and installations (see `loadSecretKey`). */
  secretKey: Buffer;
  clock?: Clock;
  /**
   * Whose clock times watch and outbox claims. Default: the database server's when `clock` is the system's
   * (production: replicas' clocks may disagree), else the injected clock (virtual time in tests and benchmarks,
   * which no server clock follows).
   */
  leaseClock?: LeaseClock;
  logger?: Logger;
  /** Connections this replica may open at most (each open transaction holds one). Default 10. */
  poolSize?: number;
  /** DATABASE_TIMEOUT_MS: how long anything may wait on a stopped replica (see `sessionSettings`). */
  timeoutMs?: number;
}

const DEFAULT_POOL_SIZE = 10;
/**
 * Every statement goes through one executor (`PostgresTransactions.query`): on the client of the transaction
 * open in the caller's async context, else on the pool. Unlike SQLite's single connection, transactions of
 * different async flows run side by side, each on its own client, isolated (REPEATABLE READ) from each other and
 * from other replicas.
 */
export class PostgresStore extends TableStore {
  readonly #transactions: PostgresTransactions;
  #closed: Promise<void> | undefined;

  /** Wires the tables over a migrated database's pool; use `openPostgresStore`. */
  constructor(
    /** The store's pool: its connections, for what else runs on this database (e.g. a leader lease). */
    readonly pool: pg.Pool,
    transactions: PostgresTransactions,
    options: { secretKey: Buffer; clock: Clock; leaseClock: LeaseClock },
  ) {
    super(sqlOver(transactions.query, options.leaseClock), options);
    this.#transactions = transactions;
  }

  /**
   * Runs `fn` in one REPEATABLE READ transaction; nested calls become savepoints; throwing rolls back. `fn` may
   * run more than once: when it conflicts with another transaction it is rolled back and run again (see
   * `PostgresTransactions.run`), so it only makes store calls, which the rollback undoes.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.#transactions.run(() => fn(this));
  }

  /** Ends the pool once its checked-out clients (open transactions) are back. */
  close(): Promise<void> {
    this.#closed ??= this.pool.end();
    return this.#closed;
  }
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  assertSecretKey(options.secretKey);
  const logger = (options.logger ?? silentLogger).child({ component: 'store' });
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    types: PG_TYPES,
    application_name: 'reelbot',
    ...sessionSettings(options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS),
  });
  // An idle client whose connection drops emits 'error' on the pool; unheard, that would crash the process.
  // The pool discards that client and opens another on demand.
  pool.on('error', (error) => logger.warn({ err: error }, 'idle PostgreSQL connection lost'));
  try {
    await migratePostgres(pool, { logger });
    await checkSecretKey(pool, options.secretKey, logger);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const clock = options.clock ?? systemClock;
  return new PostgresStore(pool, new PostgresTransactions({ pool, logger }), {
    secretKey: options.secretKey,
    clock,
    leaseClock: options.leaseClock ?? (clock === systemClock ? 'database' : 'injected'),
  });
}

/**
 * Reports once at start-up when stored keys were sealed with another secret key (a changed
 * `REELBOT_SECRET_KEY`), rather than only as a failure per user, as the SQLite store does. Not fatal: members
 * can link again, and `VIDEO_API_KEY` still works meanwhile.
 */
async function checkSecretKey(pool: pg.Pool, secretKey: Buffer, logger: Logger): Promise<void> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*) AS n FROM linked_keys WHERE secret_key_id <> $1',
    [secretKeyFingerprint(secretKey)],
  );
  const n = rows[0]?.n ?? 0;
  if (n === 0) return;
  logger.error(
    { unreadableLinkedKeys: n },
    'REELBOT_SECRET_KEY differs from the key some linked API keys were stored with: they cannot be decrypted. ' +
      'Restore the original key, or ask those members to link again.',
  );
}
