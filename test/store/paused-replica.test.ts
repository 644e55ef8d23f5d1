/**
 * A replica paused inside a transaction holds nobody up: no lock spans replicas, the server ends
 * the paused replica's idle transaction after half the timeout, so another replica's transaction on the very
 * same row finishes within the lock timeout; and the paused replica's commit, once it runs again, is refused
 * by its claim's fencing token because the watch was claimed by another replica meanwhile. A real child
 * process stopped with SIGSTOP, on a real PostgreSQL server.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../src/core/time/system-clock.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { newSecretKey } from './helpers.js';

const TIMEOUT_MS = 1_000;
const LEASE_MS = 2_000;

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

it('another replica commits within the lock timeout, and the paused one’s late commit is refused', async () => {
  const url = await pg.createDatabase();
  const secretKey = newSecretKey();
  const other = await openPostgresStore({ url, secretKey, timeoutMs: TIMEOUT_MS });
  const child = fork(join(import.meta.dirname, 'support/paused-replica.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: unknown[] = [];
  child.on('message', (m) => messages.push(m));
  try {
    const now = systemClock.now();
    await other.watches.add({
      id: 'w1',
      kind: 'generation',
      target: 'v1',
      owner: 'slack:T1:U1',
      conversation: 'slack:T1:C1',
      cardKey: null,
      state: {},
      nextCheckAt: now - 1,
      expiresAt: now + 3_600_000,
    });
    child.send({
      url,
      secretKey: secretKey.toString('base64'),
      watchId: 'w1',
      leaseMs: LEASE_MS,
      timeoutMs: TIMEOUT_MS,
    });
    await expect.poll(() => messages, { timeout: 20_000 }).toContain('in-transaction');
    child.kill('SIGSTOP');

    const started = performance.now();
    await other.transaction((tx) => tx.watches.update('w1', { state: { by: 'B' } }));
    const waited = performance.now() - started;
    // It did wait for the paused replica's row lock (until the server ended that transaction), but no longer
    // than the lock timeout (+1 s of slack for a loaded machine).
    expect(waited).toBeLessThan(TIMEOUT_MS + 1_000);

    // The paused replica's claim lapses by the database's clock; this replica takes the watch over.
    let claimed = false;
    for (let i = 0; i < 100 && !claimed; i++) {
      const t = systemClock.now();
      claimed =
        (await other.watches.claim(['w1'], { holder: 'B', now: t, until: t + LEASE_MS })).length === 1;
      if (!claimed) await new Promise((r) => setTimeout(r, 100)); // real-time-ok: a real lease on a real server
    }
    expect(claimed).toBe(true);

    child.kill('SIGCONT');
    child.send('continue');
    await expect.poll(() => messages.length, { timeout: 20_000 }).toBe(2);
    const report = messages[1] as { first: string; retry: string };
    // Its transaction was ended by the server while it was stopped; its retry holds a stale token.
    expect(report.first).toMatch(/^failed/);
    expect(report.retry).toBe('refused');
    expect((await other.watches.get('w1'))?.state).toEqual({ by: 'B' });
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await other.close();
  }
}, 60_000);
