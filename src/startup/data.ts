/** The store the bot keeps its state in: PostgreSQL with DATABASE_URL, else SQLite in the locked data directory. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../core/ports/index.js';
import { lockDataDir } from '../store/data-dir-lock.js';
import { decodeSecretKey, loadSecretKey } from '../store/secret-key.js';
import { openStore } from '../store/sqlite-store.js';
import type { Startup } from './startup.js';

/** The SQLite store's files in the data directory. */
const SQLITE_FILES = ['reelbot.sqlite', 'reelbot.sqlite-wal', 'reelbot.sqlite-shm'];

/**
 * The store: PostgreSQL when `DATABASE_URL` is set (several replicas share it), else SQLite in the data
 * directory, locked for this process.
 */
export async function openData(s: Startup): Promise<Store> {
  const url = s.config.DATABASE_URL;
  if (url) {
    // Loaded only here: `npm start` on SQLite never pays for the PostgreSQL driver (cold start).
    const { openPostgresStore } = await import('../store/postgres/postgres-store.js');
    const store = await openPostgresStore({
      url,
      secretKey: decodeSecretKey(s.config.REELBOT_SECRET_KEY as string) as Buffer,
      clock: s.clock,
      logger: s.logger,
      timeoutMs: s.config.DATABASE_TIMEOUT_MS,
    });
    s.teardown.push(() => store.close());
    s.logger.info({ store: 'postgres' }, 'store: PostgreSQL (DATABASE_URL)');
    return store;
  }
  const dir = s.config.REELBOT_DATA_DIR;
  const lock = lockDataDir(dir);
  s.teardown.push(() => lock.release());
  if (s.options.fresh) {
    for (const file of SQLITE_FILES) rmSync(join(dir, file), { force: true });
    s.logger.info({ dir }, 'starting the demo over (--fresh)');
  }
  const store = openStore({
    path: join(dir, 'reelbot.sqlite'),
    secretKey: loadSecretKey({
      env: s.config.REELBOT_SECRET_KEY,
      dataDir: dir,
      warn: (message) => s.logger.warn({}, message),
    }),
    clock: s.clock,
    logger: s.logger,
  });
  s.teardown.push(() => store.close());
  return store;
}
