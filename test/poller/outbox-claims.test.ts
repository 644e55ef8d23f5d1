/**
 * Two outbox senders on one database (two processes on one data directory, or replicas sharing a database)
 * deliver every row once: each claims a row just before sending it. Real SQLite, one file, two
 * connections, as two processes would have.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editCard, notifyUser, postCard, replyToCard } from '../../src/core/live/live-card.js';
import type { ChatSender, MessageAddress } from '../../src/core/ports/index.js';
import { DEFAULT_LEASE_MS, OutboxSender } from '../../src/poller/outbox-sender.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { ALICE, card, FakeChatSender, newSecretKey, recordingLogger, T0, tempDir } from './support.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let clock: TestClock;
let first: SqliteStore;
let second: SqliteStore;

beforeEach(() => {
  clock = new TestClock(T0);
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, 'reelbot.sqlite');
  const secretKey = newSecretKey();
  first = openStore({ path, secretKey, clock });
  second = openStore({ path, secretKey, clock });
  cleanups.push(
    () => first.close(),
    () => second.close(),
  );
});

/**
 * The platform as one sender reaches it: one recorder shared by both, each call answered after a few turns
 * of the event loop (varying, so the two senders interleave); `made` counts this sender's calls.
 */
function slowly(platform: FakeChatSender): ChatSender & { made: number } {
  let n = 0;
  const pause = async () => {
    n++;
    for (let turn = 0; turn <= (n * 7) % 4; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    platform: 'slack',
    get made() {
      return n;
    },
    post: async (...args) => {
      await pause();
      return platform.post(...args);
    },
    update: async (...args) => {
      await pause();
      return platform.update(...args);
    },
    notify: async (...args) => {
      await pause();
      return platform.notify?.(...args);
    },
  };
}

/** A sender that died in the middle of a call: the call never returns. */
function hung(): ChatSender & { calls: number } {
  const sender = {
    platform: 'slack' as const,
    calls: 0,
    post: () => {
      sender.calls++;
      return new Promise<MessageAddress>(() => {});
    },
    update: () => new Promise<void>(() => {}),
  };
  return sender;
}

function outboxSender(store: SqliteStore, chat: ChatSender): OutboxSender {
  return new OutboxSender({
    store,
    senders: { slack: chat },
    clock,
    logger: recordingLogger(),
    random: () => 0.5,
  });
}

const count = (list: string[], item: string) => list.filter((x) => x === item).length;

describe('two outbox senders on one database', () => {
  it('deliver every row exactly once, replies threaded under their card', async () => {
    const cards = 24;
    await first.transaction(async () => {
      for (let i = 0; i < cards; i++) {
        const key = `c${i}`;
        const conversation = `slack:T1:C${i % 5}`;
        await postCard(first, { key, conversation, card: card(`card ${i}`) });
        await editCard(first, key, { card: card(`card ${i}`, 'edited'), dedupeKey: `${key}:edit` });
        await replyToCard(first, {
          key,
          card: card(`reply ${i}`),
          dedupeKey: `${key}:reply`,
          threaded: true,
        });
        await notifyUser(first, {
          user: ALICE,
          conversation,
          card: card(`notice ${i}`),
          dedupeKey: `${key}:notice`,
        });
      }
    });
    const platform = new FakeChatSender('slack', clock);
    const [toA, toB] = [slowly(platform), slowly(platform)];
    const a = outboxSender(first, toA);
    const b = outboxSender(second, toB);

    for (let round = 0; round < 10 && (await first.outbox.depth()) > 0; round++) {
      await Promise.all([a.drain(), b.drain(), b.drain(), a.drain()]);
    }

    expect(await first.outbox.depth()).toBe(0);
    const sent = platform.titles();
    for (let i = 0; i < cards; i++) {
      expect(count(sent, `post:card ${i}`), `card ${i}`).toBe(1);
      expect(count(sent, `post:reply ${i}`), `reply ${i}`).toBe(1);
      expect(count(sent, `notify:notice ${i}`), `notice ${i}`).toBe(1);
      const reply = platform.calls.find((c) => c.card.title === `reply ${i}`);
      expect(reply?.kind === 'post' && reply.threadOf).toBe((await second.cards.get(`c${i}`))?.message);
    }
    const posts = platform.calls.flatMap((c) => (c.kind === 'post' ? [c.dedupeId] : []));
    expect(new Set(posts).size).toBe(posts.length);
    // Both took part: the claims split the work rather than one sender doing it all.
    expect(toA.made).toBeGreaterThan(0);
    expect(toB.made).toBeGreaterThan(0);
    expect(await first.outbox.ready('slack', clock.now() + DEFAULT_LEASE_MS, 10)).toEqual([]);
  });

  it('a row whose sender died mid-send goes out once the lease has run out, with the same dedupe id', async () => {
    await first.transaction(async () => {
      await postCard(first, { key: 'a', conversation: 'slack:T1:C1', card: card('A') });
      await editCard(first, 'a', { card: card('A', 'later'), dedupeKey: 'a:later' });
    });
    const dead = hung();
    void outboxSender(first, dead).drain();
    await expect.poll(() => dead.calls).toBe(1);

    const platform = new FakeChatSender('slack', clock);
    const survivor = outboxSender(second, platform);
    await survivor.drain();
    expect(platform.titles()).toEqual([]);
    // The edit waits for the post; waiting claims nothing, so it is still ready as it was.
    expect((await second.outbox.ready('slack', clock.now(), 10)).map((item) => item.item.op)).toEqual([
      'update-card',
    ]);

    clock.advance(DEFAULT_LEASE_MS - 1);
    await survivor.drain();
    expect(platform.titles()).toEqual([]);

    clock.advance(1);
    await survivor.drain();
    expect(platform.titles()).toEqual(['post:A']);
    expect(platform.calls[0]?.kind === 'post' && platform.calls[0].dedupeId).toBe('outbox:1');
    expect(await second.outbox.depth()).toBe(0);
  });
});

describe('outbox.claim (SQLite)', () => {
  it('takes a ready row once, gives it back after the lease, never a finished or later row; fences stale claims', async () => {
    await first.transaction(async () => {
      await notifyUser(first, {
        user: ALICE,
        conversation: 'slack:T1:C1',
        card: card('one'),
        dedupeKey: 'one',
      });
      await notifyUser(first, {
        user: ALICE,
        conversation: 'slack:T1:C1',
        card: card('two'),
        dedupeKey: 'two',
      });
      await notifyUser(first, {
        user: ALICE,
        conversation: 'slack:T1:C1',
        card: card('three'),
        dedupeKey: 'three',
      });
    });
    const now = clock.now();
    // Each claim returns its fencing token: the row's claims counted.
    const firstClaim = await first.outbox.claim(1, now, 1000);
    expect(firstClaim).toBe(1);
    expect(await second.outbox.claim(1, now, 1000)).toBeUndefined();
    expect(await second.outbox.claim(1, now + 999, 1000)).toBeUndefined();
    const secondClaim = await second.outbox.claim(1, now + 1000, 1000);
    expect(secondClaim).toBe(2);
    // The first sender's claim was taken again: its retry and its done change nothing.
    await first.outbox.retry(1, now + 60_000, firstClaim);
    expect(await first.outbox.done(1, firstClaim)).toBe(false);
    expect(await second.outbox.done(1, secondClaim)).toBe(true);

    await first.outbox.done(2);
    expect(await second.outbox.claim(2, now, 1000)).toBeUndefined();
    await first.outbox.retry(3, now + 5000);
    expect(await second.outbox.claim(3, now, 1000)).toBeUndefined();
    expect(await second.outbox.claim(3, now + 5000, 1000)).toBe(1);
  });
});
