/**
 * The PostgreSQL `Store` (DESIGN §9, issue 17): each replica opens one on the shared database, a connection pool
 * under every table, migrations applied at open. Each table group lives in its own file (the twin of its SQLite
 * file: the same statements in PostgreSQL's dialect); this one opens, wires and closes them. Transactions: see
 * ./transactions.ts.
 */
import pg from 'pg';
import { type Clock, type Logger, type Store, systemClock } from '../../core/ports.js';
import { assertSecretKey, secretKeyFingerprint } from '../crypto.js';
import { InteractionStates } from '../tables/interactions.js';
import { PostgresApprovals } from './approvals.js';
import { PostgresAudit } from './audit.js';
import { PostgresCardStates, PostgresCards } from './cards.js';
import { PostgresEffects } from './effects.js';
import { PostgresIdempotency } from './idempotency.js';
import { PostgresDeliveries, PostgresInstallations } from './installations.js';
import { PostgresKeys } from './keys.js';
import { migratePostgres } from './migrations.js';
import { PostgresOutbox } from './outbox.js';
import { PostgresPolicies } from './policies.js';
import { PostgresSettings, PostgresSubscriptions } from './settings.js';
import { PG_TYPES, type Sql, sqlOver } from './sql.js';
import { PostgresTransactions } from './transactions.js';
import { PostgresUsers } from './users.js';
import { PostgresWatches } from './watches.js';
import { purgeWorkspace } from './workspace-purge.js';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database` (DATABASE_URL). */
  url: string;
  /** 32 bytes encrypting linked API keys and installations (see `loadSecretKey`). */
  secretKey: Buffer;
  clock?: Clock;
  logger?: Logger;
  /** Connections this replica may open at most (each open transaction holds one). Default 10. */
  poolSize?: number;
  /**
   * Transactions one at a time across replicas (default true; see `transactions.ts`). Tests of the conflict
   * retry turn it off to make transactions overlap.
   */
  serializeTransactions?: boolean;
}

const DEFAULT_POOL_SIZE = 10;

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
 * different async flows run side by side, each on its own client, isolated (SERIALIZABLE) from each other and
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
    options: { secretKey: Buffer; clock: Clock; logger: Logger; serializeTransactions?: boolean },
  ) {
    const { secretKey, clock, logger } = options;
    this.#transactions = new PostgresTransactions({
      pool,
      clock,
      logger,
      serialize: options.serializeTransactions ?? true,
    });
    const sql = sqlOver(this.#transactions.query);
    this.#sql = sql;
    this.keys = new PostgresKeys(sql, secretKey, clock);
    this.users = new PostgresUsers(sql);
    this.settings = new PostgresSettings(sql, clock);
    this.policies = new PostgresPolicies(sql, clock);
    this.subscriptions = new PostgresSubscriptions(sql, clock);
    this.watches = new PostgresWatches(sql, clock);
    this.cards = new PostgresCards(sql, clock);
    this.cardStates = new PostgresCardStates(sql, clock);
    this.outbox = new PostgresOutbox(sql, clock);
    this.idempotency = new PostgresIdempotency(sql, clock);
    this.effects = new PostgresEffects(sql, clock);
    this.approvals = new PostgresApprovals(sql, clock);
    this.audit = new PostgresAudit(sql);
    this.installations = new PostgresInstallations(sql, secretKey, clock);
    this.deliveries = new PostgresDeliveries(sql, clock);
    this.interactions = new InteractionStates(sql, secretKey, clock);
  }

  /**
   * Runs `fn` in one SERIALIZABLE transaction; nested calls become savepoints; throwing rolls back. `fn` may
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
  return new PostgresStore(pool, {
    secretKey: options.secretKey,
    clock: options.clock ?? systemClock,
    logger,
    ...(options.serializeTransactions === undefined
      ? {}
      : { serializeTransactions: options.serializeTransactions }),
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
