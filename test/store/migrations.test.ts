import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seal, secretKeyFingerprint } from '../../src/store/crypto.js';
import { MIGRATIONS, migrate, SCHEMA_VERSION, SchemaTooNewError } from '../../src/store/migrations.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { newSecretKey, recordingLogger, T0, tempDir } from './helpers.js';

describe('migrations and opening', () => {
  let dir: string;
  let cleanup: () => void;
  let path: string;
  const secretKey = newSecretKey();
  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    path = join(dir, 'db', 'reelbot.db');
  });
  afterEach(() => cleanup());

  const inspect = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(path);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };

  it('creates the schema once, then re-opens cleanly with the data intact', async () => {
    const logger = recordingLogger();
    const store = openStore({ path, secretKey, clock: new TestClock(T0), logger });
    expect(logger.lines.filter((l) => l.msg === 'store migration applied')).toHaveLength(SCHEMA_VERSION);
    // One line at the default level, whatever the number of steps.
    expect(logger.lines.filter((l) => l.level === 'info')).toEqual([
      {
        level: 'info',
        obj: { schemaVersion: SCHEMA_VERSION, applied: SCHEMA_VERSION },
        msg: 'store migrated',
      },
    ]);
    await store.users.setTimeZone('slack:T1:U1', 'Europe/Berlin');
    await store.outbox.enqueue('slack', { op: 'update-card', cardKey: 'c' }, 'k');
    await store.close();

    logger.lines.length = 0;
    const reopened = openStore({ path, secretKey, clock: new TestClock(T0), logger });
    expect(logger.lines.filter((l) => l.msg?.startsWith('store migrat'))).toEqual([]);
    expect(await reopened.users.getTimeZone('slack:T1:U1')).toBe('Europe/Berlin');
    expect(await reopened.outbox.enqueue('slack', { op: 'update-card', cardKey: 'c' }, 'k')).toBe(false);
    await reopened.close();

    expect(inspect((db) => db.pragma('user_version', { simple: true }))).toBe(SCHEMA_VERSION);
  });

  it('uses WAL for files and waits busyTimeoutMs for another writer', async () => {
    await openStore({ path, secretKey }).close();
    expect(inspect((db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');

    const store = openStore({ path, secretKey, busyTimeoutMs: 300 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    await expect(store.users.setTimeZone('slack:T1:U1', 'UTC')).rejects.toThrow(/locked|busy/i);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    other.exec('ROLLBACK');
    await store.users.setTimeZone('slack:T1:U1', 'UTC');
    other.close();
    await store.close();
  });

  it('shares one file between two connections', async () => {
    const a = openStore({ path, secretKey });
    const b = openStore({ path, secretKey });
    await a.users.setTimeZone('slack:T1:U1', 'UTC');
    expect(await b.users.getTimeZone('slack:T1:U1')).toBe('UTC');
    await a.close();
    await b.close();
  });

  it('refuses a database from a newer reelbot with a clear message, leaving it untouched', async () => {
    await openStore({ path, secretKey }).close();
    inspect((db) => db.pragma(`user_version = ${SCHEMA_VERSION + 3}`));
    expect(() => openStore({ path, secretKey })).toThrow(SchemaTooNewError);
    expect(() => openStore({ path, secretKey })).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 3}.*only knows up to ${SCHEMA_VERSION}.*newer reelbot`),
    );
    expect(inspect((db) => db.pragma('user_version', { simple: true }))).toBe(SCHEMA_VERSION + 3);
  });

  it('applies only the steps a database lacks, each with its version bump, and stops at a failing one', () => {
    const db = new Database(':memory:');
    const logger = recordingLogger();
    const steps = [
      { name: 'one', sql: 'CREATE TABLE a (x INTEGER);' },
      { name: 'two', sql: 'ALTER TABLE a ADD COLUMN y TEXT;' },
    ];
    migrate(db, { location: 'test', logger, migrations: steps.slice(0, 1) });
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    migrate(db, { location: 'test', logger, migrations: steps });
    migrate(db, { location: 'test', logger, migrations: steps });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(
      logger.lines
        .filter((l) => l.msg === 'store migration applied')
        .map((l) => (l.obj as { migration: string }).migration),
    ).toEqual(['one', 'two']);

    const broken = [...steps, { name: 'three', sql: 'CREATE TABLE b (x); CREATE TABLE a (x);' }];
    expect(() => migrate(db, { location: 'test', logger, migrations: broken })).toThrow(/already exists/);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('seeds each video card state from the newest of its cards when moving to one card per video', () => {
    const db = new Database(':memory:');
    const logger = recordingLogger();
    const before = MIGRATIONS.findIndex((m) => m.name === 'one card state per video');
    expect(before).toBeGreaterThan(0);
    migrate(db, { location: 'test', logger, migrations: MIGRATIONS.slice(0, before) });
    const card = db.prepare(
      "INSERT INTO cards (key, conversation, message, card, model, updated_at) VALUES (?, ?, NULL, '{}', ?, ?)",
    );
    card.run('video:v1@slack:T1:C1', 'slack:T1:C1', JSON.stringify({ videoId: 'v1', name: 'old' }), 1);
    card.run('video:v1@slack:T1:C2', 'slack:T1:C2', JSON.stringify({ videoId: 'v1', name: 'new' }), 2);
    card.run('series:s1@slack:T1:C1', 'slack:T1:C1', JSON.stringify({ seriesId: 's1' }), 3);
    // An id the service made with an '@' in it is cut where the conversation starts, not at its '@'.
    card.run('video:x@y@discord:@me:9', 'discord:@me:9', JSON.stringify({ videoId: 'x@y', name: 'at' }), 4);
    const watch = db.prepare(
      `INSERT INTO watches (id, kind, target, owner, conversation, card_key, state, next_check_at, created_at,
         expires_at, status) VALUES (?, 'generation', 'v1', 'slack:T1:U1', ?, ?, '{}', 0, ?, 99, 'active')`,
    );
    watch.run('w-old', 'slack:T1:C1', 'video:v1@slack:T1:C1', 1);
    watch.run('w-new', 'slack:T1:C2', 'video:v1@slack:T1:C2', 2);
    migrate(db, { location: 'test', logger });
    const states = db.prepare('SELECT subject, model FROM card_states ORDER BY subject').all();
    expect(states).toEqual([
      { subject: 'video:v1', model: JSON.stringify({ videoId: 'v1', name: 'new' }) },
      { subject: 'video:x@y', model: JSON.stringify({ videoId: 'x@y', name: 'at' }) },
    ]);
    // Each card keeps only what a projection keeps; a series card is left alone.
    const models = db.prepare('SELECT key, model FROM cards ORDER BY key').all();
    expect(models).toEqual([
      { key: 'series:s1@slack:T1:C1', model: JSON.stringify({ seriesId: 's1' }) },
      { key: 'video:v1@slack:T1:C1', model: JSON.stringify({ projectionOf: 'v1', since: 1 }) },
      { key: 'video:v1@slack:T1:C2', model: JSON.stringify({ projectionOf: 'v1', since: 2 }) },
      { key: 'video:x@y@discord:@me:9', model: JSON.stringify({ projectionOf: 'x@y', since: 4 }) },
    ]);
    // One watch per video: the oldest of the per-conversation watches goes on.
    expect(db.prepare('SELECT id, status FROM watches ORDER BY id').all()).toEqual([
      { id: 'w-new', status: 'done' },
      { id: 'w-old', status: 'active' },
    ]);
    db.close();
  });

  it('keeps a subscription from before filters unfiltered', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name === 'subscription filters');
    mkdirSync(dirname(path), { recursive: true });
    const old = new Database(path);
    migrate(old, { location: 'test', logger: recordingLogger(), migrations: MIGRATIONS.slice(0, before) });
    old
      .prepare(
        "INSERT INTO subscriptions (conversation, kind, target, owner, created_at) VALUES (?, 'calendar', '', ?, 5)",
      )
      .run('slack:T1:C1', 'slack:T1:U1');
    old.close();

    const store = openStore({ path, secretKey, clock: new TestClock(T0), logger: recordingLogger() });
    expect(await store.subscriptions.list('slack:T1:C1')).toEqual([
      { conversation: 'slack:T1:C1', kind: 'calendar', target: '', owner: 'slack:T1:U1', createdAt: 5 },
    ]);
    await store.close();
  });

  it('keeps every subscription, filters and all, through the digests migration', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name === 'digests');
    mkdirSync(dirname(path), { recursive: true });
    const old = new Database(path);
    migrate(old, { location: 'test', logger: recordingLogger(), migrations: MIGRATIONS.slice(0, before) });
    old
      .prepare(
        `INSERT INTO subscriptions (conversation, kind, target, owner, created_at, filters)
         VALUES (?, 'calendar', '', ?, 5, '{"platform":"tiktok"}'), (?, 'series', 'ser_1', ?, 6, NULL)`,
      )
      .run('slack:T1:C1', 'slack:T1:U1', 'slack:T1:C1', 'slack:T1:U2');
    old.close();

    const store = openStore({ path, secretKey, clock: new TestClock(T0), logger: recordingLogger() });
    expect(await store.subscriptions.list('slack:T1:C1')).toEqual([
      {
        conversation: 'slack:T1:C1',
        kind: 'calendar',
        target: '',
        owner: 'slack:T1:U1',
        createdAt: 5,
        filters: { platform: 'tiktok' },
      },
      { conversation: 'slack:T1:C1', kind: 'series', target: 'ser_1', owner: 'slack:T1:U2', createdAt: 6 },
    ]);
    const digest = {
      conversation: 'slack:T1:C1',
      kind: 'digest' as const,
      target: 'daily',
      owner: 'slack:T1:U1',
    };
    expect(await store.subscriptions.add({ ...digest, filters: { at: '09:00', zone: 'UTC' } })).toBe(true);
    await store.close();
  });

  it('keeps a pending approval from before stages pending at its one stage, and it can still be approved', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name === 'approval stages');
    mkdirSync(dirname(path), { recursive: true });
    const old = new Database(path);
    migrate(old, { location: 'test', logger: recordingLogger(), migrations: MIGRATIONS.slice(0, before) });
    old
      .prepare(
        `INSERT INTO approvals (id, conversation, requester, action, status, card_key, created_at, expires_at)
         VALUES ('apr_1', 'slack:T1:C1', 'slack:T1:U1', ?, 'pending', 'approval:apr_1', 5, 90)`,
      )
      .run(JSON.stringify({ command: 'publish', args: {}, idempotencyKey: 'k', summary: 'Publish' }));
    old.close();

    const store = openStore({ path, secretKey, clock: new TestClock(T0), logger: recordingLogger() });
    const approval = {
      id: 'apr_1',
      conversation: 'slack:T1:C1',
      requester: 'slack:T1:U1',
      action: { command: 'publish', args: {}, idempotencyKey: 'k', summary: 'Publish' },
      status: 'pending',
      cardKey: 'approval:apr_1',
      createdAt: 5,
      expiresAt: 90,
    };
    expect(await store.approvals.get('apr_1')).toStrictEqual(approval);
    expect((await store.approvals.pendingExpiring(90)).map((a) => a.id)).toEqual(['apr_1']);
    const vote = { round: 0, stage: 0, by: 'slack:T1:U2', covers: ['slack:T1:U2'], at: 10 };
    expect(await store.approvals.vote('apr_1', vote)).toBe(true);
    expect(await store.approvals.decide('apr_1', { status: 'approved', by: 'slack:T1:U2', at: 10 })).toBe(
      true,
    );
    expect(await store.approvals.get('apr_1')).toStrictEqual({
      ...approval,
      status: 'approved',
      decidedBy: 'slack:T1:U2',
      decidedAt: 10,
    });
    await store.close();
  });

  it('opens a file from before the user_address rename with its linked keys and preferences', async () => {
    // Schema version 7 ('watch leases'): linked_keys and user_prefs still name their key column `user`.
    const V7 = 7;
    mkdirSync(dirname(path), { recursive: true });
    const logger = recordingLogger();
    const old = new Database(path);
    migrate(old, { location: 'test', logger, migrations: MIGRATIONS.slice(0, V7) });
    const user = 'slack:T1:U1';
    const { iv, tag, ciphertext } = seal(secretKey, 'sk_live_old', user);
    old
      .prepare(
        `INSERT INTO linked_keys (user, secret_key_id, iv, tag, ciphertext, key_prefix, team_id, team_name, linked_at)
         VALUES (?, ?, ?, ?, ?, 'sk_live_o', 'team_1', 'Old Team', 5)`,
      )
      .run(user, secretKeyFingerprint(secretKey), iv, tag, ciphertext);
    old
      .prepare("INSERT INTO user_prefs (user, time_zone, last_video) VALUES (?, 'Europe/Berlin', 'vid_9')")
      .run(user);
    old.close();

    logger.lines.length = 0;
    const store = openStore({ path, secretKey, clock: new TestClock(T0), logger });
    expect(logger.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(await store.keys.get(user)).toEqual({
      apiKey: 'sk_live_old',
      keyPrefix: 'sk_live_o',
      teamId: 'team_1',
      teamName: 'Old Team',
      linkedAt: 5,
    });
    expect(await store.users.getTimeZone(user)).toBe('Europe/Berlin');
    expect(await store.users.getLast(user, 'video')).toBe('vid_9');
    await store.users.setLast(user, 'series', 'ser_1');
    expect(await store.users.getLast(user, 'series')).toBe('ser_1');
    expect(await store.purgeWorkspace({ workspaces: ['slack:T1'], installations: [] })).toMatchObject({
      linkedKeys: 1,
      userPrefs: 1,
    });
    await store.close();
    expect(inspect((db) => db.pragma('user_version', { simple: true }))).toBe(SCHEMA_VERSION);
  });

  it('has append-only, named steps', () => {
    expect(MIGRATIONS.length).toBe(SCHEMA_VERSION);
    for (const step of MIGRATIONS) expect(step.name).not.toBe('');
  });

  it('rejects a secret key of the wrong size', () => {
    expect(() => openStore({ path: ':memory:', secretKey: Buffer.alloc(16) })).toThrow(/32 bytes/);
  });

  it('serves due watches and ready outbox items from their indexes', async () => {
    await openStore({ path, secretKey }).close();
    const plan = (sql: string) =>
      inspect((db) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
          .map((r) => r.detail)
          .join('; '),
      );
    expect(
      plan(
        "SELECT * FROM watches WHERE status = 'active' AND next_check_at <= 5 ORDER BY next_check_at LIMIT 10",
      ),
    ).toMatch(/USING INDEX watches_due/);
    expect(
      plan(
        "SELECT * FROM outbox WHERE platform = 'slack' AND status = 'pending' AND not_before <= 5 ORDER BY id",
      ),
    ).toMatch(/USING INDEX outbox_pending/);
  });
});
