/** Prefix ranges on PostgreSQL: a video's cards found in byte order, whatever the collation, by an index scan. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/store/postgres/migrations.js';
import { recordingLogger, T0 } from './helpers.js';
import { onATestCluster, server } from './postgres-cluster.js';

onATestCluster();

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
