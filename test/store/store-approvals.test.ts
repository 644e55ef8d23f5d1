/**
 * The `Store` contract (approvals and the audit log), run against real SQLite (in memory, in a temp file) and a
 * real PostgreSQL; approvals across two connections on one SQLite file.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/core/ports/index.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { ALICE, BOB, CHANNEL, HOUR, newSecretKey, OTHER_CHANNEL, T0, tempDir } from './helpers.js';
import { clock, store, storeContract } from './store-contract.js';

storeContract('approvals', () => {
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

  describe('approval stages', () => {
    const request = {
      id: 'apr_s',
      conversation: CHANNEL,
      requester: ALICE,
      action: {
        command: 'publish',
        args: { videoId: 'vid_1', platform: 'youtube' },
        idempotencyKey: 'b1f6c3e2-7a0d-4b8e-9c2f-0d1e2f3a4b5c',
        summary: 'Publish vid_1 to YouTube',
      },
      cardKey: 'card:apr_s',
      expiresAt: T0 + HOUR,
    };
    const CAROL = 'slack:T1:U3';
    const vote = (by: string, stage: number, round = 0) =>
      store.approvals.vote('apr_s', { round, stage, by, covers: [by], at: clock.now() });

    it('keeps a request without stages as before: one stage, approved by one vote and one decision', async () => {
      const created = await store.approvals.create(request);
      expect(created).toStrictEqual({ ...request, status: 'pending', createdAt: T0 });
      expect(await vote(BOB, 0)).toBe(true);
      expect(await store.approvals.decide('apr_s', { status: 'approved', by: BOB, at: T0 + 1 })).toBe(true);
      expect(await store.approvals.get('apr_s')).toStrictEqual({
        ...created,
        status: 'approved',
        decidedBy: BOB,
        decidedAt: T0 + 1,
      });
    });

    it('counts each approver once, only at the stage the request waits at, and moves it on once', async () => {
      await store.approvals.create(request);
      expect([await vote(BOB, 0), await vote(BOB, 0), await vote(CAROL, 1)]).toEqual([true, false, false]);
      expect(await store.approvals.advance('apr_s', { round: 0, from: 0, to: 1 })).toBe(true);
      expect(await store.approvals.advance('apr_s', { round: 0, from: 0, to: 1 })).toBe(false);
      expect((await store.approvals.get('apr_s'))?.stage).toBe(1);
      clock.advance(5);
      expect([await vote(CAROL, 0), await vote(CAROL, 1), await vote(BOB, 1)]).toEqual([false, true, true]);
      expect(await store.approvals.votes('apr_s', 0)).toEqual([
        { stage: 0, by: BOB, covers: [BOB], at: T0 },
        { stage: 1, by: BOB, covers: [BOB], at: T0 + 5 },
        { stage: 1, by: CAROL, covers: [CAROL], at: T0 + 5 },
      ]);
      await store.approvals.decide('apr_s', { status: 'rejected', by: BOB, at: T0 + 6 });
      expect(await vote(ALICE, 1)).toBe(false);
      expect(await store.approvals.advance('apr_s', { round: 0, from: 1, to: 2 })).toBe(false);
    });

    it('reopens a request sent back for changes at the first stage of a new round, once', async () => {
      await store.approvals.create(request);
      await vote(BOB, 0);
      await store.approvals.advance('apr_s', { round: 0, from: 0, to: 1 });
      expect(await store.approvals.reopen('apr_s', { expiresAt: T0 + 2 * HOUR })).toBe(false);
      await store.approvals.decide('apr_s', { status: 'changes', by: CAROL, at: T0 + 1, reason: 'logo' });
      expect((await store.approvals.sentBack(CHANNEL, ALICE)).map((a) => a.id)).toEqual(['apr_s']);
      expect(await store.approvals.sentBack(CHANNEL, BOB)).toEqual([]);
      expect(await store.approvals.sentBack(OTHER_CHANNEL, ALICE)).toEqual([]);
      expect(await store.approvals.get('apr_s')).toMatchObject({
        status: 'changes',
        reason: 'logo',
        stage: 1,
      });
      expect(await store.approvals.reopen('apr_s', { expiresAt: T0 + 2 * HOUR })).toBe(true);
      expect(await store.approvals.reopen('apr_s', { expiresAt: T0 + 3 * HOUR })).toBe(false);
      expect(await store.approvals.sentBack(CHANNEL, ALICE)).toEqual([]);
      expect(await store.approvals.get('apr_s')).toStrictEqual({
        ...request,
        status: 'pending',
        createdAt: T0,
        expiresAt: T0 + 2 * HOUR,
        round: 1,
      });
      // The first round's votes stay its own: the new round starts with none.
      expect(await vote(BOB, 0, 0)).toBe(false);
      expect(await store.approvals.votes('apr_s', 1)).toEqual([]);
      expect(await vote(BOB, 0, 1)).toBe(true);
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
