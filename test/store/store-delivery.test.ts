/**
 * The `Store` contract (delivery: the outbox and idempotency), run against real SQLite (in memory, in a temp file)
 * and a real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../src/core/ports/index.js';
import { CHANNEL, card, HOUR, reply, T0 } from './helpers.js';
import { clock, store, storeContract } from './store-contract.js';

const MINUTE = 60_000;

storeContract('delivery', () => {
  describe('outbox', () => {
    it('fails the pending edits of a card and the items threaded under it, nothing else', async () => {
      const edit = (key: string) => ({ op: 'update-card' as const, cardKey: key });
      await store.outbox.enqueue('slack', edit('card:1'), 'e1');
      const threaded: OutboxOp = {
        op: 'reply',
        conversation: CHANNEL,
        card: card('in'),
        threadOfCard: 'card:1',
      };
      await store.outbox.enqueue('slack', threaded, 'r1');
      await store.outbox.enqueue(
        'slack',
        { op: 'post-card', cardKey: 'card:2', threadOfCard: 'card:1' },
        'p2',
      );
      await store.outbox.enqueue('slack', edit('card:2'), 'e2');
      await store.outbox.enqueue('slack', reply('unrelated'), 'r2');
      await store.outbox.enqueue('slack', { op: 'post-card', cardKey: 'card:1' }, 'p1');
      expect(await store.outbox.failWaitingOn('card:1', 'card:1 could not be posted')).toBe(3);
      expect((await store.outbox.ready('slack', clock.now(), 10)).map((i) => i.dedupeKey)).toEqual([
        'e2',
        'r2',
        'p1',
      ]);
      expect(await store.outbox.failWaitingOn('card:1', 'again')).toBe(0);
    });

    it('enqueues once per dedupe key and serves ready items oldest first per platform', async () => {
      expect(await store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(true);
      expect(await store.outbox.enqueue('slack', reply('one again'), 'k1')).toBe(false);
      clock.advance(10);
      expect(await store.outbox.enqueue('discord', { op: 'update-card', cardKey: 'card:1' }, 'k2')).toBe(
        true,
      );
      expect(
        await store.outbox.enqueue('slack', { op: 'post-card', cardKey: 'card:1', threadOfCard: 'c0' }, 'k3'),
      ).toBe(true);

      const ready = await store.outbox.ready('slack', clock.now(), 10);
      expect(ready).toEqual([
        {
          id: expect.any(Number),
          platform: 'slack',
          item: reply('one'),
          dedupeKey: 'k1',
          attempts: 0,
          notBefore: T0,
          createdAt: T0,
        },
        {
          id: expect.any(Number),
          platform: 'slack',
          item: { op: 'post-card', cardKey: 'card:1', threadOfCard: 'c0' },
          dedupeKey: 'k3',
          attempts: 0,
          notBefore: T0 + 10,
          createdAt: T0 + 10,
        },
      ]);
      expect((await store.outbox.ready('slack', T0, 10)).map((i) => i.dedupeKey)).toEqual(['k1']);
      expect((await store.outbox.ready('slack', clock.now(), 1)).map((i) => i.dedupeKey)).toEqual(['k1']);
      expect((await store.outbox.ready('discord', clock.now(), 10)).map((i) => i.dedupeKey)).toEqual(['k2']);
      expect(await store.outbox.ready('playground', clock.now(), 10)).toEqual([]);
      expect(await store.outbox.depth()).toBe(3);
      expect(await store.outbox.depth('slack')).toBe(2);
      expect(await store.outbox.depth('playground')).toBe(0);
    });

    it('done removes an item and still remembers its dedupe key', async () => {
      await store.outbox.enqueue('slack', reply('one'), 'k1');
      const [item] = await store.outbox.ready('slack', clock.now(), 10);
      await store.outbox.done(item!.id);
      expect(await store.outbox.ready('slack', clock.now(), 10)).toEqual([]);
      expect(await store.outbox.depth()).toBe(0);
      expect(await store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(false);
      expect(await store.outbox.depth()).toBe(0);
    });

    it('retry counts the attempt and waits until notBefore', async () => {
      await store.outbox.enqueue('slack', reply('one'), 'k1');
      await store.outbox.enqueue('slack', reply('two'), 'k2');
      const [first] = await store.outbox.ready('slack', clock.now(), 10);
      await store.outbox.retry(first!.id, T0 + 5000);
      expect((await store.outbox.ready('slack', T0 + 4999, 10)).map((i) => i.dedupeKey)).toEqual(['k2']);
      expect((await store.outbox.ready('slack', T0 + 5000, 10))[0]).toMatchObject({
        dedupeKey: 'k1',
        attempts: 1,
        notBefore: T0 + 5000,
      });
      await store.outbox.retry(first!.id, T0 + 6000);
      expect((await store.outbox.ready('slack', T0 + 6000, 10))[0]?.attempts).toBe(2);
      expect(await store.outbox.depth()).toBe(2);
    });

    it('fail takes an item out of the queue but keeps it (and its key)', async () => {
      await store.outbox.enqueue('discord', reply('one'), 'k1');
      const [item] = await store.outbox.ready('discord', clock.now(), 10);
      await store.outbox.fail(item!.id, 'channel not found');
      expect(await store.outbox.ready('discord', clock.now() + HOUR, 10)).toEqual([]);
      expect(await store.outbox.depth('discord')).toBe(0);
      expect(await store.outbox.enqueue('discord', reply('one'), 'k1')).toBe(false);
      // A late done/retry on a failed item changes nothing.
      await store.outbox.retry(item!.id, T0);
      await store.outbox.done(item!.id);
      expect(await store.outbox.depth()).toBe(0);
    });

    it('forgets delivered dedupe keys only after a week', async () => {
      await store.outbox.enqueue('slack', reply('one'), 'k1');
      await store.outbox.done((await store.outbox.ready('slack', clock.now(), 1))[0]!.id);
      clock.advance(6 * 24 * HOUR);
      await store.outbox.enqueue('slack', reply('two'), 'k2');
      await store.outbox.done((await store.outbox.ready('slack', clock.now(), 1))[0]!.id);
      expect(await store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(false);

      clock.advance(2 * 24 * HOUR);
      await store.outbox.enqueue('slack', reply('three'), 'k3');
      await store.outbox.done((await store.outbox.ready('slack', clock.now(), 1))[0]!.id);
      expect(await store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(true);
      expect(await store.outbox.enqueue('slack', reply('two'), 'k2')).toBe(false);
    });
  });

  describe('idempotency', () => {
    it('creates one UUID per action and returns it on every later call', async () => {
      const key = await store.idempotency.keyFor('create:slack:T1:U1:abc');
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      clock.advance(23 * HOUR);
      expect(await store.idempotency.keyFor('create:slack:T1:U1:abc')).toBe(key);
      expect(await store.idempotency.keyFor('create:slack:T1:U1:def')).not.toBe(key);
    });

    it('with reuseForMs, reuses a key inside the window from its creation and mints a new one after', async () => {
      const key = await store.idempotency.keyFor('typed:a', { reuseForMs: 10 * MINUTE });
      clock.advance(9 * MINUTE);
      expect(await store.idempotency.keyFor('typed:a', { reuseForMs: 10 * MINUTE })).toBe(key);
      clock.advance(2 * MINUTE);
      const renewed = await store.idempotency.keyFor('typed:a', { reuseForMs: 10 * MINUTE });
      expect(renewed).not.toBe(key);
      // The window now runs from the new key; without the option the stored key is simply reused.
      clock.advance(5 * MINUTE);
      expect(await store.idempotency.keyFor('typed:a', { reuseForMs: 10 * MINUTE })).toBe(renewed);
      expect(await store.idempotency.keyFor('typed:a')).toBe(renewed);
    });

    it('tells when a key was stored (or renewed), without making one', async () => {
      expect(await store.idempotency.storedAt('done:k1')).toBeUndefined();
      expect(await store.idempotency.storedAt('done:k1')).toBeUndefined();
      const at = clock.now();
      await store.idempotency.keyFor('done:k1');
      clock.advance(3 * MINUTE);
      expect(await store.idempotency.storedAt('done:k1')).toBe(at);
      await store.idempotency.keyFor('typed:b', { reuseForMs: MINUTE });
      clock.advance(2 * MINUTE);
      await store.idempotency.keyFor('typed:b', { reuseForMs: MINUTE });
      expect(await store.idempotency.storedAt('typed:b')).toBe(clock.now());
    });

    it('purges keys once they are well past the 24 h replay window', async () => {
      const key = await store.idempotency.keyFor('a');
      clock.advance(47 * HOUR);
      await store.idempotency.keyFor('b');
      expect(await store.idempotency.keyFor('a')).toBe(key);
      clock.advance(2 * HOUR);
      await store.idempotency.keyFor('c');
      expect(await store.idempotency.keyFor('a')).not.toBe(key);
    });
  });
});
