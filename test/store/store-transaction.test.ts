/** The `Store` contract (transactions), run against a real SQLite database in memory and in a temp file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { ALICE, CHANNEL, card, FakeClock, FIXTURES, newWatch, reply } from './helpers.js';

describe.each(FIXTURES)('Store contract: transactions ($name)', (fixture) => {
  let clock: FakeClock;
  let store: SqliteStore;
  let cleanup: () => void;

  beforeEach(() => {
    clock = new FakeClock();
    ({ store, cleanup } = fixture.open(clock));
  });
  afterEach(() => cleanup());

  describe('transaction', () => {
    it('commits state and outbox together and returns the result', () => {
      const result = store.transaction(() => {
        store.cards.put('card:1', { conversation: CHANNEL, card: card('one') });
        store.outbox.enqueue('slack', { op: 'post-card', cardKey: 'card:1' }, 'card:1:post');
        return 42;
      });
      expect(result).toBe(42);
      expect(store.cards.get('card:1')).toBeDefined();
      expect(store.outbox.depth()).toBe(1);
    });

    it('rolls back state and outbox together when the function throws', () => {
      store.cards.put('card:1', { conversation: CHANNEL, card: card('before') });
      expect(() =>
        store.transaction(() => {
          store.cards.put('card:1', { conversation: CHANNEL, card: card('after') });
          store.watches.add(newWatch({ id: 'w1' }));
          store.approvals.create({
            id: 'apr_1',
            conversation: CHANNEL,
            requester: ALICE,
            action: { command: 'publish', args: {}, idempotencyKey: 'k', summary: 's' },
            cardKey: 'card:1',
            expiresAt: null,
          });
          store.outbox.enqueue('slack', { op: 'update-card', cardKey: 'card:1' }, 'card:1:v2');
          throw new Error('boom');
        }),
      ).toThrow('boom');

      expect(store.cards.get('card:1')?.card.title).toBe('before');
      expect(store.watches.get('w1')).toBeUndefined();
      expect(store.approvals.get('apr_1')).toBeUndefined();
      expect(store.outbox.depth()).toBe(0);
      // The rolled-back dedupe key was never remembered.
      expect(store.outbox.enqueue('slack', { op: 'update-card', cardKey: 'card:1' }, 'card:1:v2')).toBe(true);
    });

    it('nests as a savepoint: an inner failure caught inside keeps the outer work', () => {
      store.transaction(() => {
        store.outbox.enqueue('slack', reply('outer'), 'outer');
        expect(() =>
          store.transaction(() => {
            store.outbox.enqueue('slack', reply('inner'), 'inner');
            throw new Error('inner failed');
          }),
        ).toThrow('inner failed');
        store.users.setTimeZone(ALICE, 'UTC');
      });
      expect(store.outbox.ready('slack', clock.now(), 10).map((i) => i.dedupeKey)).toEqual(['outer']);
      expect(store.users.getTimeZone(ALICE)).toBe('UTC');
    });

    it('refuses an async function instead of committing half of it', () => {
      expect(() =>
        store.transaction(() => {
          store.outbox.enqueue('slack', reply('x'), 'x');
          return Promise.resolve();
        }),
      ).toThrow(/promise/);
      expect(store.outbox.depth()).toBe(0);
    });
  });

  describe('close', () => {
    it('closes once; later calls are harmless to close and fail loudly otherwise', () => {
      store.close();
      store.close();
      expect(() => store.outbox.depth()).toThrow(/not open/);
    });
  });
});
