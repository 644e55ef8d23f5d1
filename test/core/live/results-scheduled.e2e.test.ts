/**
 * Results of a scheduled post (DESIGN §4), end to end on the core and both simulator profiles: GET /calendar
 * gives a scheduled post no URL, so once the schedule watch sees it posted, the results watch joins it with
 * the analytics' top post titled its video's name (as `schedule … best` does), and a day later the card shows
 * that post's views and link. A top post another followed post's URL names is never taken for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_PROFILES } from '../../../src/simulator/options.js';
import { cardText, createHarness, type Harness } from '../../support/harness.js';
import { apiOf, completedVideo, HOUR, MINUTE } from '../publishing/helpers.js';

const DAY = 24 * HOUR;

function cardOf(h: Harness, name: string): string {
  const posted = h.chat.channelMessages.filter((m) => m.card.title === name);
  if (posted.length !== 1) throw new Error(`expected one card for ${name}, got ${posted.length}`);
  return cardText((posted[0] as (typeof posted)[number]).card);
}

describe.each(SIMULATOR_PROFILES)('results of a scheduled post (%s profile)', (profile) => {
  let h: Harness;
  afterEach(async () => h.close());

  it('joins the post by its title a day after the schedule saw it posted', async () => {
    h = await createHarness({ simulator: { profile } });
    await h.user('alice', { timeZone: 'Europe/Paris' });
    const id = await completedVideo(h, 'Weekly recap', { render: true });
    // Published now too, on the same platform and with the same title: its URL keeps its top post its own.
    await apiOf(h).videos.update(id, { posts: { youtube: { title: 'Weekly recap' } } });
    await h.run(`/reel publish ${id} youtube`);
    await h.run(`/reel schedule ${id} youtube in 2 hours`);
    await h.until(() => cardOf(h, 'Weekly recap').includes('YouTube (posted)'), {
      stepMs: 5 * MINUTE,
      maxMs: 4 * HOUR,
    });
    const [published, scheduled] = h.sim.sim.publishedPosts();
    expect(scheduled?.title).toBe('Weekly recap');

    await h.advance(DAY + 10 * MINUTE);
    const calls = h.sim.sim.received({ method: 'GET', path: '/analytics' }).length;
    expect(calls).toBe(1); // one look, one call, for both posts
    const card = cardOf(h, 'Weekly recap');
    if (profile === 'real') {
      expect(card).not.toContain('Results');
      return;
    }
    const top = (await apiOf(h).analytics.get()).topPosts;
    const views = (url: string | undefined) =>
      top.find((p) => p.postUrl === url)?.views.toLocaleString('en-US');
    expect(card).toContain(
      `📈 **Results after a day:** ${views(published?.postUrl)} views on YouTube ([View post](${published?.postUrl})) · ${views(scheduled?.postUrl)} views on YouTube ([View post](${scheduled?.postUrl}))`,
    );
  });
});
