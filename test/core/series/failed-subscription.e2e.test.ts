/**
 * `subscribe series <s> --status failed` (issue 32, filtered subscriptions), end to end on the core over the
 * simulator's HTTP, both profiles: only the series' failed episodes (a failed generation, a failed post) reach
 * that channel, once each; a channel following the whole series still gets every episode's card.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_PROFILES } from '../../../src/simulator/options.js';
import { confirmed, DAY, HOUR, MINUTE, type SeriesHarness, seriesHarness } from './helpers.js';

const FAILED = 'playground:W1:C3';
const EVERYTHING = 'playground:W1:C2';

describe.each(SIMULATOR_PROFILES)('subscribe series --status failed (%s profile)', (profile) => {
  let h: SeriesHarness;
  afterEach(() => h.close());

  const inChannel = (conversation: string) =>
    h.chat.channelMessages.filter((m) => m.conversation === conversation);

  it('a failed episode of the series reaches the channel, and nothing else does', async () => {
    h = await seriesHarness({ simulator: { profile } });
    await confirmed(h, h.run('series create "Night Terrors" --source ai_story --schedule "daily 09:00 UTC"'));
    const alice = await h.user('alice');
    const subscribed = await h.run('subscribe series night --status failed', {
      ...alice,
      conversation: FAILED,
    });
    expect(subscribed.kind === 'message' && subscribed.card.text).toContain('(only failed episodes)');
    await h.run('subscribe series night', { ...alice, conversation: EVERYTHING });
    // Let episode 1 (generated at creation) settle: it is history for both channels.
    await h.advance(10 * MINUTE);

    // Episode 2 fails to generate at Tuesday's slot.
    h.sim.sim.setKnobs({ generationFailureRate: 1 });
    await h.until(async () => inChannel(FAILED).length === 1, { stepMs: 5 * MINUTE, maxMs: DAY + 2 * HOUR });
    h.sim.sim.setKnobs({ generationFailureRate: 0 });
    const failed = inChannel(FAILED)[0]?.card;
    expect(failed?.title).toBe('Night Terrors: an episode failed');
    expect(failed?.tone).toBe('danger');
    expect(failed?.text).toContain('could not be made');

    // Episode 3 is made on Wednesday but its post fails on Thursday; episode 4 goes out fine on Friday.
    await h.advance(2 * HOUR);
    h.sim.sim.setKnobs({ postFailureRate: 1 });
    await h.until(async () => inChannel(FAILED).length === 2, {
      stepMs: 5 * MINUTE,
      maxMs: 2 * DAY + 2 * HOUR,
    });
    h.sim.sim.setKnobs({ postFailureRate: 0 });
    expect(inChannel(FAILED)[1]?.card.text).toContain('could not be posted');
    for (let i = 0; i < 26; i++) await h.advance(HOUR);

    const seriesId = (await h.store.subscriptions.list(FAILED))[0]?.target ?? '';
    const episodes = (await h.api.series.episodes(seriesId, { limit: 100 })).items;
    expect(episodes.filter((e) => e.status === 'posted').length).toBeGreaterThanOrEqual(1);
    // Only the two failures, each once, and never an episode's status card.
    expect(inChannel(FAILED).map((m) => m.card.title)).toEqual([
      'Night Terrors: an episode failed',
      'Night Terrors: an episode failed',
    ]);
    // The channel following everything got a card for every later episode.
    const cards = inChannel(EVERYTHING).filter((m) => /^Night Terrors — Episode \d+$/.test(m.card.title));
    expect(cards.map((m) => m.card.title).slice(0, 3)).toEqual(
      [2, 3, 4].map((n) => `Night Terrors — Episode ${n}`),
    );

    const list = await h.run('subscribe', { ...alice, conversation: FAILED });
    expect(list.kind === 'message' && list.card.text).toContain('only failed episodes');
  });

  it('subscribe calendar --series S keeps only the posts of that series’ episodes', async () => {
    h = await seriesHarness({ simulator: { profile } });
    const alice = await h.user('alice');
    await confirmed(h, h.run('series create "Night Terrors" --source ai_story --schedule "daily 09:00 UTC"'));
    const sub = await h.run('subscribe calendar --series night', { ...alice, conversation: FAILED });
    expect(sub.kind === 'message' && sub.card.text).toContain('(only the series **Night Terrors**)');
    await h.run('subscribe calendar', { ...alice, conversation: EVERYTHING });
    // A video of no series, posted at 08:30; the series' first episode goes out at 09:00.
    const v = await h.api.videos.create(
      {
        script: 'A short script about nothing in particular.',
        voiceId: 'voice_aria_en',
        name: 'Loose video',
      },
      { idempotencyKey: 'calendar-series-loose' },
    );
    await h.api.videos.update(v.id, { posts: { youtube: { title: 'Loose video' } } });
    await h.api.posts.schedule(
      {
        videoId: v.id,
        platforms: ['youtube'],
        scheduledTime: new Date(h.clock.now() + 30 * MINUTE).toISOString(),
      },
      { idempotencyKey: 'calendar-series-loose-schedule' },
    );
    for (let i = 0; i < 12; i++) await h.advance(15 * MINUTE);

    const posts = (conversation: string) =>
      inChannel(conversation)
        .filter((m) => /^Post(ed)? to /.test(m.card.title))
        .map((m) => m.card.text);
    expect(posts(EVERYTHING)).toHaveLength(2);
    expect(posts(FAILED)).toHaveLength(1);
    expect(posts(FAILED)[0]).toContain('Night Terrors — Episode 1');
    const list = await h.run('subscribe', { ...alice, conversation: FAILED });
    expect(list.kind === 'message' && list.card.text).toContain('only the series **Night Terrors**');
  });
});
