/** The `Store` contract (transactions), run against real SQLite (in memory, in a temp file) and a real PostgreSQL. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/index.js';
import { TestClock } from '../support/test-clock.js';
import { ALICE, CHANNEL, card, FIXTURES, newWatch, reply, T0 } from './helpers.js';

describe.each(FIXTURES)('Store contract: transactions ($name)', (fixture) => {
  let clock: TestClock;
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeAll(() => fixture.setup?.());
  afterAll(() => fixture.teardown?.());
  beforeEach(async () => {
    clock = new TestClock(T0);
    ({ store, cleanup } = await fixture.open(clock));
  });
  afterEach(() => cleanup());

  describe('transaction', () => {
    it('commits state and outbox together and returns the result', async () => {
      const result = await store.transaction(async () => {
        await store.cards.put('card:1', { conversation: CHANNEL, card: card('one') });
        await store.outbox.enqueue('slack', { op: 'post-card', cardKey: 'card:1' }, 'card:1:post');
        return 42;
      });
      expect(result).toBe(42);
      expect(await store.cards.get('card:1')).toBeDefined();
      expect(await store.outbox.depth()).toBe(1);
    });

    it('rolls back state and outbox together when the function throws', async () => {
      await store.cards.put('card:1', { conversation: CHANNEL, card: card('before') });
      await expect(
        store.transaction(async () => {
          await store.cards.put('card:1', { conversation: CHANNEL, card: card('after') });
          await store.watches.add(newWatch({ id: 'w1' }));
          await store.approvals.create({
            id: 'apr_1',
            conversation: CHANNEL,
            requester: ALICE,
            action: { command: 'publish', args: {}, idempotencyKey: 'k', summary: 's' },
            cardKey: 'card:1',
            expiresAt: null,
          });
          await store.outbox.enqueue('slack', { op: 'update-card', cardKey: 'card:1' }, 'card:1:v2');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');

      expect((await store.cards.get('card:1'))?.card.title).toBe('before');
      expect(await store.watches.get('w1')).toBeUndefined();
      expect(await store.approvals.get('apr_1')).toBeUndefined();
      expect(await store.outbox.depth()).toBe(0);
      // The rolled-back dedupe key was never remembered.
      expect(await store.outbox.enqueue('slack', { op: 'update-card', cardKey: 'card:1' }, 'card:1:v2')).toBe(
        true,
      );
    });

    it('nests as a savepoint: an inner failure caught inside keeps the outer work', async () => {
      await store.transaction(async () => {
        await store.outbox.enqueue('slack', reply('outer'), 'outer');
        await expect(
          store.transaction(async () => {
            await store.outbox.enqueue('slack', reply('inner'), 'inner');
            throw new Error('inner failed');
          }),
        ).rejects.toThrow('inner failed');
        await store.users.setTimeZone(ALICE, 'UTC');
      });
      expect((await store.outbox.ready('slack', clock.now(), 10)).map((i) => i.dedupeKey)).toEqual(['outer']);
      expect(await store.users.getTimeZone(ALICE)).toBe('UTC');
    });

    it('rolls back a committed savepoint with the transaction around it', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.transaction(async (inner) => {
            await inner.outbox.enqueue('slack', reply('inner'), 'inner');
          });
          throw new Error('outer failed');
        }),
      ).rejects.toThrow('outer failed');
      expect(await store.outbox.depth()).toBe(0);
    });

    it('runs calls through tx and through the store itself in the same transaction', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.outbox.enqueue('slack', reply('through tx'), 'a');
          await store.outbox.enqueue('slack', reply('through the store'), 'b');
          expect(await tx.outbox.depth()).toBe(2);
          throw new Error('undo both');
        }),
      ).rejects.toThrow('undo both');
      expect(await store.outbox.depth()).toBe(0);
    });

    it('takes calls made side by side inside one transaction', async () => {
      await store.transaction(async (tx) => {
        await Promise.all([
          tx.outbox.enqueue('slack', reply('one'), 'one'),
          tx.cards.put('card:1', { conversation: CHANNEL, card: card('one') }),
          store.users.setTimeZone(ALICE, 'UTC'),
        ]);
        expect(await Promise.all([tx.outbox.depth(), tx.users.getTimeZone(ALICE)])).toEqual([1, 'UTC']);
      });
      expect(await store.outbox.depth()).toBe(1);
      expect(await store.cards.get('card:1')).toBeDefined();
    });

    it("never shows another async flow a transaction's uncommitted writes", async () => {
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const transaction = store.transaction(async () => {
        await store.cards.put('card:1', { conversation: CHANNEL, card: card('one') });
        wrote();
        await gate;
        throw new Error('rolled back');
      });
      await written;
      // From outside, while the transaction is open: SQLite makes this wait for its end, PostgreSQL reads what
      // is committed. Either way the card written inside never shows, as the transaction then rolls back.
      const read = store.cards.get('card:1');
      open();
      await expect(transaction).rejects.toThrow('rolled back');
      expect(await read).toBeUndefined();
    });
  });

  describe('close', () => {
    it('closes once; later calls are harmless to close and fail loudly otherwise', async () => {
      await store.close();
      await store.close();
      await expect(store.outbox.depth()).rejects.toThrow();
    });
  });
});
