/** Linked API keys never reach the disk in clear, and a moved or altered row fails loudly. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoredKeyUnreadableError } from '../../src/core/ports/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { newSecretKey, recordingLogger, T0, tempDir } from './helpers.js';

const ALICE = 'slack:T1:U1';
const MALLORY = 'slack:T1:U666';
const API_KEY = 'fl_live_SECRET123abcdefghijklmnopqrstuvwxyz0123456789';
const LINK = { apiKey: API_KEY, keyPrefix: 'fl_live_SEC', teamId: 'team_1', teamName: 'Acme' };

describe('linked key secrecy', () => {
  let dir: string;
  let cleanup: () => void;
  let path: string;
  let secretKey: Buffer;
  let store: SqliteStore;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    path = join(dir, 'reelbot.db');
    secretKey = newSecretKey();
    store = openStore({ path, secretKey, clock: new TestClock(T0) });
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  /** Every byte SQLite wrote: the database, its WAL and shared-memory index. */
  const rawFiles = (): Buffer[] =>
    [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file)).map((file) => readFileSync(file));

  const expectNoPlaintext = (): void => {
    const files = rawFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const bytes of files) {
      for (const needle of [API_KEY, 'SECRET123', 'abcdefghijklmnopqrstuvwxyz']) {
        expect(bytes.includes(Buffer.from(needle, 'utf8'))).toBe(false);
        expect(bytes.includes(Buffer.from(needle, 'utf16le'))).toBe(false);
      }
    }
  };

  it('writes only ciphertext, in the WAL and after a checkpoint, and decrypts back', async () => {
    await store.keys.put(ALICE, LINK);
    expect(existsSync(`${path}-wal`)).toBe(true);
    expectNoPlaintext();
    // The display fields are meant to be in clear.
    expect(rawFiles().some((bytes) => bytes.includes(Buffer.from('fl_live_SEC')))).toBe(true);
    expect((await store.keys.get(ALICE))?.apiKey).toBe(API_KEY);

    await store.close();
    const raw = new Database(path);
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    expectNoPlaintext();

    store = openStore({ path, secretKey, clock: new TestClock(T0) });
    expect((await store.keys.get(ALICE))?.apiKey).toBe(API_KEY);
  });

  it('uses a fresh IV for every write', async () => {
    await store.keys.put(ALICE, LINK);
    await store.keys.put(MALLORY, LINK);
    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare('SELECT iv, ciphertext FROM linked_keys').all() as {
      iv: Buffer;
      ciphertext: Buffer;
    }[];
    raw.close();
    expect(rows).toHaveLength(2);
    expect(rows[0]!.iv.length).toBe(12);
    expect(rows[0]!.iv.equals(rows[1]!.iv)).toBe(false);
    expect(rows[0]!.ciphertext.equals(rows[1]!.ciphertext)).toBe(false);
  });

  /** Edits the stored row through a second connection, as an attacker with the file would. */
  const tamper = (sql: string, ...params: unknown[]): void => {
    const raw = new Database(path);
    raw.prepare(sql).run(...params);
    raw.close();
  };

  const expectUnreadable = async (user: string, reason: RegExp): Promise<void> => {
    let thrown: unknown;
    try {
      await store.keys.get(user);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StoredKeyUnreadableError);
    const error = thrown as StoredKeyUnreadableError;
    expect(error.code).toBe('stored_key_unreadable');
    expect(error.user).toBe(user);
    expect(error.message).toContain(user);
    expect(error.message).not.toContain(API_KEY);
    expect(String((error.cause as Error).message)).toMatch(reason);
  };

  it('refuses a ciphertext with a flipped bit', async () => {
    await store.keys.put(ALICE, LINK);
    const raw = new Database(path);
    const { ciphertext } = raw
      .prepare('SELECT ciphertext FROM linked_keys WHERE user_address = ?')
      .get(ALICE) as {
      ciphertext: Buffer;
    };
    ciphertext[0]! ^= 1;
    raw.prepare('UPDATE linked_keys SET ciphertext = ? WHERE user_address = ?').run(ciphertext, ALICE);
    raw.close();
    await expectUnreadable(ALICE, /altered or copied/);
  });

  it('refuses an altered tag or IV', async () => {
    await store.keys.put(ALICE, LINK);
    tamper('UPDATE linked_keys SET tag = zeroblob(16) WHERE user_address = ?', ALICE);
    await expectUnreadable(ALICE, /altered or copied/);
    await store.keys.put(ALICE, LINK);
    tamper('UPDATE linked_keys SET iv = zeroblob(12) WHERE user_address = ?', ALICE);
    await expectUnreadable(ALICE, /altered or copied/);
  });

  it('refuses a row copied to another user', async () => {
    await store.keys.put(ALICE, LINK);
    tamper(
      `INSERT INTO linked_keys (user_address, secret_key_id, iv, tag, ciphertext, key_prefix, team_id, team_name, linked_at)
       SELECT ?, secret_key_id, iv, tag, ciphertext, key_prefix, team_id, team_name, linked_at
       FROM linked_keys WHERE user_address = ?`,
      MALLORY,
      ALICE,
    );
    await expectUnreadable(MALLORY, /altered or copied/);
    expect((await store.keys.get(ALICE))?.apiKey).toBe(API_KEY);
  });

  it('refuses keys under another secret key, says so at open, and heals on re-link', async () => {
    await store.keys.put(ALICE, LINK);
    await store.close();
    const logger = recordingLogger();
    store = openStore({ path, secretKey: newSecretKey(), clock: new TestClock(T0), logger });

    const errors = logger.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toMatch(/REELBOT_SECRET_KEY/);
    expect(errors[0]?.obj).toEqual({ unreadableLinkedKeys: 1 });
    await expectUnreadable(ALICE, /different secret key/);

    await store.keys.put(ALICE, LINK);
    expect((await store.keys.get(ALICE))?.apiKey).toBe(API_KEY);
    await store.close();
    logger.lines.length = 0;
    store = openStore({ path, secretKey: newSecretKey(), clock: new TestClock(T0), logger });
    expect(logger.lines.filter((line) => line.level === 'error')).toHaveLength(1);
  });

  it('never logs the key', async () => {
    await store.close();
    const logger = recordingLogger();
    store = openStore({ path, secretKey, clock: new TestClock(T0), logger });
    await store.keys.put(ALICE, LINK);
    await store.keys.get(ALICE);
    expect(JSON.stringify(logger.lines)).not.toContain('SECRET123');
  });

  it('seals a sealed interaction value (an interaction token) at rest; another secret key reads nothing', async () => {
    const asked = { applicationId: 'app', token: `aW50ZXJhY3Rpb24${API_KEY}` };
    await store.interactions.put([{ key: 'discord:asked:x', value: asked, ttlMs: 60_000, sealed: true }]);
    expectNoPlaintext();
    expect(await store.interactions.get('discord:asked:x')).toEqual(asked);
    await store.close();
    store = openStore({ path, secretKey: newSecretKey(), clock: new TestClock(T0) });
    expect(await store.interactions.take('discord:asked:x')).toBeUndefined();
  });
});
