/**
 * One process per data directory: a second `startApp` on the same REELBOT_DATA_DIR stops with one
 * sentence and leaves the first untouched; a lock left by a process that is gone is taken over.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../src/store/data-dir-lock.js';

let dataDir: string;
const apps: RunningApp[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'reelbot-lock-'));
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const env = () => ({ REELBOT_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });

it('refuses a second instance on the same data directory with one sentence', async () => {
  apps.push(await startApp(env()));
  const second = await startApp(env()).catch((e: unknown) => e);
  expect(second).toBeInstanceOf(DataDirLockedError);
  expect((second as Error).message).toBe(
    `Another reelbot (pid ${process.pid}) is using REELBOT_DATA_DIR=${dataDir}: stop it first, or give this one its own REELBOT_DATA_DIR.`,
  );
  // The first one still answers.
  const health = await fetch(`${apps[0]?.url}/healthz`);
  expect(health.status).toBe(200);
  // Stopped, it lets the next one in.
  await apps.pop()?.stop();
  expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  apps.push(await startApp(env()));
});

it('takes over a lock left by a process that is gone, or by an earlier process with this pid', () => {
  // A pid that existed and has exited: a finished child's.
  const gone = spawnSync(process.execPath, ['-e', '0']).pid as number;
  writeFileSync(join(dataDir, LOCK_FILE), `${gone}\n`);
  const lock = lockDataDir(dataDir);
  lock.release();
  expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  writeFileSync(join(dataDir, LOCK_FILE), `${process.pid}\n`);
  lockDataDir(dataDir).release();
});
