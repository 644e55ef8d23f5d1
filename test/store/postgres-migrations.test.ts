/**
 * The PostgreSQL schema and its migrations, against a real server (test/support/postgres.ts): the
 * tables, keys and indexes of the SQLite schema, migrated once by replicas starting together, a newer schema
 * refused, rows shaped like the store's accepted, and the prefix ranges served by the primary key in byte order.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate as migrateSqlite, SchemaTooNewError } from '../../src/store/migrations.js';
import {
  MIGRATION_LOCK_KEY,
  migratePostgres,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
  type PostgresMigration,
} from '../../src/store/postgres/migrations.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { type LogLine, recordingLogger, T0 } from './helpers.js';

let server: TestPostgres;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres();
  console.info(`PostgreSQL test cluster started in ${server.startMs} ms on port ${server.port}`);
});
afterAll(async () => {
  await server?.stop();
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

/** A pool on `url`, or on a new database of the test cluster. */
async function newPool(url?: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url ?? (await server.createDatabase()), max: 3 });
  pools.push(pool);
  return pool;
}

const databaseOf = (pool: pg.Pool) => new URL(pool.options.connectionString!).pathname.slice(1);

/** Each step's line (debug); the default level sees one 'store migrated' line per start that migrated. */
const migrated = (lines: LogLine[]) => lines.filter((l) => l.msg === 'store migration applied');

async function versions(pool: pg.Pool): Promise<{ version: number; name: string }[]> {
  return (await pool.query('SELECT version, name FROM schema_version ORDER BY version')).rows;
}

async function tables(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ t: string }>(
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  return rows.map((r) => r.t);
}

/** Per table: its columns, unique keys (primary key included) and other indexes, as comparable strings. */
interface Shape {
  columns: Record<string, string[]>;
  unique: string[];
  indexes: string[];
}

/**
 * Tables only the PostgreSQL schema has, with their columns: they coordinate several replicas, which one SQLite
 * process never needs (it is always its own leader). `leases`: the leader lease (postgres/leader-lease.ts);
 * `replicas`: the replica registry and each replica's bound on the rate limits (src/replicas/).
 */
const POSTGRES_ONLY: Record<string, string[]> = {
  leases: ['name', 'holder', 'term', 'expires_at', 'acquired_at'],
  replicas: ['id', 'started_at', 'heartbeat_at', 'left_at', 'bound'],
};

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
    const steps: PostgresMigration[] = [
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

describe('PostgreSQL tables take the rows the store writes', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    // Its own pool (afterEach ends the shared ones).
    pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 2 });
    await migratePostgres(pool, { logger: recordingLogger() });
  });
  afterAll(async () => {
    await pool?.end();
  });

  const secret = {
    secret_key_id: 'k1',
    iv: Buffer.alloc(12, 1),
    tag: Buffer.alloc(16, 2),
    ciphertext: Buffer.from('x'),
  };

  it('one row per table, as src/store/*.ts writes them', async () => {
    const q = (sql: string, params: unknown[]) => pool.query(sql, params);
    await q(
      `INSERT INTO linked_keys (user_address, secret_key_id, iv, tag, ciphertext, key_prefix, team_id, team_name,
         linked_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        'slack:T1:U1',
        secret.secret_key_id,
        secret.iv,
        secret.tag,
        secret.ciphertext,
        'rb_live_ab',
        't1',
        'Team',
        T0,
      ],
    );
    await q(
      `INSERT INTO user_prefs (user_address, time_zone) VALUES ($1, $2)
       ON CONFLICT (user_address) DO UPDATE SET time_zone = excluded.time_zone`,
      ['slack:T1:U1', 'Europe/Berlin'],
    );
    await q('INSERT INTO channel_settings (conversation, settings, updated_at) VALUES ($1, $2, $3)', [
      'slack:T1:C1',
      JSON.stringify({ approvals: 'required' }),
      T0,
    ]);
    await q(
      'INSERT INTO subscriptions (conversation, kind, target, owner, created_at) VALUES ($1, $2, $3, $4, $5)',
      ['slack:T1:C1', 'calendar', 'calendar:slack:T1:C1', 'slack:T1:U1', T0],
    );
    await q(
      `INSERT INTO watches (id, kind, target, owner, conversation, card_key, state, next_check_at, created_at,
         expires_at, status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        'w1',
        'video',
        'v1',
        'slack:T1:U1',
        'slack:T1:C1',
        'video:v1@slack:T1:C1',
        JSON.stringify({ p: 5 }),
        T0 + 12.5,
        T0,
        T0 + 3_600_000,
        'active',
      ],
    );
    const card = JSON.stringify({ title: 'Zebra\u0000', blocks: [{ b: 1, a: 2 }] });
    await q(
      `INSERT INTO cards (key, conversation, message, card, model, updated_at)
       VALUES ($1, $2, NULL, $3, coalesce($4::json, '{}'), $5)
       ON CONFLICT (key) DO UPDATE SET card = excluded.card, model = coalesce($4::json, cards.model) RETURNING *`,
      ['video:v1@slack:T1:C1', 'slack:T1:C1', card, null, T0],
    );
    await q('INSERT INTO card_states (subject, model, updated_at) VALUES ($1, $2, $3)', [
      'video:v1',
      JSON.stringify({ percent: 40 }),
      T0,
    ]);
    const outbox = await q(
      `INSERT INTO outbox (platform, dedupe_key, item, not_before, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
      [
        'slack',
        'card:video:v1@slack:T1:C1:done',
        JSON.stringify({ op: 'update-card', cardKey: 'video:v1@slack:T1:C1' }),
        T0,
        T0,
      ],
    );
    expect(outbox.rowCount).toBe(1);
    await q('INSERT INTO idempotency_keys (action, key, created_at) VALUES ($1, $2, $3)', [
      'create:abc',
      'idem-1',
      T0,
    ]);
    await q(
      `INSERT INTO approvals (id, conversation, requester, action, status, card_key, decided_by, decided_at, reason,
         created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, NULL, $7, $8)`,
      [
        'a1',
        'slack:T1:C1',
        'slack:T1:U1',
        JSON.stringify({ kind: 'publish', videoId: 'v1' }),
        'pending',
        'approval:a1',
        T0,
        T0 + 60_000,
      ],
    );
    await q(
      `INSERT INTO audit (at, conversation, actor, action, video_id, series_id, credits, details)
       VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)`,
      [T0, 'slack:T1:C1', 'slack:T1:U1', 'publish', 'v1', 2.5, JSON.stringify({ platform: 'tiktok' })],
    );
    await q(
      'INSERT INTO installations (id, secret_key_id, iv, tag, ciphertext, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
      ['slack:T1', secret.secret_key_id, secret.iv, secret.tag, secret.ciphertext, T0],
    );
    await q(
      'INSERT INTO chat_deliveries (dedupe_id, conversation, message, started_at) VALUES ($1, $2, NULL, $3)',
      ['d1', 'slack:T1:C1', T0],
    );
    await q('INSERT INTO workspace_policies (workspace, policy, updated_at) VALUES ($1, $2, $3)', [
      'slack:T1',
      JSON.stringify({ spendLimit: 100 }),
      T0,
    ]);
    await q(
      `INSERT INTO pending_effects (idempotency_key, command, args, request, created_at, next_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (idempotency_key) DO UPDATE SET next_at = greatest(pending_effects.next_at, excluded.next_at)`,
      [
        'idem-1',
        'create',
        JSON.stringify({ prompt: 'a cat' }),
        JSON.stringify({ conversation: 'slack:T1:C1' }),
        T0,
        T0,
      ],
    );
    await q(
      `INSERT INTO interaction_state (id, value, sealed, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET value = excluded.value, sealed = excluded.sealed,
         expires_at = excluded.expires_at`,
      ['discord:form:k1', JSON.stringify({ id: 'series.create' }), 0, T0 + 3_600_000],
    );

    // Every table of the schema got its row (the PostgreSQL-only ones are written by their own suites:
    // leases by postgres-leader-lease.test.ts).
    const written = (t: string) => t !== 'schema_version' && !(t in POSTGRES_ONLY);
    for (const table of (await tables(pool)).filter(written)) {
      expect({
        table,
        rows: (await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n,
      }).toEqual({
        table,
        rows: 1,
      });
    }

    // Times round-trip as the same JS numbers, fractions included (the Store contract), and come back as numbers.
    const watch = (await pool.query('SELECT next_check_at, state FROM watches WHERE id = $1', ['w1']))
      .rows[0];
    expect(watch).toEqual({ next_check_at: T0 + 12.5, state: { p: 5 } });
    // JSON comes back as the very text written (key order, the \u0000 escape), which jsonb would not keep.
    const stored = (await pool.query('SELECT card::text AS card FROM cards')).rows[0].card;
    expect(stored).toBe(card);
    await expect(pool.query('SELECT $1::jsonb', [card])).rejects.toThrow(/unsupported Unicode escape/);
    // The queries that look inside JSON work on json.
    expect(
      (await pool.query("SELECT id FROM outbox WHERE item ->> 'cardKey' = $1", ['video:v1@slack:T1:C1']))
        .rowCount,
    ).toBe(1);
    // BYTEA takes and gives Buffers.
    expect((await pool.query('SELECT iv FROM linked_keys')).rows[0].iv).toEqual(secret.iv);
  });

  it('rejects a duplicate dedupe key at the database, whichever replica enqueues it', async () => {
    const enqueue = (client: pg.Pool, conflict: string) =>
      client.query(
        `INSERT INTO outbox (platform, dedupe_key, item, not_before, created_at) VALUES ('slack', 'dup', '{}', $1, $1)
         ${conflict}`,
        [T0],
      );
    await enqueue(pool, '');
    const other = await newPool(pool.options.connectionString);
    await expect(enqueue(other, '')).rejects.toMatchObject({
      code: '23505',
      constraint: 'outbox_dedupe_key',
    });
    expect((await enqueue(other, 'ON CONFLICT (dedupe_key) DO NOTHING')).rowCount).toBe(0);
    expect(
      (await pool.query("SELECT count(*)::int AS n FROM outbox WHERE dedupe_key = 'dup'")).rows[0].n,
    ).toBe(1);
  });

  it('enforces the checks SQLite enforces', async () => {
    await expect(
      pool.query(
        `INSERT INTO watches (id, kind, target, owner, conversation, state, next_check_at, created_at, expires_at,
           status) VALUES ('w-bad', 'video', 'v', 'o', 'c', '{}', 0, 0, 0, 'sleeping')`,
      ),
    ).rejects.toMatchObject({ code: '23514' });
    await expect(
      pool.query(
        "INSERT INTO channel_settings (conversation, settings, updated_at) VALUES ('c', 'not json', 0)",
      ),
    ).rejects.toMatchObject({ code: '22P02' });
  });
});

describe('prefix ranges on PostgreSQL', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await server.createDatabase(), max: 2 });
    await migratePostgres(pool, { logger: recordingLogger() });
    // Enough cards for the planner to prefer the index on its own; the ones the tests look for among them.
    await pool.query(
      `INSERT INTO cards (key, conversation, card, updated_at)
       SELECT 'video:n' || n || '@slack:T9:C' || (n % 7), 'slack:T9:C' || (n % 7), '{}', $1
       FROM generate_series(1, 5000) n`,
      [T0],
    );
    for (const key of [
      'video:V1@slack:T1:C2',
      'video:V1@slack:T1:C1',
      'video:v1@slack:T1:C1',
      'video:V1A@slack:T1:C1',
      'video:V10@slack:T1:C1',
      'video:V1@discord:G1:C1',
    ]) {
      await pool.query("INSERT INTO cards (key, conversation, card, updated_at) VALUES ($1, 'c', '{}', $2)", [
        key,
        T0,
      ]);
    }
    await pool.query('ANALYZE cards');
  });
  afterAll(async () => {
    await pool?.end();
  });

  const WITH_PREFIX = 'SELECT key FROM cards WHERE key >= $1 AND key < $2 ORDER BY key';
  const prefix = 'video:V1@';
  const range = [prefix, `${prefix}\u{10ffff}`];

  it('finds a video’s cards in byte order, exactly, whatever the database’s collation', async () => {
    const { rows } = await pool.query<{ key: string }>(WITH_PREFIX, range);
    expect(rows.map((r) => r.key)).toEqual([
      'video:V1@discord:G1:C1',
      'video:V1@slack:T1:C1',
      'video:V1@slack:T1:C2',
    ]);
    // The same range in the database's default collation (ICU en-US here) also takes the lowercase 'v1'.
    const collation = (
      await pool.query('SELECT daticulocale FROM pg_database WHERE datname = current_database()')
    ).rows[0].daticulocale;
    if (collation !== null) {
      const loose = await pool.query<{ key: string }>(
        'SELECT key FROM cards WHERE key COLLATE "default" >= $1 AND key COLLATE "default" < $2',
        range,
      );
      expect(loose.rows.map((r) => r.key)).toContain('video:v1@slack:T1:C1');
    }
  });

  it('serves that range with an index scan on the primary key', async () => {
    const client = await pool.connect();
    try {
      await client.query(`PREPARE with_prefix(text, text) AS ${WITH_PREFIX}`);
      const plan = (await client.query(`EXPLAIN EXECUTE with_prefix('${range[0]}', '${range[1]}')`)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/^Index (Only )?Scan using cards_pkey on cards/);
      expect(plan).not.toMatch(/Seq Scan|Sort/);
    } finally {
      client.release();
    }
  });

  it('scopes a workspace range to that workspace, and drops a card state with its last card', async () => {
    const subscriptions = [
      ['slack:T1:C1', 'slack:T1:U1'],
      ['slack:t1:C1', 'slack:t1:U1'],
      ['slack:T10:C1', 'slack:T10:U1'],
      ['slack:T1:C2', 'slack:T1:U1'],
    ];
    for (const [conversation, owner] of subscriptions) {
      await pool.query(
        "INSERT INTO subscriptions (conversation, kind, target, owner, created_at) VALUES ($1, 'videos', 't', $2, $3)",
        [conversation, owner, T0],
      );
    }
    const inWorkspace = await pool.query<{ conversation: string }>(
      'SELECT conversation FROM subscriptions WHERE conversation > $1 AND conversation < $2 ORDER BY conversation',
      ['slack:T1:', 'slack:T1;'],
    );
    expect(inWorkspace.rows.map((r) => r.conversation)).toEqual(['slack:T1:C1', 'slack:T1:C2']);

    // The purge's card-state statement, as SQLite runs it: only states with no card left go.
    await pool.query(
      "INSERT INTO card_states (subject, model, updated_at) VALUES ('video:V1', '{}', $1), ('video:gone', '{}', $1)",
      [T0],
    );
    const purged = await pool.query(
      `DELETE FROM card_states WHERE NOT EXISTS (SELECT 1 FROM cards
         WHERE cards.key > card_states.subject || '@' AND cards.key < card_states.subject || 'A') RETURNING subject`,
    );
    expect(purged.rows).toEqual([{ subject: 'video:gone' }]);
  });
});
