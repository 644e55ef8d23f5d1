/**
 * The PostgreSQL `Store` (DESIGN §9, issue 17): each replica opens one on the shared database, a connection pool
 * under every table, migrations applied at open. The tables are SQLite's too (src/store/tables/, one executor
 * for both); this file opens, wires and closes them. Transactions: see ./transactions.ts.
 */
import pg from 'pg';
import { type Clock, type Logger, type Store, systemClock } from '../../core/ports.js';
import { assertSecretKey, secretKeyFingerprint } from '../crypto.js';
import type { Sql } from '../sql.js';
import { Approvals } from '../tables/approvals.js';
import { Audit } from '../tables/audit.js';
import { CardStates, Cards } from '../tables/cards.js';
import { Effects } from '../tables/effects.js';
import { Idempotency } from '../tables/idempotency.js';
import { Deliveries, Installations } from '../tables/installations.js';
import { InteractionStates } from '../tables/interactions.js';
import { Keys } from '../tables/keys.js';
import { Outbox } from '../tables/outbox.js';
import { Policies } from '../tables/policies.js';
import { Settings, Subscriptions } from '../tables/settings.js';
import { Users } from '../tables/users.js';
import { Watches } from '../tables/watches.js';
import { purgeWorkspace } from '../tables/workspace-purge.js';
import { migratePostgres } from './migrations.js';
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
export const DEFAULT_DATABASE_TIMEOUT_MS = 4_000;

/**
 * What every session of the store's pool is told at connect (issue 28), from one timeout T:
 * - `lock_timeout` T: a statement waits for another transaction's row lock at most T, then fails (55P03) and
 *   its transaction runs again;
 * - `idle_in_transaction_session_timeout` T/2: a transaction whose replica stopped sending (SIGSTOP, a paused
 *   VM, a partition) is ended by the server, and its locks released, before anyone's lock wait runs out;
 * - `statement_timeout` 3T: no statement holds its locks for long;
 * - TCP keepalive on the client: a replica notices a dead connection in seconds, not the kernel's two hours.
 */
export function sessionSettings(timeoutMs: number): pg.PoolConfig {
  const t = Math.max(100, Math.trunc(timeoutMs));
  return {
    lock_timeout: t,
    idle_in_transaction_session_timeout: Math.trunc(t / 2),
    statement_timeout: 3 * t,
    keepAlive: true,
    keepAliveInitialDelayMillis: Math.min(10_000, t),
  };
}

const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/**
 * Every statement goes through one executor (`PostgresTransactions.query`): on the client of the transaction
 * open in the caller's async context, else on the pool. Unlike SQLite's single connection, transactions of
 * different async flows run side by side, each on its own client, isolated (REPEATABLE READ) from each other and
 * from other replicas.
 */
export class PostgresStore implements Store {
  readonly keys: Store['keys'];
  readonly users: Store['users'];
  readonly settings: Store['settings'];
  readonly policies: Store['policies'];
  readonly subscriptions: Store['subscriptions'];
  readonly watches: Store['watches'];
  readonly cards: Store['cards'];
  readonly cardStates: Store['cardStates'];
  readonly outbox: Store['outbox'];
  readonly idempotency: Store['idempotency'];
  readonly effects: Store['effects'];
  readonly approvals: Store['approvals'];
  readonly audit: Store['audit'];
  readonly installations: Store['installations'];
  readonly deliveries: Store['deliveries'];
  readonly interactions: Store['interactions'];

  readonly #transactions: PostgresTransactions;
  readonly #sql: Sql;
  #closed: Promise<void> | undefined;

  /** Wires the tables over a migrated database's pool; use `openPostgresStore`. */
  constructor(
    /** The store's pool: its connections, for what else runs on this database (e.g. a leader lease). */
    readonly pool: pg.Pool,
    options: { secretKey: Buffer; clock: Clock; logger: Logger; leaseClock: LeaseClock },
  ) {
    const { secretKey, clock, logger } = options;
    this.#transactions = new PostgresTransactions({ pool, logger });
    const sql = sqlOver(this.#transactions.query, options.leaseClock);
    this.#sql = sql;
    this.keys = new Keys(sql, secretKey, clock);
    this.users = new Users(sql);
    this.settings = new Settings(sql, clock);
    this.policies = new Policies(sql, clock);
    this.subscriptions = new Subscriptions(sql, clock);
    this.watches = new Watches(sql, clock);
    this.cards = new Cards(sql, clock);
    this.cardStates = new CardStates(sql, clock);
    this.outbox = new Outbox(sql, clock);
    this.idempotency = new Idempotency(sql, clock);
    this.effects = new Effects(sql, clock);
    this.approvals = new Approvals(sql, clock);
    this.audit = new Audit(sql);
    this.installations = new Installations(sql, secretKey, clock);
    this.deliveries = new Deliveries(sql, clock);
    this.interactions = new InteractionStates(sql, secretKey, clock);
  }

  /**
   * Runs `fn` in one REPEATABLE READ transaction; nested calls become savepoints; throwing rolls back. `fn` may
   * run more than once: when it conflicts with another transaction it is rolled back and run again (see
   * `PostgresTransactions.run`), so it only makes store calls, which the rollback undoes.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.#transactions.run(() => fn(this));
  }

  /** In one transaction, as on SQLite (or as a savepoint of the caller's). */
  purgeWorkspace(purge: Parameters<Store['purgeWorkspace']>[0]): ReturnType<Store['purgeWorkspace']> {
    return this.#transactions.run(() => purgeWorkspace(this.#sql, purge));
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
  return new PostgresStore(pool, {
    secretKey: options.secretKey,
    clock,
    logger,
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
