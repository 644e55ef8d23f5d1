/** The data directory and the database files are private to the bot's user: 0700 and 0600. */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite-store.js';
import { newSecretKey, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

it('creates the data directory 0700 and the database, WAL and shared-memory files 0600', async () => {
  const dataDir = join(dir, 'data');
  const path = join(dataDir, 'reelbot.db');
  const store = openStore({ path, secretKey: newSecretKey() });
  await store.keys.put('slack:T1:U1', {
    apiKey: 'fl_live_modes',
    keyPrefix: 'fl_live_',
    teamId: 't',
    teamName: 'T',
  });
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    expect(existsSync(file), file).toBe(true);
    expect(statSync(file).mode & 0o777, file).toBe(0o600);
  }
  await store.close();
});
