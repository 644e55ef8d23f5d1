/**
 * Claims that hold across replicas whose clocks disagree or that stall: on PostgreSQL the outbox's
 * and the watches' leases are timed by the database's clock, not the claiming replica's, and every claim
 * carries a fencing token, so a replica whose clock runs a minute ahead never takes a row another replica is
 * still sending, and a sender that stalled past its lease gives the row up instead of posting it.
 * Real PostgreSQL, two stores on one database as two replicas open it, each with its own clock.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notifyUser } from '../../src/core/live/live-card.js';
import type { Clock, MessageAddress } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { OutboxSender } from '../../src/poller/outbox-sender.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { ALICE, card, deferred, FakeChatSender, newSecretKey, recordingLogger } from './support.js';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

const opened: PostgresStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

/** The machine's clock, `offsetMs` off: a replica without NTP. */
const skewed = (offsetMs: number): Clock => ({
  now: () => systemClock.now() + offsetMs,
  sleep: (ms, signal) => systemClock.sleep(ms, signal),
  timer: (ms, signal) => systemClock.timer(ms, signal),
});

async function twoReplicas(clocks: [Clock, Clock]): Promise<[PostgresStore, PostgresStore]> {
  const url = await pg.createDatabase();
  const secretKey = newSecretKey();
  // Production's setting (the default with the system clock), kept for the skewed one too.
  const a = await openPostgresStore({ url, secretKey, clock: clocks[0], leaseClock: 'database' });
  const b = await openPostgresStore({ url, secretKey, clock: clocks[1], leaseClock: 'database' });
  opened.push(a, b);
  return [a, b];
}

const sender = (store: PostgresStore, chat: FakeChatSender | ReturnType<typeof stalling>, clock: Clock) =>
  new OutboxSender({
    store,
    senders: { slack: chat },
    clock,
    logger: recordingLogger(),
    random: () => 0.5,
  });

/** A platform whose first notice hangs until `release()`d (a slow send, or a replica paused mid-send). */
function stalling(platform: FakeChatSender) {
  const gate = deferred();
  let calls = 0;
  return {
    platform: 'slack' as const,
    get calls() {
      return calls;
    },
    release: () => gate.resolve(),
    post: async (...args: Parameters<FakeChatSender['post']>): Promise<MessageAddress> => {
      calls++;
      await gate.promise;
      return platform.post(...args);
    },
    update: (...args: Parameters<FakeChatSender['update']>) => platform.update(...args),
    notify: async (...args: Parameters<NonNullable<FakeChatSender['notify']>>) => {
      calls++;
      await gate.promise;
      await platform.notify?.(...args);
    },
  };
}

describe('outbox claims on PostgreSQL', () => {
  it('a replica whose clock runs 60 s ahead never takes a row another is still sending', async () => {
    const ahead = skewed(60_000);
    const [a, b] = await twoReplicas([systemClock, ahead]);
    await notifyUser(a, { user: ALICE, conversation: 'slack:T1:C1', card: card('hello'), dedupeKey: 'n1' });
    const platform = new FakeChatSender('slack');
    const slow = stalling(platform);
    const sending = sender(a, slow, systemClock).drain();
    await expect.poll(() => slow.calls).toBe(1);

    // By its own clock the row's 30 s lease ran out half a minute ago; by the database's it has just begun.
    await sender(b, platform, ahead).drain();
    expect(platform.calls).toEqual([]);

    slow.release();
    await sending;
    await sender(b, platform, ahead).drain();
    expect(platform.titles()).toEqual(['notify:hello']);
    expect(await b.outbox.depth()).toBe(0);
  });

  it('a replica whose clock runs 60 s behind still sends new rows at once', async () => {
    const behind = skewed(-60_000);
    const [a, b] = await twoReplicas([systemClock, behind]);
    // Enqueued by the replica that is ahead of the one sending: due by the database's clock, not later.
    await notifyUser(a, { user: ALICE, conversation: 'slack:T1:C1', card: card('now'), dedupeKey: 'n1' });
    const platform = new FakeChatSender('slack');
    await sender(b, platform, behind).drain();
    expect(platform.titles()).toEqual(['notify:now']);
  });
});
