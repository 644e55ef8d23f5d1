/**
 * The `Store` contract (watches, cards, interaction state, card states and projections), run against real SQLite
 * (in memory, in a temp file) and a real PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { projectionsOf, showVideo } from '../../src/core/live/projections.js';
import { ALICE, BOB, CHANNEL, card, HOUR, newWatch, OTHER_CHANNEL, T0 } from './helpers.js';
import { clock, explain, store, storeContract } from './store-contract.js';

storeContract('watches and cards', () => {
  describe('watches', () => {
    it('adds an active watch with a generated or given id and reads it back', async () => {
      const watch = await store.watches.add(newWatch());
      expect(watch).toEqual({ ...newWatch(), id: expect.any(String), status: 'active', createdAt: T0 });
      expect(await store.watches.get(watch.id)).toEqual(watch);
      expect((await store.watches.add(newWatch({ id: 'w-fixed', target: 'vid_2' }))).id).toBe('w-fixed');
      expect(await store.watches.get('w-missing')).toBeUndefined();
    });

    it('returns due active watches soonest first, up to the limit', async () => {
      const late = await store.watches.add(newWatch({ target: 'a', nextCheckAt: T0 + 30 }));
      const early = await store.watches.add(newWatch({ target: 'b', nextCheckAt: T0 + 10 }));
      const middle = await store.watches.add(newWatch({ target: 'c', nextCheckAt: T0 + 20 }));
      await store.watches.add(newWatch({ target: 'future', nextCheckAt: T0 + 1000 }));
      const finished = await store.watches.add(newWatch({ target: 'done', nextCheckAt: T0 }));
      await store.watches.update(finished.id, { status: 'done' });

      expect((await store.watches.due(T0 + 30, 10)).map((w) => w.id)).toEqual([early.id, middle.id, late.id]);
      expect((await store.watches.due(T0 + 30, 2)).map((w) => w.id)).toEqual([early.id, middle.id]);
      expect(await store.watches.due(T0 + 9, 10)).toEqual([]);
      expect((await store.watches.active()).map((w) => w.target)).toEqual(['b', 'c', 'a', 'future']);
    });

    it('finds the active watch for a kind and target', async () => {
      const first = await store.watches.add(newWatch({ kind: 'render', target: 'rnd_1' }));
      expect((await store.watches.findActive('render', 'rnd_1'))?.id).toBe(first.id);
      expect(await store.watches.findActive('generation', 'rnd_1')).toBeUndefined();
      await store.watches.update(first.id, { status: 'expired' });
      expect(await store.watches.findActive('render', 'rnd_1')).toBeUndefined();
    });

    it('finds the active watch for a kind and target in one conversation', async () => {
      const here = await store.watches.add(
        newWatch({ kind: 'schedule', target: 'vid_1', conversation: CHANNEL }),
      );
      const there = await store.watches.add(
        newWatch({ kind: 'schedule', target: 'vid_1', conversation: OTHER_CHANNEL }),
      );
      expect((await store.watches.findActiveIn('schedule', 'vid_1', CHANNEL))?.id).toBe(here.id);
      expect((await store.watches.findActiveIn('schedule', 'vid_1', OTHER_CHANNEL))?.id).toBe(there.id);
      expect(await store.watches.findActiveIn('render', 'vid_1', CHANNEL)).toBeUndefined();
      expect(await store.watches.findActiveIn('schedule', 'vid_2', CHANNEL)).toBeUndefined();
      await store.watches.update(here.id, { status: 'done' });
      expect(await store.watches.findActiveIn('schedule', 'vid_1', CHANNEL)).toBeUndefined();
      expect((await store.watches.findActiveIn('schedule', 'vid_1', OTHER_CHANNEL))?.id).toBe(there.id);
    });

    it('looks active watches up by any of kind, target, owner, conversation and card, through an index', async () => {
      const a = await store.watches.add(
        newWatch({ kind: 'series', target: 's1', owner: ALICE, cardKey: 'card:1' }),
      );
      const b = await store.watches.add(
        newWatch({ kind: 'approval', target: 'ap1', owner: BOB, conversation: OTHER_CHANNEL }),
      );
      const c = await store.watches.add(
        newWatch({ kind: 'series', target: 's1', owner: BOB, conversation: OTHER_CHANNEL }),
      );
      const ids = async (filter: Parameters<typeof store.watches.activeWhere>[0]) =>
        (await store.watches.activeWhere(filter)).map((w) => w.id);
      expect(await ids({ kind: 'series', target: 's1' })).toEqual([a.id, c.id]);
      expect(await ids({ owner: BOB })).toEqual([b.id, c.id]);
      expect(await ids({ kind: 'approval', conversation: OTHER_CHANNEL })).toEqual([b.id]);
      expect(await ids({ cardKey: 'card:1' })).toEqual([a.id]);
      expect(await ids({ cardKey: 'card:2' })).toEqual([]);
      await store.watches.update(c.id, { status: 'done' });
      expect(await ids({ owner: BOB })).toEqual([b.id]);
      await expect(store.watches.activeWhere({})).rejects.toThrow(/at least one field/);
      // Each lookup uses an index rather than reading every active watch.
      for (const [where, index] of [
        ["owner = 'u'", 'watches_owner'],
        ["card_key = 'c'", 'watches_card'],
        ["kind = 'series' AND target = 's1'", 'watches_target'],
      ]) {
        const plan = await explain(`SELECT * FROM watches WHERE status = 'active' AND ${where}`);
        // SQLite: 'SEARCH watches USING INDEX watches_owner (…)'; PostgreSQL: 'Index Scan using watches_owner on
        // watches' or 'Bitmap Index Scan on watches_owner'.
        expect(plan).toMatch(new RegExp(`(using index|using|index scan on) ${index}\\b`, 'i'));
      }
    });

    it('patches only the given fields; state is replaced, cardKey can be cleared', async () => {
      const watch = await store.watches.add(newWatch({ state: { percent: 10, samples: [1, 2] } }));

      await store.watches.update(watch.id, { nextCheckAt: T0 + 99 });
      expect(await store.watches.get(watch.id)).toEqual({ ...watch, nextCheckAt: T0 + 99 });

      await store.watches.update(watch.id, { state: { percent: 50 } });
      expect((await store.watches.get(watch.id))?.state).toEqual({ percent: 50 });

      await store.watches.update(watch.id, { cardKey: null });
      expect((await store.watches.get(watch.id))?.cardKey).toBeNull();
      await store.watches.update(watch.id, { cardKey: 'card:new', status: 'done' });
      expect(await store.watches.get(watch.id)).toEqual({
        ...watch,
        nextCheckAt: T0 + 99,
        state: { percent: 50 },
        cardKey: 'card:new',
        status: 'done',
      });
      // Nothing to patch, or an unknown id: no change, no error.
      await store.watches.update(watch.id, {});
      await store.watches.update('w-missing', { status: 'done' });
      expect((await store.watches.get(watch.id))?.cardKey).toBe('card:new');
    });

    it('keeps fractional times as given', async () => {
      const watch = await store.watches.add(newWatch({ nextCheckAt: T0 + 12.5 }));
      expect((await store.watches.get(watch.id))?.nextCheckAt).toBe(T0 + 12.5);
    });
  });

  describe('cards', () => {
    it('creates, replaces content and model, and keeps the message once set', async () => {
      expect(await store.cards.get('card:1')).toBeUndefined();
      const created = await store.cards.put('card:1', { conversation: CHANNEL, card: card('Generating') });
      expect(created).toEqual({
        key: 'card:1',
        conversation: CHANNEL,
        message: null,
        card: card('Generating'),
        model: {},
        updatedAt: T0,
      });

      await store.cards.setMessage('card:1', `${CHANNEL}:1700000000.000100`);
      clock.advance(500);
      const updated = await store.cards.put('card:1', {
        conversation: OTHER_CHANNEL,
        card: card('Done'),
        model: { step: 'done', percent: 100 },
      });
      expect(updated).toEqual({
        key: 'card:1',
        conversation: CHANNEL,
        message: `${CHANNEL}:1700000000.000100`,
        card: card('Done'),
        model: { step: 'done', percent: 100 },
        updatedAt: T0 + 500,
      });
      expect(await store.cards.get('card:1')).toEqual(updated);

      // Without a model, the stored one is kept.
      expect((await store.cards.put('card:1', { conversation: CHANNEL, card: card('Again') })).model).toEqual(
        {
          step: 'done',
          percent: 100,
        },
      );
    });

    it('follows the conversation until the card is posted', async () => {
      await store.cards.put('card:2', { conversation: CHANNEL, card: card('a') });
      expect(
        (await store.cards.put('card:2', { conversation: OTHER_CHANNEL, card: card('b') })).conversation,
      ).toBe(OTHER_CHANNEL);
    });
  });

  describe('interaction state', () => {
    it('keeps JSON values by key until they expire, replaces them, and prunes the expired', async () => {
      const form = {
        id: 'series.create',
        inputs: [{ id: 'name', value: 'Night Terrors' }],
        note: 'é \u00e9',
      };
      await store.interactions.put([
        { key: 'discord:form:a', value: form, ttlMs: HOUR },
        { key: 'discord:value:b', value: 'Europe/Paris|{"c":"calendar"}', ttlMs: 60_000 },
      ]);
      expect(await store.interactions.get('discord:form:a')).toEqual(form);
      expect(await store.interactions.get('discord:value:b')).toBe('Europe/Paris|{"c":"calendar"}');
      expect(await store.interactions.get('discord:form:unknown')).toBeUndefined();

      await store.interactions.put([{ key: 'discord:form:a', value: { ...form, id: 'again' }, ttlMs: HOUR }]);
      expect(await store.interactions.get('discord:form:a')).toMatchObject({ id: 'again' });

      clock.advance(60_000);
      expect(await store.interactions.get('discord:value:b')).toBeUndefined();
      expect(await store.interactions.get('discord:form:a')).toMatchObject({ id: 'again' });
      expect(await store.interactions.prune()).toBe(1);
      expect(await store.interactions.prune()).toBe(0);
    });

    it('gives a taken value once, and never an expired one', async () => {
      await store.interactions.put([
        { key: 'asked', value: { token: 't1' }, ttlMs: 1_000, sealed: true },
        { key: 'late', value: 1, ttlMs: 1_000 },
      ]);
      expect(await store.interactions.get('asked')).toEqual({ token: 't1' });
      expect(await store.interactions.take('asked')).toEqual({ token: 't1' });
      expect(await store.interactions.take('asked')).toBeUndefined();
      clock.advance(1_000);
      expect(await store.interactions.take('late')).toBeUndefined();
    });

    it('writes many entries at once (a time-zone question keeps one value an option)', async () => {
      const entries = Array.from({ length: 130 }, (_, i) => ({
        key: `v${i}`,
        value: `zone ${i}`,
        ttlMs: HOUR,
      }));
      await store.interactions.put(entries);
      expect(await store.interactions.get('v0')).toBe('zone 0');
      expect(await store.interactions.get('v129')).toBe('zone 129');
      // The same key twice in one call (a confirmation shown twice on a card): the last one is kept.
      await store.interactions.put([
        { key: 'v0', value: 'first', ttlMs: HOUR },
        { key: 'v0', value: 'second', ttlMs: HOUR },
      ]);
      expect(await store.interactions.get('v0')).toBe('second');
    });
  });

  describe('card states and projections', () => {
    const model = (videoId: string) => ({ videoId, name: videoId, phase: 'completed' as const });

    it("edits only the cards a new projection changes: another team's conversation leaves them as they were", async () => {
      await store.transaction(() =>
        showVideo(store, { model: model('v1'), conversation: 'slack:T1:C1', now: T0 }),
      );
      const slack = await store.outbox.depth('slack');
      await store.transaction(() =>
        showVideo(store, { model: model('v1'), conversation: 'discord:G1:7', now: T0 + 1 }),
      );
      expect(await store.outbox.depth('slack')).toBe(slack);
      expect(await store.outbox.depth('discord')).toBe(1);
      // The same team's second channel changes the first card ("also live in"): one edit for it.
      await store.transaction(() =>
        showVideo(store, { model: model('v1'), conversation: 'slack:T1:C2', now: T0 + 2 }),
      );
      expect(await store.outbox.depth('slack')).toBe(slack + 2);
    });

    it('keeps one state per video; projections are found by prefix; a purge takes a state with its last card', async () => {
      await store.transaction(async () => {
        await showVideo(store, { model: model('v1'), conversation: 'slack:T1:C1', now: T0 });
        await showVideo(store, { model: model('v1'), conversation: 'slack:T2:C1', now: T0 + 1 });
        await showVideo(store, { model: model('v2'), conversation: 'slack:T1:C2', now: T0 + 2 });
        // A key that only starts the same way is not a projection of v1.
        await showVideo(store, { model: model('v10'), conversation: 'slack:T2:C9', now: T0 + 3 });
      });
      expect((await projectionsOf(store, 'v1')).map((p) => p.conversation)).toEqual([
        'slack:T1:C1',
        'slack:T2:C1',
      ]);
      expect(await store.cards.withPrefix('video:v1@')).toHaveLength(2);
      expect(await store.cardStates.get('video:v1')).toMatchObject({ name: 'v1' });

      const purged = await store.purgeWorkspace({ workspaces: ['slack:T1'], installations: [] });
      expect(purged.cardStates).toBe(1);
      expect(await store.cardStates.get('video:v2')).toBeUndefined();
      expect(await store.cardStates.get('video:v1')).toBeDefined();
      expect(await store.cardStates.get('video:v10')).toBeDefined();
      expect((await projectionsOf(store, 'v1')).map((p) => p.conversation)).toEqual(['slack:T2:C1']);
    });
  });
});
