/**
 * The PostgreSQL migrations against a real server: the tables, keys and indexes of the SQLite schema, migrated once
 * by replicas starting together, a newer schema refused.
 */
import Database from 'better-sqlite3';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Migration, migrate as migrateSqlite, SchemaTooNewError } from '../../src/store/migrations.js';
import {
  MIGRATION_LOCK_KEY,
  migratePostgres,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
} from '../../src/store/postgres/migrations.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { type LogLine, newSecretKey, recordingLogger } from './helpers.js';
import { databaseOf, newPool, onATestCluster, POSTGRES_ONLY, server, tables } from './postgres-cluster.js';

onATestCluster();

/** Each step's line (debug); the default level sees one 'store migrated' line per start that migrated. */
const migrated = (lines: LogLine[]) => lines.filter((l) => l.msg === 'store migration applied');

async function versions(pool: pg.Pool): Promise<{ version: number; name: string }[]> {
  return (await pool.query('SELECT version, name FROM schema_version ORDER BY version')).rows;
}

/** Per table: its columns, unique keys (primary key included) and other indexes, as comparable strings. */
interface Shape {
  columns: Record<string, string[]>;
  unique: string[];
  indexes: string[];
}

/** `shape` without the PostgreSQL-only tables, and what it held of them. */
function splitPostgresOnly(shape: Shape): { shared: Shape; only: Shape } {
  const mine = (entry: string) => Object.keys(POSTGRES_ONLY).some((t) => entry.startsWith(`${t}(`));
  const only: Shape = { columns: {}, unique: shape.unique.filter(mine), indexes: [] };
  const shared: Shape = { columns: {}, unique: shape.unique.filter((u) => !mine(u)), indexes: shape.indexes };
  for (const [table, columns] of Object.entries(shape.columns)) {
    (table in POSTGRES_ONLY ? only : shared).columns[table] = columns;
  }
  return { shared, only };
}

/** SQLite's `user` column is `user_address` on PostgreSQL (USER is reserved there). */
const renamed = (column: string) => (column === 'user' ? 'user_address' : column);

function sqliteShape(): Shape {
  const db = new Database(':memory:');
  migrateSqlite(db, { location: ':memory:', logger: recordingLogger() });
  const names = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);
  const shape: Shape = { columns: {}, unique: [], indexes: [] };
  for (const table of names) {
    shape.columns[table] = db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}') ORDER BY cid`)
      .all()
      .map((c) => renamed(c.name));
    const keyColumns = db
      .prepare<[], { name: string; pk: number }>(`SELECT name, pk FROM pragma_table_info('${table}')`)
      .all()
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => renamed(c.name));
    shape.unique.push(`${table}(${keyColumns.join(',')})`);
    const indexes = db
      .prepare<[], { name: string; unique: number; origin: string; partial: number }>(
        `SELECT name, "unique", origin, partial FROM pragma_index_list('${table}')`,
      )
      .all();
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const columns = db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_index_info('${index.name}') ORDER BY seqno`)
        .all()
        .map((c) => renamed(c.name))
        .join(',');
      if (index.unique) shape.unique.push(`${table}(${columns})`);
      else shape.indexes.push(`${index.name} ON ${table}(${columns})${index.partial ? ' partial' : ''}`);
    }
  }
  db.close();
  shape.unique.sort();
  shape.indexes.sort();
  return shape;
}

async function postgresShape(pool: pg.Pool): Promise<Shape> {
  const shape: Shape = { columns: {}, unique: [], indexes: [] };
  const columns = await pool.query<{ t: string; c: string }>(
    `SELECT table_name AS t, column_name AS c FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name != 'schema_version' ORDER BY table_name, ordinal_position`,
  );
  for (const { t, c } of columns.rows) {
    shape.columns[t] ??= [];
    shape.columns[t].push(c);
  }
  const indexes = await pool.query<{
    t: string;
    name: string;
    uniq: boolean;
    partial: boolean;
    cols: string;
  }>(
    `SELECT t.relname AS t, i.relname AS name, x.indisunique AS uniq, x.indpred IS NOT NULL AS partial,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS cols
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = 'public' AND t.relname != 'schema_version'`,
  );
  for (const index of indexes.rows) {
    if (index.uniq) shape.unique.push(`${index.t}(${index.cols})`);
    else shape.indexes.push(`${index.name} ON ${index.t}(${index.cols})${index.partial ? ' partial' : ''}`);
  }
  shape.unique.sort();
  shape.indexes.sort();
  return shape;
}

describe('PostgreSQL migrations', () => {
  it('creates every table, column, key and index of the SQLite schema, and records the version', async () => {
    const pool = await newPool();
    const logger = recordingLogger();
    expect(await migratePostgres(pool, { logger })).toBe(POSTGRES_SCHEMA_VERSION);

    const expected = sqliteShape();
    const { shared: actual, only } = splitPostgresOnly(await postgresShape(pool));
    expect(only).toEqual({ columns: POSTGRES_ONLY, unique: ['leases(name)', 'replicas(id)'], indexes: [] });
    expect(Object.keys(actual.columns).sort()).toEqual(Object.keys(expected.columns).sort());
    expect(actual.columns).toEqual(expected.columns);
    expect(actual.unique).toEqual(expected.unique);
    expect(actual.indexes).toEqual(expected.indexes);

    expect(await versions(pool)).toEqual(
      POSTGRES_MIGRATIONS.map((m, i) => ({ version: i + 1, name: m.name })),
    );
    expect(migrated(logger.lines).map((l) => l.obj)).toEqual(
      POSTGRES_MIGRATIONS.map((m, i) => ({ schemaVersion: i + 1, migration: m.name })),
    );
    expect(logger.lines.filter((l) => l.level === 'info').map((l) => [l.msg, l.obj])).toEqual([
      ['store migrated', { schemaVersion: POSTGRES_SCHEMA_VERSION, applied: POSTGRES_SCHEMA_VERSION }],
    ]);
  });

  it('keeps a pending approval from before stages pending at its one stage, and it can still be approved', async () => {
    const url = await server.createDatabase();
    const pool = await newPool(url);
    const before = POSTGRES_MIGRATIONS.findIndex((m) => m.name === 'approval stages');
    await migratePostgres(pool, {
      logger: recordingLogger(),
      migrations: POSTGRES_MIGRATIONS.slice(0, before),
    });
    const action = { command: 'publish', args: {}, idempotencyKey: 'k', summary: 'Publish' };
    await pool.query(
      `INSERT INTO approvals (id, conversation, requester, action, status, card_key, created_at, expires_at)
       VALUES ('apr_1', 'slack:T1:C1', 'slack:T1:U1', $1, 'pending', 'approval:apr_1', 5, 90)`,
      [JSON.stringify(action)],
    );

    const store = await openPostgresStore({ url, secretKey: newSecretKey(), logger: recordingLogger() });
    try {
      const approval = {
        id: 'apr_1',
        conversation: 'slack:T1:C1',
        requester: 'slack:T1:U1',
        action,
        status: 'pending',
        cardKey: 'approval:apr_1',
        createdAt: 5,
        expiresAt: 90,
      };
      expect(await store.approvals.get('apr_1')).toStrictEqual(approval);
      const vote = { round: 0, stage: 0, by: 'slack:T1:U2', covers: ['slack:T1:U2'], at: 10 };
      expect(await store.approvals.vote('apr_1', vote)).toBe(true);
      expect(await store.approvals.decide('apr_1', { status: 'approved', by: 'slack:T1:U2', at: 10 })).toBe(
        true,
      );
      expect(await store.approvals.get('apr_1')).toMatchObject({ status: 'approved', decidedAt: 10 });
    } finally {
      await store.close();
    }
  });

  it('is a no-op when the database is already there, keeping its rows', async () => {
    const pool = await newPool();
    await migratePostgres(pool, { logger: recordingLogger() });
    await pool.query(
      "INSERT INTO user_prefs (user_address, time_zone) VALUES ('slack:T1:U1', 'Europe/Berlin')",
    );
    const before = { tables: await tables(pool), versions: await versions(pool) };

    const logger = recordingLogger();
    expect(await migratePostgres(pool, { logger })).toBe(POSTGRES_SCHEMA_VERSION);
    expect(migrated(logger.lines)).toEqual([]);
    expect({ tables: await tables(pool), versions: await versions(pool) }).toEqual(before);
    expect((await pool.query('SELECT time_zone FROM user_prefs')).rows).toEqual([
      { time_zone: 'Europe/Berlin' },
    ]);
  });

  it('migrates once when two replicas start together on an empty database', async () => {
    const url = await server.createDatabase();
    const [a, b] = [await newPool(url), await newPool(url)];
    const logger = recordingLogger();
    const results = await Promise.all([migratePostgres(a, { logger }), migratePostgres(b, { logger })]);
    expect(results).toEqual([POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION]);
    expect(migrated(logger.lines)).toHaveLength(POSTGRES_SCHEMA_VERSION);
    expect(await versions(a)).toHaveLength(POSTGRES_SCHEMA_VERSION);
  });

  it('makes the second replica wait for the first one’s migration, then find nothing to do', async () => {
    // The first step holds its transaction open until the other replica is seen waiting for the advisory lock
    // (at most 10 s), and cannot run twice: without the lock the second replica would fail on CREATE TABLE.
    const waiting = `EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
    const steps: Migration[] = [
      {
        name: 'step held open',
        sql: `DO $$ BEGIN
                FOR i IN 1..500 LOOP EXIT WHEN ${waiting}; PERFORM pg_sleep(0.02); END LOOP;
              END $$;
              CREATE TABLE made_once AS SELECT ${waiting} AS other_replica_waited`,
      },
      { name: 'second step', sql: 'ALTER TABLE made_once ADD COLUMN n INTEGER NOT NULL DEFAULT 1' },
    ];
    const url = await server.createDatabase();
    const [a, b] = [await newPool(url), await newPool(url)];
    const logger = recordingLogger();
    const results = await Promise.all([
      migratePostgres(a, { logger, migrations: steps }),
      migratePostgres(b, { logger, migrations: steps }),
    ]);
    expect(results).toEqual([2, 2]);
    expect(migrated(logger.lines).map((l) => (l.obj as { schemaVersion: number }).schemaVersion)).toEqual([
      1, 2,
    ]);
    expect((await a.query('SELECT other_replica_waited, n FROM made_once')).rows).toEqual([
      { other_replica_waited: true, n: 1 },
    ]);
    expect(await versions(a)).toEqual([
      { version: 1, name: 'step held open' },
      { version: 2, name: 'second step' },
    ]);
    expect(MIGRATION_LOCK_KEY).toBe(String(BigInt(`0x${Buffer.from('reelbot').toString('hex')}`)));
  });

  it('refuses a database migrated by a newer reelbot with one sentence, changing nothing', async () => {
    const pool = await newPool();
    await migratePostgres(pool, { logger: recordingLogger() });
    const newer = POSTGRES_SCHEMA_VERSION + 3;
    await pool.query("INSERT INTO schema_version (version, name) VALUES ($1, 'from the future')", [newer]);
    const before = { tables: await tables(pool), versions: await versions(pool) };

    const logger = recordingLogger();
    const error = await migratePostgres(pool, { logger, location: 'postgres://db.example/reelbot' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SchemaTooNewError);
    const message = (error as Error).message;
    expect(message).toBe(
      `The PostgreSQL database postgres://db.example/reelbot has schema version ${newer}, but this reelbot only knows up ` +
        `to ${POSTGRES_SCHEMA_VERSION}: it was migrated by a newer reelbot, so run that newer version (or ` +
        'restore a backup).',
    );
    expect(migrated(logger.lines)).toEqual([]);
    expect({ tables: await tables(pool), versions: await versions(pool) }).toEqual(before);
  });

  it('refuses a newer version on a database holding nothing else, without creating a table', async () => {
    const pool = await newPool();
    await pool.query('CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    await pool.query("INSERT INTO schema_version VALUES (99, 'from the future')");
    const error = await migratePostgres(pool, { logger: recordingLogger() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaTooNewError);
    // Without a location, the database is named by host, port and name: never the credentials.
    expect((error as Error).message).toMatch(
      new RegExp(
        `^The PostgreSQL database postgres://127\\.0\\.0\\.1:${server.port}/${databaseOf(pool)} has schema version 99,`,
      ),
    );
    expect((error as Error).message.match(/\.(\s|$)/g)).toHaveLength(1);
    expect(await tables(pool)).toEqual(['schema_version']);
  });
});
