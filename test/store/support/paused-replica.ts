/**
 * A replica that gets paused inside a transaction (test/store/paused-replica.test.ts), as a child process: it
 * claims a watch, opens a transaction that writes the watch's row, says so and waits for the test (which
 * SIGSTOPs it there), then finishes that transaction and, as its poller would after a failed commit, tries to
 * commit its result again under the same claim. It reports how each went.
 */
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';

interface Start {
  url: string;
  secretKey: string;
  watchId: string;
  leaseMs: number;
  timeoutMs: number;
}

const send = (message: unknown) => process.send?.(message);
const next = (): Promise<unknown> => new Promise((resolve) => process.once('message', resolve));

const start = (await next()) as Start;
const store = await openPostgresStore({
  url: start.url,
  secretKey: Buffer.from(start.secretKey, 'base64'),
  timeoutMs: start.timeoutMs,
});
const now = Date.now();
const [watch] = await store.watches.claim([start.watchId], { holder: 'A', now, until: now + start.leaseMs });
if (!watch?.lease) throw new Error('the paused replica could not claim its watch');
const lease = watch.lease;

const outcome = (error: unknown) =>
  `failed: ${(error as { code?: string }).code ?? (error as Error).message}`;
let first: string;
try {
  first = await store.transaction(async (tx) => {
    if (!(await tx.watches.release(start.watchId, lease))) return 'refused';
    await tx.watches.update(start.watchId, { state: { by: 'A, first try' } });
    send('in-transaction');
    await next(); // SIGSTOPped here, holding the row
    await tx.watches.update(start.watchId, { nextCheckAt: now + 60_000 });
    return 'committed';
  });
} catch (error) {
  first = outcome(error);
}
let retry: string;
try {
  retry = await store.transaction(async (tx) => {
    if (!(await tx.watches.release(start.watchId, lease))) return 'refused';
    await tx.watches.update(start.watchId, { state: { by: 'A, retried' } });
    return 'committed';
  });
} catch (error) {
  retry = outcome(error);
}
send({ first, retry });
await store.close();
process.disconnect?.();
