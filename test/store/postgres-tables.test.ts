/** PostgreSQL's tables take the rows the store writes, one per table, with SQLite's keys and checks enforced. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/store/postgres/migrations.js';
import { recordingLogger, T0 } from './helpers.js';
import { newPool, onATestCluster, POSTGRES_ONLY, server, tables } from './postgres-cluster.js';

onATestCluster();

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
      `INSERT INTO approval_votes (approval_id, round, stage, voter, covers, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (approval_id, round, stage, voter) DO NOTHING`,
      ['a1', 0, 0, 'slack:T1:U2', JSON.stringify(['slack:T1:U2']), T0 + 5],
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
    await q(
      `INSERT INTO digests_sent (conversation, kind, period, sent_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (conversation, kind, period) DO NOTHING`,
      ['slack:T1:C1', 'daily', '2026-11-30', T0],
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
