/**
 * The `series` watch, end to end: episodes generated on the simulator's cadence get exactly one card each
 * in the conversation that follows the series; pause stops them; a deleted series ends the watch once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seriesWatcher, watchSeries } from '../../../src/core/live/series-watcher.js';
import { DEMO_KEY } from '../../support/harness.js';
import { confirmed, DAY, HOUR, idFrom, MINUTE, type SeriesHarness, seriesHarness } from './helpers.js';

let h: SeriesHarness;
let seriesId: string;
/** The harness starts on Monday 23 Nov 2026, 08:00 UTC; the series posts daily at 09:00 UTC. */
const SLOT = Date.parse('2026-11-23T09:00:00Z');

beforeEach(async () => {
  h = await seriesHarness();
  seriesId = idFrom(
    await confirmed(h, h.run('series create "Night Terrors" --source ai_story --schedule "daily 09:00 UTC"')),
  );
});
afterEach(() => h.close());

/** Episode cards in one conversation, by title. */
const episodeCards = (conversation = h.conversation) =>
  h.chat.channelMessages.filter(
    (p) => p.conversation === conversation && /^Night Terrors — Episode \d+$/.test(p.card.title),
  );
const titles = (conversation?: string) => episodeCards(conversation).map((p) => p.card.title);
const episodes = async () => (await h.api.series.episodes(seriesId, { limit: 100 })).items;

describe('series watch', () => {
  it('posts one card per new episode, just after the posting slot', async () => {
    expect(titles()).toEqual(['Night Terrors — Episode 1']);
    await h.until(() => episodeCards().length === 2, { stepMs: MINUTE, maxMs: 3 * HOUR });
    expect(titles()).toEqual(['Night Terrors — Episode 1', 'Night Terrors — Episode 2']);
    // Adaptive: it looked right after 09:00, not at the next five-minute mark.
    expect(h.clock.now()).toBeLessThanOrEqual(SLOT + 2 * MINUTE);

    // The new card is live: a generation watch edits it.
    const ep2 = (await episodes())[0]?.projectId as string;
    expect((await h.store.watches.findActive('generation', ep2))?.conversation).toBe(h.conversation);

    // Quiet hours add nothing.
    for (let i = 0; i < 12; i++) await h.advance(30 * MINUTE);
    expect(episodeCards()).toHaveLength(2);
  });

  it('catches up after a long gap with exactly one card per episode, and never repeats one', async () => {
    // Thursday 09:00 + 1 h: the slots of Monday to Thursday each made one episode after the first.
    await h.advance(3 * DAY + HOUR);
    const all = await episodes();
    expect(all).toHaveLength(5);
    expect(titles().sort()).toEqual([1, 2, 3, 4, 5].map((n) => `Night Terrors — Episode ${n}`));
    for (const e of all) {
      expect(
        h.chat.channelMessages.filter((p) => p.card.context?.includes(e.projectId as string)),
      ).toHaveLength(1);
    }
    for (let i = 0; i < 6; i++) await h.advance(10 * MINUTE);
    expect(episodeCards()).toHaveLength(5);
    // One charge per episode in the simulator's ledger.
    expect(h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0)).toHaveLength(5);
  });

  it('records what exists on its first look when it starts unprimed (a subscription), then posts only new ones', async () => {
    const other = 'playground:W1:C2';
    await h.advance(2 * DAY);
    expect(await episodes()).toHaveLength(3);
    await h.store.transaction(
      async () =>
        await watchSeries(h.store, {
          seriesId,
          conversation: other,
          owner: 'playground:W1:alice',
          now: h.clock.now(),
          primed: false,
        }),
    );
    await h.advance(2 * MINUTE);
    expect(episodeCards(other)).toEqual([]);
    await h.advance(DAY);
    expect(titles(other)).toEqual(['Night Terrors — Episode 4']);
  });

  it('follows a series once per conversation', async () => {
    await h.store.transaction(
      async () =>
        await watchSeries(h.store, {
          seriesId,
          conversation: h.conversation,
          owner: '',
          now: h.clock.now(),
          primed: false,
        }),
    );
    expect((await h.store.watches.active()).filter((w) => w.kind === 'series')).toHaveLength(1);
  });

  it('posts nothing while the series is paused, and picks up again after resume', async () => {
    await h.run('series pause night');
    const before = (await episodes()).length;
    for (let i = 0; i < 3 * 24; i++) await h.advance(HOUR);
    expect(await episodes()).toHaveLength(before);
    expect(episodeCards()).toHaveLength(1);
    // While paused it looks at most every 15 minutes, not every 5.
    const watch = await h.store.watches.findActive('series', seriesId);
    expect((watch?.nextCheckAt ?? 0) - h.clock.now()).toBeGreaterThan(5 * MINUTE);

    await confirmed(h, h.run('series resume night'));
    await h.until(() => episodeCards().length === 2, { stepMs: 10 * MINUTE, maxMs: 2 * DAY });
    expect(await episodes()).toHaveLength(before + 1);
  });

  it('stops posting here after `unsubscribe series`', async () => {
    await h.run('unsubscribe series night');
    expect(await h.store.watches.findActive('series', seriesId)).toBeUndefined();
    await h.advance(DAY);
    expect(await episodes()).toHaveLength(2);
    expect(episodeCards()).toHaveLength(1);
  });

  it('ends with one message when the series is deleted elsewhere', async () => {
    await h.api.series.delete(seriesId);
    await h.advance(10 * MINUTE);
    const gone = h.chat.channelMessages.filter((p) => p.card.title.includes('was deleted'));
    expect(gone).toHaveLength(1);
    expect(gone[0]?.card.title).toBe('Series “Night Terrors” was deleted');
    expect(await h.store.watches.findActive('series', seriesId)).toBeUndefined();
    for (let i = 0; i < 5; i++) await h.advance(HOUR);
    expect(h.chat.channelMessages.filter((p) => p.card.title.includes('was deleted'))).toHaveLength(1);
  });

  it('says goodbye once when the watch expires', async () => {
    const watch = await h.store.watches.findActive('series', seriesId);
    if (!watch) throw new Error('no series watch');
    await h.store.transaction(async () => {
      await seriesWatcher.expire({ store: h.store, watch: watch, now: h.clock.now(), reason: 'expired' });
      await seriesWatcher.expire({ store: h.store, watch: watch, now: h.clock.now(), reason: 'expired' });
    });
    await h.flush();
    const bye = h.chat.channelMessages.filter((p) => p.card.title.startsWith('Stopped following'));
    expect(bye).toHaveLength(1);
    expect(bye[0]?.card.text).toContain('/reel subscribe series');
  });
});
