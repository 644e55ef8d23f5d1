/**
 * The SQLite `Store` (DESIGN §1): one better-sqlite3 connection, WAL for files, migrations applied at open.
 * Each table group lives in its own file; this one opens, wires and closes them.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type Clock, type Logger, type Store, systemClock } from '../core/ports.js';
import { SqliteApprovals } from './approvals.js';
import { SqliteAudit } from './audit.js';
import { SqliteCardStates, SqliteCards } from './cards.js';
import { assertSecretKey, secretKeyFingerprint } from './crypto.js';
import { SqliteEffects } from './effects.js';
import { SqliteIdempotency } from './idempotency.js';
import { SqliteDeliveries, SqliteInstallations } from './installations.js';
import { SqliteKeys } from './keys.js';
import { migrate } from './migrations.js';
import { SqliteOutbox } from './outbox.js';
import { SqlitePolicies } from './policies.js';
import { SqliteSettings, SqliteSubscriptions } from './settings.js';
import { SqliteUsers } from './users.js';
import { SqliteWatches } from './watches.js';
import { purgeWorkspace } from './workspace-purge.js';

export interface StoreOptions {
  /** A file path, or `':memory:'` for a private in-memory database. */
  path: string;
  /** 32 bytes encrypting linked API keys (see `loadSecretKey`). */
  secretKey: Buffer;
  clock?: Clock;
  logger?: Logger;
  /**
   * How long a write waits for another connection's lock before failing with SQLITE_BUSY (ms). The driver is
   * synchronous: this wait blocks the event loop, so it stays short and callers retry asynchronously
   * (src/core/database-busy.ts). Default 100.
   */
  busyTimeoutMs?: number;
}

const BUSY_TIMEOUT_MS = 100;
/** Opening (migrations) may wait longer for a lock: nothing is being served yet. */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

const MEMORY = ':memory:';

const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

export class SqliteStore implements Store {
  readonly keys: SqliteKeys;
  readonly users: SqliteUsers;
  readonly settings: SqliteSettings;
  readonly policies: SqlitePolicies;
  readonly subscriptions: SqliteSubscriptions;
  readonly watches: SqliteWatches;
  readonly cards: SqliteCards;
  readonly cardStates: SqliteCardStates;
  readonly outbox: SqliteOutbox;
  readonly idempotency: SqliteIdempotency;
  readonly effects: SqliteEffects;
  readonly approvals: SqliteApprovals;
  readonly audit: SqliteAudit;
  readonly installations: SqliteInstallations;
  readonly deliveries: SqliteDeliveries;

  /** Wires the tables over an open, migrated connection; use `openStore`. */
  constructor(
    private readonly db: Database.Database,
    options: { secretKey: Buffer; clock: Clock },
  ) {
    const { secretKey, clock } = options;
    this.keys = new SqliteKeys(db, secretKey, clock);
    this.users = new SqliteUsers(db);
    this.settings = new SqliteSettings(db, clock);
    this.policies = new SqlitePolicies(db, clock);
    this.subscriptions = new SqliteSubscriptions(db, clock);
    this.watches = new SqliteWatches(db, clock);
    this.cards = new SqliteCards(db, clock);
    this.cardStates = new SqliteCardStates(db, clock);
    this.outbox = new SqliteOutbox(db, clock);
    this.idempotency = new SqliteIdempotency(db, clock);
    this.effects = new SqliteEffects(db, clock);
    this.approvals = new SqliteApprovals(db, clock);
    this.audit = new SqliteAudit(db);
    this.installations = new SqliteInstallations(db, secretKey, clock);
    this.deliveries = new SqliteDeliveries(db, clock);
  }

  /** Runs `fn` in one transaction (BEGIN IMMEDIATE); nested calls become savepoints. Throwing rolls back. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  purgeWorkspace(purge: Parameters<Store['purgeWorkspace']>[0]): ReturnType<Store['purgeWorkspace']> {
    return purgeWorkspace(this.db, purge);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export function openStore(options: StoreOptions): SqliteStore {
  assertSecretKey(options.secretKey);
  const logger = (options.logger ?? silentLogger).child({ component: 'store' });
  const inMemory = options.path === MEMORY;
  if (!inMemory) mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
  const db = new Database(options.path);
  try {
    // Before WAL is switched on: SQLite gives the -wal and -shm files the database file's mode.
    if (!inMemory) chmodSync(options.path, 0o600);
    if (!inMemory && db.pragma('journal_mode = WAL', { simple: true }) !== 'wal') {
      logger.warn({ path: options.path }, 'SQLite could not switch to WAL here (network file system?)');
    }
    // NORMAL is durable across application crashes in WAL mode; only an OS crash may lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    migrate(db, { location: inMemory ? 'in memory' : options.path, logger });
    checkSecretKey(db, options.secretKey, logger);
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? BUSY_TIMEOUT_MS))}`);
    return new SqliteStore(db, { secretKey: options.secretKey, clock: options.clock ?? systemClock });
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Reports once at start-up when stored keys were sealed with another secret key (a changed `REELBOT_SECRET_KEY`
 * or lost `secret.key`), rather than only as a failure per user. Not fatal: members can link again, and
 * `VIDEO_API_KEY` still works meanwhile.
 */
function checkSecretKey(db: Database.Database, secretKey: Buffer, logger: Logger): void {
  const { n } = db
    .prepare<[string], { n: number }>('SELECT count(*) AS n FROM linked_keys WHERE secret_key_id != ?')
    .get(secretKeyFingerprint(secretKey))!;
  if (n === 0) return;
  logger.error(
    { unreadableLinkedKeys: n },
    'REELBOT_SECRET_KEY (or the data directory secret.key) differs from the key some linked API keys were ' +
      'stored with: they cannot be decrypted. Restore the original key, or ask those members to link again.',
  );
}
