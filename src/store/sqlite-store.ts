/**
 * The SQLite `Store` (DESIGN §1): one better-sqlite3 connection, WAL for files, migrations applied at open.
 * Each table group lives in its own file; this one opens, wires and closes them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
import { type SqliteRun, sqliteSql } from './sql.js';
import type { Synchronous } from './synchronous.js';
import { InteractionStates } from './tables/interactions.js';
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

/** The synchronous tables behind the port, by the port's names. */
interface SqliteTables {
  keys: SqliteKeys;
  users: SqliteUsers;
  settings: SqliteSettings;
  policies: SqlitePolicies;
  subscriptions: SqliteSubscriptions;
  watches: SqliteWatches;
  cards: SqliteCards;
  cardStates: SqliteCardStates;
  outbox: SqliteOutbox;
  idempotency: SqliteIdempotency;
  effects: SqliteEffects;
  approvals: SqliteApprovals;
  audit: SqliteAudit;
  installations: SqliteInstallations;
  deliveries: SqliteDeliveries;
}

/** A transaction in progress: the async context that opened it, and its savepoint depth. */
interface OpenTransaction {
  depth: number;
  ended: Promise<void>;
}

/**
 * better-sqlite3 is synchronous and has one connection, so the asynchronous port runs each call at once, except
 * while a transaction is open: its `BEGIN IMMEDIATE … COMMIT` spans the awaited callback, so calls from
 * other async flows wait for it to end (they would otherwise land inside it), and calls from the callback's
 * own async context (found with `AsyncLocalStorage`) go straight through. Transactions thus run one at a time,
 * as they did when they were synchronous; nested ones become savepoints.
 */
export class SqliteStore implements Store {
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

  readonly #context = new AsyncLocalStorage<OpenTransaction>();
  #open: OpenTransaction | null = null;

  /** Wires the tables over an open, migrated connection; use `openStore`. */
  constructor(
    private readonly db: Database.Database,
    options: { secretKey: Buffer; clock: Clock },
  ) {
    const { secretKey, clock } = options;
    const tables: SqliteTables = {
      keys: new SqliteKeys(db, secretKey, clock),
      users: new SqliteUsers(db),
      settings: new SqliteSettings(db, clock),
      policies: new SqlitePolicies(db, clock),
      subscriptions: new SqliteSubscriptions(db, clock),
      watches: new SqliteWatches(db, clock),
      cards: new SqliteCards(db, clock),
      cardStates: new SqliteCardStates(db, clock),
      outbox: new SqliteOutbox(db, clock),
      idempotency: new SqliteIdempotency(db, clock),
      effects: new SqliteEffects(db, clock),
      approvals: new SqliteApprovals(db, clock),
      audit: new SqliteAudit(db),
      installations: new SqliteInstallations(db, secretKey, clock),
      deliveries: new SqliteDeliveries(db, clock),
    };
    const run = <R>(op: () => R) => this.#run(op);
    this.keys = liftTable<Store['keys']>(tables.keys, run);
    this.users = liftTable<Store['users']>(tables.users, run);
    this.settings = liftTable<Store['settings']>(tables.settings, run);
    this.policies = liftTable<Store['policies']>(tables.policies, run);
    this.subscriptions = liftTable<Store['subscriptions']>(tables.subscriptions, run);
    this.watches = liftTable<Store['watches']>(tables.watches, run);
    this.cards = liftTable<Store['cards']>(tables.cards, run);
    this.cardStates = liftTable<Store['cardStates']>(tables.cardStates, run);
    this.outbox = liftTable<Store['outbox']>(tables.outbox, run);
    this.idempotency = liftTable<Store['idempotency']>(tables.idempotency, run);
    this.effects = liftTable<Store['effects']>(tables.effects, run);
    this.approvals = liftTable<Store['approvals']>(tables.approvals, run);
    this.audit = liftTable<Store['audit']>(tables.audit, run);
    this.installations = liftTable<Store['installations']>(tables.installations, run);
    this.deliveries = liftTable<Store['deliveries']>(tables.deliveries, run);
    const sql = sqliteSql(db, run as SqliteRun);
    this.interactions = new InteractionStates(sql, secretKey, clock);
  }

  /**
   * Runs `fn` in one transaction (BEGIN IMMEDIATE); nested calls become savepoints. Throwing rolls back.
   * `fn` must await only this store: the connection is held until it returns.
   */
  async transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    const open = this.#open;
    if (open !== null && this.#context.getStore() === open) return this.#savepoint(open, fn);
    while (this.#open !== null) await this.#open.ended;
    let end!: () => void;
    const mine: OpenTransaction = { depth: 0, ended: new Promise((resolve) => (end = resolve)) };
    this.db.exec('BEGIN IMMEDIATE');
    this.#open = mine;
    try {
      const result = await this.#context.run(mine, () => fn(this));
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      this.#open = null;
      end();
    }
  }

  async #savepoint<T>(open: OpenTransaction, fn: (tx: Store) => Promise<T>): Promise<T> {
    const name = `nested_${++open.depth}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this);
      this.db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    } finally {
      open.depth--;
    }
  }

  /** Runs one synchronous table call now, or once another flow's open transaction has ended. */
  #run<R>(op: () => R): Promise<R> {
    const open = this.#open;
    if (open === null || this.#context.getStore() === open) {
      try {
        return Promise.resolve(op());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return open.ended.then(() => this.#run(op));
  }

  purgeWorkspace(purge: Parameters<Store['purgeWorkspace']>[0]): ReturnType<Store['purgeWorkspace']> {
    return this.#run(() => purgeWorkspace(this.db, purge));
  }

  async close(): Promise<void> {
    while (this.#open !== null) await this.#open.ended;
    if (this.db.open) this.db.close();
  }
}

/** The asynchronous face of one synchronous table: each method runs through `run`. */
function liftTable<T extends object>(table: Synchronous<T>, run: <R>(op: () => R) => Promise<R>): T {
  const lifted: Record<string, unknown> = {};
  for (
    let proto = Object.getPrototypeOf(table);
    proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = (table as Record<string, unknown>)[name];
      if (name === 'constructor' || name in lifted || typeof method !== 'function') continue;
      lifted[name] = (...args: unknown[]) => run(() => method.apply(table, args));
    }
  }
  return lifted as T;
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
