/**
 * The SQLite `Store` (DESIGN §1): one better-sqlite3 connection, WAL for files, migrations applied at open.
 * The tables are the PostgreSQL store's (src/store/tables/), over SQLite's translation of the one executor
 * (`sqliteSql`); this file opens, wires and closes them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Clock, Logger, Store } from '../core/ports/index.js';
import { systemClock } from '../core/time/system-clock.js';
import { assertSecretKey, secretKeyFingerprint } from './crypto.js';
import { migrate } from './migrations.js';
import { silentLogger } from './silent-logger.js';
import { sqliteSql } from './sql.js';
import { TableStore } from './tables/index.js';

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
   * (src/core/dispatch/database-busy.ts). Default 100.
   */
  busyTimeoutMs?: number;
}

const BUSY_TIMEOUT_MS = 100;
/** Opening (migrations) may wait longer for a lock: nothing is being served yet. */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

const MEMORY = ':memory:';

/** A transaction in progress: the async context that opened it, and its savepoint depth. */
interface OpenTransaction {
  depth: number;
  ended: Promise<void>;
}

/**
 * better-sqlite3 is synchronous and has one connection, so each statement runs at once (see `run`), except
 * while a transaction is open: its `BEGIN IMMEDIATE … COMMIT` spans the awaited callback, so statements from
 * other async flows wait for it to end (they would otherwise land inside it), and those from the callback's
 * own async context (found with `AsyncLocalStorage`) go straight through. Transactions thus run one at a time;
 * nested ones become savepoints. Outside a transaction, other flows' statements may run between two of one
 * table method's, as other replicas' may on PostgreSQL: the tables are written for that.
 */
class OneWriter {
  readonly #context = new AsyncLocalStorage<OpenTransaction>();
  #open: OpenTransaction | null = null;

  constructor(private readonly db: Database.Database) {}

  /** Runs `fn` in one transaction (BEGIN IMMEDIATE); nested calls become savepoints. Throwing rolls back. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    const open = this.#open;
    if (open !== null && this.#context.getStore() === open) return this.#savepoint(open, fn);
    // No await when nothing is open: BEGIN must follow the check in the same turn, or another flow's could
    // come between them.
    while (this.#open !== null) await this.#open.ended;
    let end!: () => void;
    const mine: OpenTransaction = { depth: 0, ended: new Promise((resolve) => (end = resolve)) };
    this.db.exec('BEGIN IMMEDIATE');
    this.#open = mine;
    try {
      const result = await this.#context.run(mine, fn);
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

  async #savepoint<T>(open: OpenTransaction, fn: () => Promise<T>): Promise<T> {
    const name = `nested_${++open.depth}`;
    this.db.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn();
      this.db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    } finally {
      open.depth--;
    }
  }

  /** Runs one synchronous statement now, or once another flow's open transaction has ended. */
  readonly run = <R>(op: () => R): Promise<R> => {
    const open = this.#open;
    if (open === null || this.#context.getStore() === open) {
      try {
        return Promise.resolve(op());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return open.ended.then(() => this.run(op));
  };

  /** Resolves once no transaction is open. */
  async idle(): Promise<void> {
    while (this.#open !== null) await this.#open.ended;
  }
}

/** The tables over SQLite's translation of the one executor (`sqliteSql`), one writer at a time. */
export class SqliteStore extends TableStore {
  readonly #writer: OneWriter;

  /** Wires the tables over an open, migrated connection; use `openStore`. */
  constructor(
    private readonly db: Database.Database,
    writer: OneWriter,
    options: { secretKey: Buffer; clock: Clock },
  ) {
    super(sqliteSql(db, writer.run), options);
    this.#writer = writer;
  }

  /**
   * Runs `fn` in one transaction (BEGIN IMMEDIATE); nested calls become savepoints. Throwing rolls back.
   * `fn` must await only this store: the connection is held until it returns.
   */
  transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
    return this.#writer.transaction(() => fn(this));
  }

  async close(): Promise<void> {
    await this.#writer.idle();
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
    return new SqliteStore(db, new OneWriter(db), {
      secretKey: options.secretKey,
      clock: options.clock ?? systemClock,
    });
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
