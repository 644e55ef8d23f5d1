/**
 * The `Store` contract (state of people and channels: keys, users, settings, policies, subscriptions), run against
 * real SQLite (in memory, in a temp file) and a real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { defaultPolicy, workspacePolicy } from '../../src/core/approvals/workspace-policy.js';
import { DEFAULT_CHANNEL_SETTINGS } from '../../src/core/ports/index.js';
import { ALICE, BOB, CHANNEL, OTHER_CHANNEL, T0 } from './helpers.js';
import { clock, store, storeContract } from './store-contract.js';

storeContract('state', () => {
  describe('keys', () => {
    const key = { apiKey: 'fl_live_abc123', keyPrefix: 'fl_live_abc', teamId: 'team_1', teamName: 'Acme' };

    it('stores, reads back, overwrites and deletes a linked key', async () => {
      expect(await store.keys.get(ALICE)).toBeUndefined();
      await store.keys.put(ALICE, key);
      expect(await store.keys.get(ALICE)).toEqual({ ...key, linkedAt: T0 });

      clock.advance(1000);
      await store.keys.put(ALICE, { ...key, apiKey: 'fl_live_xyz789', keyPrefix: 'fl_live_xyz' });
      expect(await store.keys.get(ALICE)).toMatchObject({ apiKey: 'fl_live_xyz789', linkedAt: T0 + 1000 });
      expect(await store.keys.get(BOB)).toBeUndefined();

      expect(await store.keys.delete(ALICE)).toBe(true);
      expect(await store.keys.delete(ALICE)).toBe(false);
      expect(await store.keys.get(ALICE)).toBeUndefined();
    });
  });

  describe('users', () => {
    it('keeps a time zone and the last video and series separately per user', async () => {
      expect(await store.users.getTimeZone(ALICE)).toBeUndefined();
      expect(await store.users.getLast(ALICE, 'video')).toBeUndefined();

      await store.users.setLast(ALICE, 'video', 'vid_1');
      await store.users.setTimeZone(ALICE, 'Europe/Paris');
      await store.users.setLast(ALICE, 'series', 'ser_1');
      await store.users.setLast(ALICE, 'video', 'vid_2');
      await store.users.setTimeZone(BOB, 'America/New_York');

      expect(await store.users.getTimeZone(ALICE)).toBe('Europe/Paris');
      expect(await store.users.getLast(ALICE, 'video')).toBe('vid_2');
      expect(await store.users.getLast(ALICE, 'series')).toBe('ser_1');
      expect(await store.users.getTimeZone(BOB)).toBe('America/New_York');
      expect(await store.users.getLast(BOB, 'video')).toBeUndefined();
    });

    it('keeps how each member is pinged, next to their other preferences', async () => {
      expect(await store.users.getNotify(ALICE)).toBeUndefined();
      await store.users.setTimeZone(ALICE, 'Europe/Paris');
      await store.users.setNotify(ALICE, 'dm');
      await store.users.setNotify(BOB, 'off');
      await store.users.setNotify(BOB, 'mention');
      expect(await store.users.getNotify(ALICE)).toBe('dm');
      expect(await store.users.getTimeZone(ALICE)).toBe('Europe/Paris');
      expect(await store.users.getNotify(BOB)).toBe('mention');
    });
  });

  describe('settings', () => {
    it('returns a fresh copy of the defaults for an unknown conversation', async () => {
      const settings = await store.settings.get(CHANNEL);
      expect(settings).toEqual(DEFAULT_CHANNEL_SETTINGS);
      settings.approvers.push(BOB);
      settings.roles.admin = [BOB];
      expect(DEFAULT_CHANNEL_SETTINGS.approvers).toEqual([]);
      expect((await store.settings.get(CHANNEL)).roles.admin).toBe('everyone');
    });

    it('lists the stored conversations of one workspace, by conversation, and no other', async () => {
      const tightened = { ...DEFAULT_CHANNEL_SETTINGS, here: { roles: { publish: [BOB] } } };
      await store.settings.put('slack:T1:C2', tightened);
      await store.settings.put(CHANNEL, { ...DEFAULT_CHANNEL_SETTINGS, threading: false });
      await store.settings.put('slack:T10:C1', tightened);
      await store.settings.put('slack:T:C1', tightened);
      await store.settings.put(OTHER_CHANNEL, tightened);
      const listed = await store.settings.inWorkspace('slack:T1');
      expect(listed.map((r) => r.conversation)).toEqual([CHANNEL, 'slack:T1:C2']);
      expect(listed[1]?.settings).toEqual(tightened);
      expect((await store.settings.inWorkspace('discord:G1')).map((r) => r.conversation)).toEqual([
        OTHER_CHANNEL,
      ]);
      expect(await store.settings.inWorkspace('slack:T2')).toEqual([]);
    });

    it('round-trips settings per conversation', async () => {
      const settings = {
        ...DEFAULT_CHANNEL_SETTINGS,
        threading: false,
        timeZone: 'Asia/Tokyo',
        approval: 'publish' as const,
        approvers: [BOB, 'slack-group:S1'],
        roles: { publish: [ALICE], spend: [], admin: [BOB] },
      };
      await store.settings.put(CHANNEL, settings);
      expect(await store.settings.get(CHANNEL)).toEqual(settings);
      expect(await store.settings.get(OTHER_CHANNEL)).toEqual(DEFAULT_CHANNEL_SETTINGS);
      await store.settings.put(CHANNEL, DEFAULT_CHANNEL_SETTINGS);
      expect(await store.settings.get(CHANNEL)).toEqual(DEFAULT_CHANNEL_SETTINGS);
    });
  });

  describe('policies', () => {
    it('keeps a workspace policy as written; a row from before `everyone` reads as everyone in the core', async () => {
      const legacy = {
        ...defaultPolicy(),
        approval: 'publish' as const,
        roles: { publish: [] as string[], spend: [BOB], admin: [] as string[] },
      };
      await store.policies.put('slack:T1', legacy);
      expect(await store.policies.get('slack:T1')).toEqual(legacy);
      expect((await workspacePolicy(store, 'slack:T1')).roles).toEqual({
        publish: 'everyone',
        spend: [BOB],
        admin: 'everyone',
      });
      const written = { ...legacy, roles: { publish: [ALICE], spend: 'everyone' as const, admin: [BOB] } };
      await store.policies.put('slack:T1', written);
      expect(await store.policies.get('slack:T1')).toEqual(written);
      expect((await workspacePolicy(store, 'slack:T1')).roles).toEqual(written.roles);
      expect((await workspacePolicy(store, 'slack:T9')).roles.publish).toBe('everyone');
    });
  });

  describe('subscriptions', () => {
    it('adds once, lists per conversation in creation order, removes', async () => {
      expect(
        await store.subscriptions.add({ conversation: CHANNEL, kind: 'calendar', target: '', owner: ALICE }),
      ).toBe(true);
      clock.advance(1);
      expect(
        await store.subscriptions.add({ conversation: CHANNEL, kind: 'series', target: 'ser_1', owner: BOB }),
      ).toBe(true);
      expect(
        await store.subscriptions.add({ conversation: CHANNEL, kind: 'calendar', target: '', owner: BOB }),
      ).toBe(false);
      await store.subscriptions.add({ conversation: OTHER_CHANNEL, kind: 'videos', target: '', owner: BOB });

      expect(await store.subscriptions.list(CHANNEL)).toEqual([
        { conversation: CHANNEL, kind: 'calendar', target: '', owner: ALICE, createdAt: T0 },
        { conversation: CHANNEL, kind: 'series', target: 'ser_1', owner: BOB, createdAt: T0 + 1 },
      ]);
      expect(await store.subscriptions.remove(CHANNEL, 'series', 'ser_1')).toBe(true);
      expect(await store.subscriptions.remove(CHANNEL, 'series', 'ser_1')).toBe(false);
      expect((await store.subscriptions.list(CHANNEL)).map((s) => s.kind)).toEqual(['calendar']);
      expect(await store.subscriptions.list(OTHER_CHANNEL)).toHaveLength(1);
      expect(await store.subscriptions.list('slack:T1:C404')).toEqual([]);
    });

    it('keeps filters with the row, replaces them, and reads no filters as none', async () => {
      const filters = { platform: 'tiktok', status: 'failed' as const };
      await store.subscriptions.add({
        conversation: CHANNEL,
        kind: 'calendar',
        target: '',
        owner: ALICE,
        filters,
      });
      await store.subscriptions.add({ conversation: CHANNEL, kind: 'videos', target: '', owner: ALICE });
      const listed = await store.subscriptions.list(CHANNEL);
      expect(listed.map((s) => s.filters)).toEqual([filters, undefined]);
      expect(listed[1]).not.toHaveProperty('filters');

      const sub = { conversation: CHANNEL, kind: 'calendar' as const, target: '' };
      expect(await store.subscriptions.setFilters(sub, { by: BOB })).toBe(true);
      expect((await store.subscriptions.inWorkspace('slack:T1'))[0]?.filters).toEqual({ by: BOB });
      expect(await store.subscriptions.setFilters(sub, {})).toBe(true);
      expect((await store.subscriptions.list(CHANNEL))[0]).not.toHaveProperty('filters');
      expect(await store.subscriptions.setFilters({ ...sub, conversation: OTHER_CHANNEL }, {})).toBe(false);
    });
  });

  describe('digests', () => {
    it('keeps a digest subscription with its schedule, daily and weekly side by side', async () => {
      const daily = { at: '09:00', zone: 'Europe/Paris' };
      const weekly = { at: '08:30', day: 'monday', zone: 'Europe/Paris' };
      await store.subscriptions.add({
        conversation: CHANNEL,
        kind: 'digest',
        target: 'daily',
        owner: ALICE,
        filters: daily,
      });
      await store.subscriptions.add({
        conversation: CHANNEL,
        kind: 'digest',
        target: 'weekly',
        owner: ALICE,
        filters: weekly,
      });
      expect((await store.subscriptions.list(CHANNEL)).map((s) => [s.target, s.filters])).toEqual([
        ['daily', daily],
        ['weekly', weekly],
      ]);
    });

    it('claims a period once per conversation and kind', async () => {
      expect(await store.digests.claim({ conversation: CHANNEL, kind: 'daily', period: '2026-11-30' })).toBe(
        true,
      );
      expect(await store.digests.claim({ conversation: CHANNEL, kind: 'daily', period: '2026-11-30' })).toBe(
        false,
      );
      clock.advance(5);
      expect(await store.digests.claim({ conversation: CHANNEL, kind: 'weekly', period: '2026-11-30' })).toBe(
        true,
      );
      expect(
        await store.digests.claim({ conversation: OTHER_CHANNEL, kind: 'daily', period: '2026-11-30' }),
      ).toBe(true);
      expect(await store.digests.claim({ conversation: CHANNEL, kind: 'daily', period: '2026-12-01' })).toBe(
        true,
      );
      expect(await store.digests.sent(CHANNEL)).toEqual([
        { conversation: CHANNEL, kind: 'daily', period: '2026-11-30', sentAt: T0 },
        { conversation: CHANNEL, kind: 'weekly', period: '2026-11-30', sentAt: T0 + 5 },
        { conversation: CHANNEL, kind: 'daily', period: '2026-12-01', sentAt: T0 + 5 },
      ]);
    });

    it('a claim rolled back with its transaction is not kept', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.digests.claim({ conversation: CHANNEL, kind: 'daily', period: '2026-11-30' });
          throw new Error('the outbox insert failed');
        }),
      ).rejects.toThrow('the outbox insert failed');
      expect(await store.digests.sent(CHANNEL)).toEqual([]);
      expect(await store.digests.claim({ conversation: CHANNEL, kind: 'daily', period: '2026-11-30' })).toBe(
        true,
      );
    });
  });
});
