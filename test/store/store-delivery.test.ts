/** The `Store` contract (delivery), run against real SQLite (in memory, in a temp file) and a real PostgreSQL. */

import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxOp, Store } from '../../src/core/ports/index.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import {
  ALICE,
  BOB,
  CHANNEL,
  card,
  FIXTURES,
  HOUR,
  newSecretKey,
  OTHER_CHANNEL,
  reply,
  T0,
  tempDir,
} from './helpers.js';

const MINUTE = 60_000;

describe.each(FIXTURES)('Store contract: delivery ($name)', (fixture) => {
  let clock: TestClock;
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeAll(async () => await fixture.setup?.());
  afterAll(async () => await fixture.teardown?.());
  beforeEach(async () => {
    clock = new TestClock(T0);
    ({ store, cleanup } = await fixture.open(clock));
  });
  afterEach(async () => await cleanup());

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

    it('creates a pending approval and reads it back', async () => {
      const created = await store.approvals.create(request);
      expect(created).toStrictEqual({ ...request, status: 'pending', createdAt: T0 });
      expect(await store.approvals.get('apr_1')).toStrictEqual(created);
      expect(await store.approvals.get('apr_404')).toBeUndefined();
    });

    it('decides exactly once, whatever the second call says', async () => {
      await store.approvals.create(request);
      const decisions = [
        await store.approvals.decide('apr_1', { status: 'approved', by: BOB, at: T0 + 5 }),
        await store.approvals.decide('apr_1', {
          status: 'rejected',
          by: BOB,
          at: T0 + 6,
          reason: 'double click',
        }),
        await store.approvals.decide('apr_1', { status: 'expired', at: T0 + 7 }),
      ];
      expect(decisions).toEqual([true, false, false]);
      expect(await store.approvals.get('apr_1')).toStrictEqual({
        ...request,
        status: 'approved',
        decidedBy: BOB,
        decidedAt: T0 + 5,
        createdAt: T0,
      });
      expect(await store.approvals.decide('apr_404', { status: 'approved', at: T0 })).toBe(false);
    });

    it('records a rejection reason', async () => {
      await store.approvals.create(request);
      await store.approvals.decide('apr_1', {
        status: 'rejected',
        by: BOB,
        at: T0 + 1,
        reason: 'wrong thumbnail',
      });
      expect(await store.approvals.get('apr_1')).toMatchObject({
        status: 'rejected',
        reason: 'wrong thumbnail',
      });
    });

    it('lists pending approvals expiring by a time, soonest first', async () => {
      await store.approvals.create({ ...request, id: 'late', expiresAt: T0 + 3 * HOUR });
      await store.approvals.create({ ...request, id: 'soon', expiresAt: T0 + HOUR });
      await store.approvals.create({ ...request, id: 'never', expiresAt: null });
      await store.approvals.create({ ...request, id: 'decided', expiresAt: T0 });
      await store.approvals.decide('decided', { status: 'approved', by: BOB, at: T0 });

      expect((await store.approvals.pendingExpiring(T0 + 3 * HOUR)).map((a) => a.id)).toEqual([
        'soon',
        'late',
      ]);
      expect((await store.approvals.pendingExpiring(T0 + HOUR)).map((a) => a.id)).toEqual(['soon']);
      expect(await store.approvals.pendingExpiring(T0)).toEqual([]);
      expect((await store.approvals.get('never'))?.expiresAt).toBeNull();
    });

    it('lists the pending approvals about one video, in every workspace, oldest first', async () => {
      const about = (id: string, videoId: string, conversation: string) => ({
        ...request,
        id,
        conversation,
        action: { ...request.action, args: { videoId, platform: 'youtube' } },
      });
      await store.approvals.create(about('here', 'vid_1', CHANNEL));
      clock.advance(1);
      await store.approvals.create(about('guild', 'vid_1', 'discord:G1:C9'));
      await store.approvals.create(about('other-video', 'vid_10', CHANNEL));
      await store.approvals.create(about('decided', 'vid_1', CHANNEL));
      await store.approvals.decide('decided', { status: 'approved', by: BOB, at: T0 });

      expect((await store.approvals.pendingAbout('vid_1')).map((a) => a.id)).toEqual(['here', 'guild']);
      expect(await store.approvals.pendingAbout('vid_404')).toEqual([]);
    });

    it("lists one workspace's pending approvals, matching its id exactly (case, wildcards, a longer id)", async () => {
      const inConversation = (id: string, conversation: string) => ({ ...request, id, conversation });
      await store.approvals.create(inConversation('t1', 'slack:T1:C1'));
      clock.advance(1);
      await store.approvals.create(inConversation('t1-thread', 'slack:T1:C2:1700000000.000100'));
      await store.approvals.create(inConversation('lower-t1', 'slack:t1:C1'));
      await store.approvals.create(inConversation('t10', 'slack:T10:C1'));
      await store.approvals.create(inConversation('wild', 'slack:T_1:C1'));
      await store.approvals.create(inConversation('decided', 'slack:T1:C3'));
      await store.approvals.decide('decided', { status: 'approved', by: BOB, at: T0 });

      expect((await store.approvals.pendingIn('slack:T1')).map((a) => a.id)).toEqual(['t1', 't1-thread']);
      expect((await store.approvals.pendingIn('slack:t1')).map((a) => a.id)).toEqual(['lower-t1']);
      expect((await store.approvals.pendingIn('slack:T_1')).map((a) => a.id)).toEqual(['wild']);
      expect(await store.approvals.pendingIn('slack:T')).toEqual([]);
    });
  });

  describe('audit', () => {
    beforeEach(async () => {
      await store.audit.record({
        at: T0,
        conversation: CHANNEL,
        actor: ALICE,
        action: 'approval.requested',
        videoId: 'v1',
      });
      await store.audit.record({
        at: T0 + 10,
        conversation: 'slack:T1:C2',
        actor: BOB,
        action: 'approval.approved',
        videoId: 'v1',
        credits: 12.5,
        details: { platform: 'youtube', nested: { ok: true } },
      });
      await store.audit.record({
        at: T0 + 20,
        conversation: 'slack:T10:C1',
        actor: BOB,
        action: 'video.created',
        seriesId: 's1',
      });
      await store.audit.record({
        at: T0 + 30,
        conversation: OTHER_CHANNEL,
        actor: 'discord:G1:U1',
        action: 'video.created',
      });
    });

    it('lists one workspace newest first, with optional fields as recorded', async () => {
      expect(await store.audit.list({ workspacePrefix: 'slack:T1:' })).toStrictEqual([
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
      expect((await store.audit.list({ workspacePrefix: 'slack:T10:' })).map((e) => e.seriesId)).toEqual([
        's1',
      ]);
      expect(await store.audit.list({ workspacePrefix: 'discord:G1:' })).toHaveLength(1);
      expect(await store.audit.list({ workspacePrefix: 'slack:T_:' })).toEqual([]);
    });

    it('filters by video and a [from, to) window, and limits', async () => {
      const actions = async (query: Parameters<Store['audit']['list']>[0]) =>
        (await store.audit.list(query)).map((e) => e.at - T0);
      expect(await actions({ workspacePrefix: 'slack:', videoId: 'v1' })).toEqual([10, 0]);
      expect(await actions({ workspacePrefix: 'slack:', videoId: 'v2' })).toEqual([]);
      expect(await actions({ workspacePrefix: 'slack:', from: T0 + 10, to: T0 + 20 })).toEqual([10]);
      expect(await actions({ workspacePrefix: '', limit: 2 })).toEqual([30, 20]);
      expect(await actions({ workspacePrefix: '', limit: 0 })).toEqual([30]);
    });
  });
});

// SQLite only: two connections to one file (PostgreSQL's replicas race in store-postgres-replicas.test.ts).
describe('approvals across connections (SQLite)', () => {
  it('lets exactly one of two processes decide the same approval', async () => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, 'reelbot.db');
    const secretKey = newSecretKey();
    const first = openStore({ path, secretKey });
    const second = openStore({ path, secretKey });
    try {
      await first.approvals.create({
        id: 'apr_1',
        conversation: CHANNEL,
        requester: ALICE,
        action: { command: 'publish', args: {}, idempotencyKey: 'k', summary: 'Publish' },
        cardKey: 'card:apr_1',
        expiresAt: null,
      });
      const results = [
        await second.approvals.decide('apr_1', { status: 'approved', by: BOB, at: T0 }),
        await first.approvals.decide('apr_1', { status: 'rejected', by: ALICE, at: T0 }),
      ];
      expect(results).toEqual([true, false]);
      expect(await first.approvals.get('apr_1')).toMatchObject({ status: 'approved', decidedBy: BOB });
    } finally {
      await first.close();
      await second.close();
      cleanup();
    }
  });
});
