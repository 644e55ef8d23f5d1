/** The `Store` contract, run against a real SQLite database in memory and in a temp file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/cards.js';
import { DEFAULT_CHANNEL_SETTINGS, type NewWatch, type OutboxOp } from '../../src/core/ports.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { FakeClock, FIXTURES, HOUR, T0 } from './helpers.js';

const ALICE = 'slack:T1:U1';
const BOB = 'slack:T1:U2';
const CHANNEL = 'slack:T1:C1';
const OTHER_CHANNEL = 'discord:G1:C9';

const card = (title: string): Card => ({ title, tone: 'progress', progress: { percent: 40 } });
const reply = (title: string): OutboxOp => ({ op: 'reply', conversation: CHANNEL, card: card(title) });

const newWatch = (overrides: Partial<NewWatch> = {}): NewWatch => ({
  kind: 'generation',
  target: 'vid_1',
  owner: ALICE,
  conversation: CHANNEL,
  cardKey: 'card:vid_1',
  state: { percent: 0 },
  nextCheckAt: T0 + 10_000,
  expiresAt: T0 + 24 * HOUR,
  ...overrides,
});

describe.each(FIXTURES)('Store contract ($name)', (fixture) => {
  let clock: FakeClock;
  let store: SqliteStore;
  let cleanup: () => void;

  beforeEach(() => {
    clock = new FakeClock();
    ({ store, cleanup } = fixture.open(clock));
  });
  afterEach(() => cleanup());

  describe('keys', () => {
    const key = { apiKey: 'fl_live_abc123', keyPrefix: 'fl_live_abc', teamId: 'team_1', teamName: 'Acme' };

    it('stores, reads back, overwrites and deletes a linked key', () => {
      expect(store.keys.get(ALICE)).toBeUndefined();
      store.keys.put(ALICE, key);
      expect(store.keys.get(ALICE)).toEqual({ ...key, linkedAt: T0 });

      clock.advance(1000);
      store.keys.put(ALICE, { ...key, apiKey: 'fl_live_xyz789', keyPrefix: 'fl_live_xyz' });
      expect(store.keys.get(ALICE)).toMatchObject({ apiKey: 'fl_live_xyz789', linkedAt: T0 + 1000 });
      expect(store.keys.get(BOB)).toBeUndefined();

      expect(store.keys.delete(ALICE)).toBe(true);
      expect(store.keys.delete(ALICE)).toBe(false);
      expect(store.keys.get(ALICE)).toBeUndefined();
    });
  });

  describe('users', () => {
    it('keeps a time zone and the last video and series separately per user', () => {
      expect(store.users.getTimeZone(ALICE)).toBeUndefined();
      expect(store.users.getLast(ALICE, 'video')).toBeUndefined();

      store.users.setLast(ALICE, 'video', 'vid_1');
      store.users.setTimeZone(ALICE, 'Europe/Paris');
      store.users.setLast(ALICE, 'series', 'ser_1');
      store.users.setLast(ALICE, 'video', 'vid_2');
      store.users.setTimeZone(BOB, 'America/New_York');

      expect(store.users.getTimeZone(ALICE)).toBe('Europe/Paris');
      expect(store.users.getLast(ALICE, 'video')).toBe('vid_2');
      expect(store.users.getLast(ALICE, 'series')).toBe('ser_1');
      expect(store.users.getTimeZone(BOB)).toBe('America/New_York');
      expect(store.users.getLast(BOB, 'video')).toBeUndefined();
    });
  });

  describe('settings', () => {
    it('returns a fresh copy of the defaults for an unknown conversation', () => {
      const settings = store.settings.get(CHANNEL);
      expect(settings).toEqual(DEFAULT_CHANNEL_SETTINGS);
      settings.approvers.push(BOB);
      settings.roles.admin.push(BOB);
      expect(DEFAULT_CHANNEL_SETTINGS.approvers).toEqual([]);
      expect(store.settings.get(CHANNEL).roles.admin).toEqual([]);
    });

    it('round-trips settings per conversation', () => {
      const settings = {
        ...DEFAULT_CHANNEL_SETTINGS,
        threading: false,
        timeZone: 'Asia/Tokyo',
        approval: 'publish' as const,
        approvers: [BOB, 'slack-group:S1'],
        roles: { publish: [ALICE], spend: [], admin: [BOB] },
      };
      store.settings.put(CHANNEL, settings);
      expect(store.settings.get(CHANNEL)).toEqual(settings);
      expect(store.settings.get(OTHER_CHANNEL)).toEqual(DEFAULT_CHANNEL_SETTINGS);
      store.settings.put(CHANNEL, DEFAULT_CHANNEL_SETTINGS);
      expect(store.settings.get(CHANNEL)).toEqual(DEFAULT_CHANNEL_SETTINGS);
    });
  });

  describe('subscriptions', () => {
    it('adds once, lists per conversation in creation order, removes', () => {
      expect(
        store.subscriptions.add({ conversation: CHANNEL, kind: 'calendar', target: '', owner: ALICE }),
      ).toBe(true);
      clock.advance(1);
      expect(
        store.subscriptions.add({ conversation: CHANNEL, kind: 'series', target: 'ser_1', owner: BOB }),
      ).toBe(true);
      expect(
        store.subscriptions.add({ conversation: CHANNEL, kind: 'calendar', target: '', owner: BOB }),
      ).toBe(false);
      store.subscriptions.add({ conversation: OTHER_CHANNEL, kind: 'videos', target: '', owner: BOB });

      expect(store.subscriptions.list(CHANNEL)).toEqual([
        { conversation: CHANNEL, kind: 'calendar', target: '', owner: ALICE, createdAt: T0 },
        { conversation: CHANNEL, kind: 'series', target: 'ser_1', owner: BOB, createdAt: T0 + 1 },
      ]);
      expect(store.subscriptions.remove(CHANNEL, 'series', 'ser_1')).toBe(true);
      expect(store.subscriptions.remove(CHANNEL, 'series', 'ser_1')).toBe(false);
      expect(store.subscriptions.list(CHANNEL).map((s) => s.kind)).toEqual(['calendar']);
      expect(store.subscriptions.list(OTHER_CHANNEL)).toHaveLength(1);
      expect(store.subscriptions.list('slack:T1:C404')).toEqual([]);
    });
  });

  describe('watches', () => {
    it('adds an active watch with a generated or given id and reads it back', () => {
      const watch = store.watches.add(newWatch());
      expect(watch).toEqual({ ...newWatch(), id: expect.any(String), status: 'active', createdAt: T0 });
      expect(store.watches.get(watch.id)).toEqual(watch);
      expect(store.watches.add(newWatch({ id: 'w-fixed', target: 'vid_2' })).id).toBe('w-fixed');
      expect(store.watches.get('w-missing')).toBeUndefined();
    });

    it('returns due active watches soonest first, up to the limit', () => {
      const late = store.watches.add(newWatch({ target: 'a', nextCheckAt: T0 + 30 }));
      const early = store.watches.add(newWatch({ target: 'b', nextCheckAt: T0 + 10 }));
      const middle = store.watches.add(newWatch({ target: 'c', nextCheckAt: T0 + 20 }));
      store.watches.add(newWatch({ target: 'future', nextCheckAt: T0 + 1000 }));
      const finished = store.watches.add(newWatch({ target: 'done', nextCheckAt: T0 }));
      store.watches.update(finished.id, { status: 'done' });

      expect(store.watches.due(T0 + 30, 10).map((w) => w.id)).toEqual([early.id, middle.id, late.id]);
      expect(store.watches.due(T0 + 30, 2).map((w) => w.id)).toEqual([early.id, middle.id]);
      expect(store.watches.due(T0 + 9, 10)).toEqual([]);
      expect(store.watches.active().map((w) => w.target)).toEqual(['b', 'c', 'a', 'future']);
    });

    it('finds the active watch for a kind and target', () => {
      const first = store.watches.add(newWatch({ kind: 'render', target: 'rnd_1' }));
      expect(store.watches.findActive('render', 'rnd_1')?.id).toBe(first.id);
      expect(store.watches.findActive('generation', 'rnd_1')).toBeUndefined();
      store.watches.update(first.id, { status: 'expired' });
      expect(store.watches.findActive('render', 'rnd_1')).toBeUndefined();
    });

    it('patches only the given fields; state is replaced, cardKey can be cleared', () => {
      const watch = store.watches.add(newWatch({ state: { percent: 10, samples: [1, 2] } }));

      store.watches.update(watch.id, { nextCheckAt: T0 + 99 });
      expect(store.watches.get(watch.id)).toEqual({ ...watch, nextCheckAt: T0 + 99 });

      store.watches.update(watch.id, { state: { percent: 50 } });
      expect(store.watches.get(watch.id)?.state).toEqual({ percent: 50 });

      store.watches.update(watch.id, { cardKey: null });
      expect(store.watches.get(watch.id)?.cardKey).toBeNull();
      store.watches.update(watch.id, { cardKey: 'card:new', status: 'done' });
      expect(store.watches.get(watch.id)).toEqual({
        ...watch,
        nextCheckAt: T0 + 99,
        state: { percent: 50 },
        cardKey: 'card:new',
        status: 'done',
      });
      // Nothing to patch, or an unknown id: no change, no error.
      store.watches.update(watch.id, {});
      store.watches.update('w-missing', { status: 'done' });
      expect(store.watches.get(watch.id)?.cardKey).toBe('card:new');
    });

    it('keeps fractional times as given', () => {
      const watch = store.watches.add(newWatch({ nextCheckAt: T0 + 12.5 }));
      expect(store.watches.get(watch.id)?.nextCheckAt).toBe(T0 + 12.5);
    });
  });

  describe('cards', () => {
    it('creates, replaces content and model, and keeps the message once set', () => {
      expect(store.cards.get('card:1')).toBeUndefined();
      const created = store.cards.put('card:1', CHANNEL, card('Generating'));
      expect(created).toEqual({
        key: 'card:1',
        conversation: CHANNEL,
        message: null,
        card: card('Generating'),
        model: {},
        updatedAt: T0,
      });

      store.cards.setMessage('card:1', `${CHANNEL}:1700000000.000100`);
      clock.advance(500);
      const updated = store.cards.put('card:1', OTHER_CHANNEL, card('Done'), { step: 'done', percent: 100 });
      expect(updated).toEqual({
        key: 'card:1',
        conversation: CHANNEL,
        message: `${CHANNEL}:1700000000.000100`,
        card: card('Done'),
        model: { step: 'done', percent: 100 },
        updatedAt: T0 + 500,
      });
      expect(store.cards.get('card:1')).toEqual(updated);

      // Without a model, the stored one is kept.
      expect(store.cards.put('card:1', CHANNEL, card('Again')).model).toEqual({ step: 'done', percent: 100 });
    });

    it('follows the conversation until the card is posted', () => {
      store.cards.put('card:2', CHANNEL, card('a'));
      expect(store.cards.put('card:2', OTHER_CHANNEL, card('b')).conversation).toBe(OTHER_CHANNEL);
    });
  });

  describe('outbox', () => {
    it('enqueues once per dedupe key and serves ready items oldest first per platform', () => {
      expect(store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(true);
      expect(store.outbox.enqueue('slack', reply('one again'), 'k1')).toBe(false);
      clock.advance(10);
      expect(store.outbox.enqueue('discord', { op: 'update-card', cardKey: 'card:1' }, 'k2')).toBe(true);
      expect(
        store.outbox.enqueue('slack', { op: 'post-card', cardKey: 'card:1', threadOfCard: 'c0' }, 'k3'),
      ).toBe(true);

      const ready = store.outbox.ready('slack', clock.now(), 10);
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
      expect(store.outbox.ready('slack', T0, 10).map((i) => i.dedupeKey)).toEqual(['k1']);
      expect(store.outbox.ready('slack', clock.now(), 1).map((i) => i.dedupeKey)).toEqual(['k1']);
      expect(store.outbox.ready('discord', clock.now(), 10).map((i) => i.dedupeKey)).toEqual(['k2']);
      expect(store.outbox.ready('playground', clock.now(), 10)).toEqual([]);
      expect(store.outbox.depth()).toBe(3);
      expect(store.outbox.depth('slack')).toBe(2);
      expect(store.outbox.depth('playground')).toBe(0);
    });

    it('done removes an item and still remembers its dedupe key', () => {
      store.outbox.enqueue('slack', reply('one'), 'k1');
      const [item] = store.outbox.ready('slack', clock.now(), 10);
      store.outbox.done(item!.id);
      expect(store.outbox.ready('slack', clock.now(), 10)).toEqual([]);
      expect(store.outbox.depth()).toBe(0);
      expect(store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(false);
      expect(store.outbox.depth()).toBe(0);
    });

    it('retry counts the attempt and waits until notBefore', () => {
      store.outbox.enqueue('slack', reply('one'), 'k1');
      store.outbox.enqueue('slack', reply('two'), 'k2');
      const [first] = store.outbox.ready('slack', clock.now(), 10);
      store.outbox.retry(first!.id, T0 + 5000);
      expect(store.outbox.ready('slack', T0 + 4999, 10).map((i) => i.dedupeKey)).toEqual(['k2']);
      expect(store.outbox.ready('slack', T0 + 5000, 10)[0]).toMatchObject({
        dedupeKey: 'k1',
        attempts: 1,
        notBefore: T0 + 5000,
      });
      store.outbox.retry(first!.id, T0 + 6000);
      expect(store.outbox.ready('slack', T0 + 6000, 10)[0]?.attempts).toBe(2);
      expect(store.outbox.depth()).toBe(2);
    });

    it('fail takes an item out of the queue but keeps it (and its key)', () => {
      store.outbox.enqueue('discord', reply('one'), 'k1');
      const [item] = store.outbox.ready('discord', clock.now(), 10);
      store.outbox.fail(item!.id, 'channel not found');
      expect(store.outbox.ready('discord', clock.now() + HOUR, 10)).toEqual([]);
      expect(store.outbox.depth('discord')).toBe(0);
      expect(store.outbox.enqueue('discord', reply('one'), 'k1')).toBe(false);
      // A late done/retry on a failed item changes nothing.
      store.outbox.retry(item!.id, T0);
      store.outbox.done(item!.id);
      expect(store.outbox.depth()).toBe(0);
    });

    it('forgets delivered dedupe keys only after a week', () => {
      store.outbox.enqueue('slack', reply('one'), 'k1');
      store.outbox.done(store.outbox.ready('slack', clock.now(), 1)[0]!.id);
      clock.advance(6 * 24 * HOUR);
      store.outbox.enqueue('slack', reply('two'), 'k2');
      store.outbox.done(store.outbox.ready('slack', clock.now(), 1)[0]!.id);
      expect(store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(false);

      clock.advance(2 * 24 * HOUR);
      store.outbox.enqueue('slack', reply('three'), 'k3');
      store.outbox.done(store.outbox.ready('slack', clock.now(), 1)[0]!.id);
      expect(store.outbox.enqueue('slack', reply('one'), 'k1')).toBe(true);
      expect(store.outbox.enqueue('slack', reply('two'), 'k2')).toBe(false);
    });
  });

  describe('idempotency', () => {
    it('creates one UUID per action and returns it on every later call', () => {
      const key = store.idempotency.keyFor('create:slack:T1:U1:abc');
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      clock.advance(23 * HOUR);
      expect(store.idempotency.keyFor('create:slack:T1:U1:abc')).toBe(key);
      expect(store.idempotency.keyFor('create:slack:T1:U1:def')).not.toBe(key);
    });

    it('purges keys once they are well past the 24 h replay window', () => {
      const key = store.idempotency.keyFor('a');
      clock.advance(47 * HOUR);
      store.idempotency.keyFor('b');
      expect(store.idempotency.keyFor('a')).toBe(key);
      clock.advance(2 * HOUR);
      store.idempotency.keyFor('c');
      expect(store.idempotency.keyFor('a')).not.toBe(key);
    });
  });

  describe('approvals', () => {
    const request = {
      id: 'apr_1',
      conversation: CHANNEL,
      requester: ALICE,
      action: {
        command: 'publish',
        args: { video: 'vid_1', platform: 'youtube' },
        idempotencyKey: '3b7e0c8e-1d1f-4a35-9a55-4b1a4b1c0f00',
        summary: 'Publish vid_1 to YouTube',
      },
      cardKey: 'card:apr_1',
      expiresAt: T0 + HOUR,
    };

    it('creates a pending approval and reads it back', () => {
      const created = store.approvals.create(request);
      expect(created).toStrictEqual({ ...request, status: 'pending', createdAt: T0 });
      expect(store.approvals.get('apr_1')).toStrictEqual(created);
      expect(store.approvals.get('apr_404')).toBeUndefined();
    });

    it('decides exactly once, whatever the second call says', () => {
      store.approvals.create(request);
      const decisions = [
        store.approvals.decide('apr_1', { status: 'approved', by: BOB, at: T0 + 5 }),
        store.approvals.decide('apr_1', { status: 'rejected', by: BOB, at: T0 + 6, reason: 'double click' }),
        store.approvals.decide('apr_1', { status: 'expired', at: T0 + 7 }),
      ];
      expect(decisions).toEqual([true, false, false]);
      expect(store.approvals.get('apr_1')).toStrictEqual({
        ...request,
        status: 'approved',
        decidedBy: BOB,
        decidedAt: T0 + 5,
        createdAt: T0,
      });
      expect(store.approvals.decide('apr_404', { status: 'approved', at: T0 })).toBe(false);
    });

    it('records a rejection reason', () => {
      store.approvals.create(request);
      store.approvals.decide('apr_1', { status: 'rejected', by: BOB, at: T0 + 1, reason: 'wrong thumbnail' });
      expect(store.approvals.get('apr_1')).toMatchObject({ status: 'rejected', reason: 'wrong thumbnail' });
    });

    it('lists pending approvals expiring by a time, soonest first', () => {
      store.approvals.create({ ...request, id: 'late', expiresAt: T0 + 3 * HOUR });
      store.approvals.create({ ...request, id: 'soon', expiresAt: T0 + HOUR });
      store.approvals.create({ ...request, id: 'never', expiresAt: null });
      store.approvals.create({ ...request, id: 'decided', expiresAt: T0 });
      store.approvals.decide('decided', { status: 'approved', by: BOB, at: T0 });

      expect(store.approvals.pendingExpiring(T0 + 3 * HOUR).map((a) => a.id)).toEqual(['soon', 'late']);
      expect(store.approvals.pendingExpiring(T0 + HOUR).map((a) => a.id)).toEqual(['soon']);
      expect(store.approvals.pendingExpiring(T0)).toEqual([]);
      expect(store.approvals.get('never')?.expiresAt).toBeNull();
    });
  });

  describe('audit', () => {
    beforeEach(() => {
      store.audit.record({
        at: T0,
        conversation: CHANNEL,
        actor: ALICE,
        action: 'approval.requested',
        videoId: 'v1',
      });
      store.audit.record({
        at: T0 + 10,
        conversation: 'slack:T1:C2',
        actor: BOB,
        action: 'approval.approved',
        videoId: 'v1',
        credits: 12.5,
        details: { platform: 'youtube', nested: { ok: true } },
      });
      store.audit.record({
        at: T0 + 20,
        conversation: 'slack:T10:C1',
        actor: BOB,
        action: 'video.created',
        seriesId: 's1',
      });
      store.audit.record({
        at: T0 + 30,
        conversation: OTHER_CHANNEL,
        actor: 'discord:G1:U1',
        action: 'video.created',
      });
    });

    it('lists one workspace newest first, with optional fields as recorded', () => {
      expect(store.audit.list({ workspacePrefix: 'slack:T1:' })).toStrictEqual([
        {
          at: T0 + 10,
          conversation: 'slack:T1:C2',
          actor: BOB,
          action: 'approval.approved',
          videoId: 'v1',
          credits: 12.5,
          details: { platform: 'youtube', nested: { ok: true } },
        },
        { at: T0, conversation: CHANNEL, actor: ALICE, action: 'approval.requested', videoId: 'v1' },
      ]);
      expect(store.audit.list({ workspacePrefix: 'slack:T10:' }).map((e) => e.seriesId)).toEqual(['s1']);
      expect(store.audit.list({ workspacePrefix: 'discord:G1:' })).toHaveLength(1);
      expect(store.audit.list({ workspacePrefix: 'slack:T_:' })).toEqual([]);
    });

    it('filters by video and a [from, to) window, and limits', () => {
      const actions = (query: Parameters<SqliteStore['audit']['list']>[0]) =>
        store.audit.list(query).map((e) => e.at - T0);
      expect(actions({ workspacePrefix: 'slack:', videoId: 'v1' })).toEqual([10, 0]);
      expect(actions({ workspacePrefix: 'slack:', videoId: 'v2' })).toEqual([]);
      expect(actions({ workspacePrefix: 'slack:', from: T0 + 10, to: T0 + 20 })).toEqual([10]);
      expect(actions({ workspacePrefix: '', limit: 2 })).toEqual([30, 20]);
      expect(actions({ workspacePrefix: '', limit: 0 })).toEqual([30]);
    });
  });

  describe('transaction', () => {
    it('commits state and outbox together and returns the result', () => {
      const result = store.transaction(() => {
        store.cards.put('card:1', CHANNEL, card('one'));
        store.outbox.enqueue('slack', { op: 'post-card', cardKey: 'card:1' }, 'card:1:post');
        return 42;
      });
      expect(result).toBe(42);
      expect(store.cards.get('card:1')).toBeDefined();
      expect(store.outbox.depth()).toBe(1);
    });

    it('rolls back state and outbox together when the function throws', () => {
      store.cards.put('card:1', CHANNEL, card('before'));
      expect(() =>
        store.transaction(() => {
          store.cards.put('card:1', CHANNEL, card('after'));
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
