/**
 * The store pieces the Slack adapter added (migration 2): installations sealed at rest (bot tokens never in
 * clear, a row moved to another id or opened with another secret key fails), the post journal, and a
 * workspace's subscriptions for App Home. On a file, so the bytes on disk can be read.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';

let dir: string;
let path: string;
let store: SqliteStore;
const secretKey = randomBytes(32);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'reelbot-slack-store-'));
  path = join(dir, 'reelbot.sqlite');
  store = openStore({ path, secretKey });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const installation = JSON.stringify({ team: { id: 'T0002' }, bot: { token: 'xoxb-secret-bot-token-123' } });

describe('installations', () => {
  it('round-trips, replaces and deletes, never storing the token in clear', async () => {
    expect(await store.installations.get('slack-team:T0002')).toBeUndefined();
    await store.installations.put('slack-team:T0002', installation);
    expect(await store.installations.get('slack-team:T0002')).toBe(installation);
    await store.installations.put('slack-team:T0002', installation.replace('123', '456'));
    expect(await store.installations.get('slack-team:T0002')).toContain('456');
    await store.close();
    const bytes = ['reelbot.sqlite', 'reelbot.sqlite-wal']
      .map((f) => {
        try {
          return readFileSync(join(dir, f)).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(bytes).not.toContain('xoxb-secret-bot-token');
    store = openStore({ path, secretKey });
    expect(await store.installations.delete('slack-team:T0002')).toBe(true);
    expect(await store.installations.delete('slack-team:T0002')).toBe(false);
  });

  it('refuses a row moved to another id, or opened with another secret key', async () => {
    await store.installations.put('slack-team:T0002', installation);
    await store.close();
    const db = new Database(path);
    db.prepare("UPDATE installations SET id = 'slack-team:T0003'").run();
    db.close();
    store = openStore({ path, secretKey });
    await expect(store.installations.get('slack-team:T0003')).rejects.toThrow(
      /cannot be decrypted: the row was altered/,
    );
    await store.installations.put('slack-team:T0004', installation);
    await store.close();
    store = openStore({ path, secretKey: randomBytes(32) });
    await expect(store.installations.get('slack-team:T0004')).rejects.toThrow(/different secret key/);
  });
});

describe('post journal and workspace subscriptions', () => {
  it('records a post begun, then its message; a second begin keeps the first', async () => {
    await store.deliveries.begin('outbox:1', 'slack:T1:C1');
    expect(await store.deliveries.get('outbox:1')).toEqual({
      conversation: 'slack:T1:C1',
      startedAt: expect.any(Number),
    });
    await store.deliveries.begin('outbox:1', 'slack:T1:C2');
    await store.deliveries.finish('outbox:1', 'slack:T1:C1:1700000000.000100');
    expect(await store.deliveries.get('outbox:1')).toMatchObject({
      conversation: 'slack:T1:C1',
      message: 'slack:T1:C1:1700000000.000100',
    });
    expect(await store.deliveries.get('outbox:2')).toBeUndefined();
  });

  it('lists a workspace’s subscriptions across its channels only', async () => {
    await store.subscriptions.add({
      conversation: 'slack:T1:C2',
      kind: 'calendar',
      target: '',
      owner: 'slack:T1:U1',
    });
    await store.subscriptions.add({ conversation: 'slack:T1:C1', kind: 'videos', target: '', owner: '' });
    await store.subscriptions.add({ conversation: 'slack:T10:C1', kind: 'videos', target: '', owner: '' });
    await store.subscriptions.add({ conversation: 'discord:T1:C1', kind: 'videos', target: '', owner: '' });
    expect(
      (await store.subscriptions.inWorkspace('slack:T1')).map((s) => `${s.conversation} ${s.kind}`),
    ).toEqual(['slack:T1:C1 videos', 'slack:T1:C2 calendar']);
  });
});
