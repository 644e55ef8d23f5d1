import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Logger, NewWatch, OutboxOp, Store } from '../../src/core/ports/index.js';
import type { Card } from '../../src/core/text/cards.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { cardText } from '../support/card-text.js';
import { startPostgres, type TestPostgres, withClient } from '../support/postgres.js';
import type { TestClock } from '../support/test-clock.js';

export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
export const HOUR = 3600_000;

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const at =
    (level: LogLine['level']) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, msg });
    };
  const logger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const newSecretKey = (): Buffer => randomBytes(32);

/** A store opened for one test, and how to drop it. */
export interface OpenedStore {
  store: Store;
  cleanup: () => Promise<void>;
  /** The query plan of a read-only statement, as one line of text (to check which index serves it). */
  explain(sql: string): Promise<string>;
}

/** One way of opening a fresh store; the contract suites run against each. */
export interface StoreFixture {
  name: string;
  /** Before the suite's tests (beforeAll): a PostgreSQL server, one per test file. */
  setup?(): Promise<void>;
  /** After them (afterAll). */
  teardown?(): Promise<void>;
  open(clock: TestClock): Promise<OpenedStore>;
}

/** The plan of `sql` on a better-sqlite3 connection (SQLite internals, reached only by this helper). */
function explainSqlite(store: SqliteStore): (sql: string) => Promise<string> {
  const db = (store as unknown as { db: Database.Database }).db;
  return async (sql) =>
    db
      .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail)
      .join(' ');
}

function sqliteFixture(name: string, path: () => { path: string; cleanup: () => void }): StoreFixture {
  return {
    name,
    open: (clock) => {
      const where = path();
      const store = openStore({ path: where.path, secretKey: newSecretKey(), clock });
      return Promise.resolve({
        store,
        explain: explainSqlite(store),
        cleanup: async () => {
          await store.close();
          where.cleanup();
        },
      });
    },
  };
}

/**
 * PostgreSQL: one throwaway server per test file (setup/teardown), a fresh database per test, created with an
 * ICU collation (see `createDatabase`) so a range that relies on byte order without COLLATE "C" fails here.
 */
export function postgresFixture(): StoreFixture & { server(): TestPostgres } {
  let server: TestPostgres | undefined;
  const running = (): TestPostgres => {
    if (!server) throw new Error('the PostgreSQL fixture was not set up (beforeAll)');
    return server;
  };
  return {
    name: 'PostgreSQL',
    server: running,
    setup: async () => {
      server = await startPostgres();
    },
    teardown: async () => {
      await server?.stop();
      server = undefined;
    },
    open: async (clock) => {
      const url = await running().createDatabase();
      const store = await openPostgresStore({ url, secretKey: newSecretKey(), clock, poolSize: 4 });
      return {
        store,
        // Tables of a few rows are read sequentially: forbid that, to see which index the planner would use.
        explain: (sql) =>
          withClient(url, async (client) => {
            await client.query('SET enable_seqscan = off');
            const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
            return rows.map((row) => row['QUERY PLAN']).join(' ');
          }),
        cleanup: () => store.close(),
      };
    },
  };
}

export const FIXTURES: StoreFixture[] = [
  sqliteFixture(':memory:', () => ({ path: ':memory:', cleanup: () => {} })),
  sqliteFixture('temp file', () => {
    const { dir, cleanup } = tempDir();
    return { path: join(dir, 'reelbot.db'), cleanup };
  }),
  postgresFixture(),
];

// Shared test data for the contract suites.
export const ALICE = 'slack:T1:U1';
export const BOB = 'slack:T1:U2';
export const CHANNEL = 'slack:T1:C1';
export const OTHER_CHANNEL = 'discord:G1:C9';

export const card = (title: string): Card => ({
  title: cardText(title),
  tone: 'progress',
  progress: { percent: 40 },
});
export const reply = (title: string): OutboxOp => ({ op: 'reply', conversation: CHANNEL, card: card(title) });

export const newWatch = (overrides: Partial<NewWatch> = {}): NewWatch => ({
  kind: 'generation',
  target: 'vid_1',
  owner: ALICE,
  conversation: CHANNEL,
  cardKey: 'card:vid_1',
  state: { percent: 0 },
  nextCheckAt: T0 + 10_000,
  expiresAt: T0 + 24 * HOUR,
  ...overrides,
});
