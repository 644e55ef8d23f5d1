/**
 * One process per data directory: a second reelbot on the same SQLite files would deliver every
 * notification twice. The lock is a file holding the owner's pid, created exclusively; a lock left by a
 * process that no longer exists (killed, machine restarted) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'reelbot.lock';

/** Locks this process holds: a file naming our own pid is ours only if we took it (a container's pid 1 recurs). */
const held = new Set<string>();

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function create(file: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the data directory for this process, or throws one sentence naming the other one. */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (create(file)) {
      held.add(file);
      return {
        release() {
          held.delete(file);
          if (ownerOf(file) === process.pid) rmSync(file, { force: true });
        },
      };
    }
    const owner = ownerOf(file);
    const ours = owner === process.pid && held.has(file);
    if (owner !== undefined && (ours || (owner !== process.pid && alive(owner)))) {
      throw new DataDirLockedError(
        `Another reelbot (pid ${owner}) is using REELBOT_DATA_DIR=${dataDir}: stop it first, or give this one its own REELBOT_DATA_DIR.`,
      );
    }
    // Left by a process that is gone (or by an earlier process that had our pid): take it over.
    rmSync(file, { force: true });
  }
  throw new DataDirLockedError(
    `Could not lock REELBOT_DATA_DIR=${dataDir}: another process keeps taking it.`,
  );
}
