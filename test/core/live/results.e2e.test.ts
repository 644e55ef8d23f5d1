/**
 * Results come back to the card (DESIGN §4), end to end on the core: the real simulator over HTTP, the real
 * client, SQLite, the poller and the outbox, on both simulator profiles. Once a post is out, its video's card
 * gains a Results line at about a day — the views the simulator's GET /analytics reports for that post, with
 * its link — and at 7 days the final one, then nothing more. One analytics call serves every post due at that
 * moment; a second replica never doubles a call or an edit; the `real` profile's older analytics shape has no
 * per-post views, so there the card says nothing (never "0 views") and the watch still ends at 7 days.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readResultsState, watchResults } from '../../../src/core/live/results-watcher.js';
import { WATCHERS } from '../../../src/core/live/watchers.js';
import type { Analytics } from '../../../src/core/video-api/video-api.js';
import { Poller, type PollerOptions } from '../../../src/poller/index.js';
import { SIMULATOR_PROFILES } from '../../../src/simulator/options.js';
import { cardText, createHarness, DEMO_KEY, type Harness, textOf } from '../../support/harness.js';
import { completedVideo, HOUR, MINUTE } from '../publishing/helpers.js';

const DAY = 24 * HOUR;

/** The video's card in the channel, as people see it now (after every edit). */
function cardOf(h: Harness, name: string): string {
  const posted = h.chat.channelMessages.filter((m) => m.card.title === name);
  if (posted.length !== 1) throw new Error(`expected one card for ${name}, got ${posted.length}`);
  return cardText((posted[0] as (typeof posted)[number]).card);
}

/** The test's own reads of GET /analytics (`simulatorViews`), left out of the bot's. */
let ownReads = 0;

/** The bot's calls to GET /analytics, as the simulator received them. */
const analyticsCalls = (h: Harness): number =>
  h.sim.sim.received({ method: 'GET', path: '/analytics' }).length - ownReads;

/** What the simulator reports now, read through its own HTTP API (the test's read, not the bot's). */
async function simulatorViews(h: Harness): Promise<Analytics['topPosts']> {
  ownReads++;
  const response = await fetch(`${h.sim.url}/analytics`, {
    headers: { Authorization: `Bearer ${DEMO_KEY}` },
  });
  const body = (await response.json()) as { data: { topPosts?: Analytics['topPosts'] } };
  return body.data.topPosts ?? [];
}

const viewsOf = (top: Analytics['topPosts'], postUrl: string): string => {
  const views = top.find((p) => p.postUrl === postUrl)?.views;
  if (views === undefined) throw new Error(`the simulator does not report ${postUrl}`);
  return views.toLocaleString('en-US');
};

/** A poller of another replica (or of the process after a restart) on the same store, knowing nothing else. */
function anotherPoller(options: Pick<PollerOptions, 'budgetDelay'> = {}): Poller {
  return new Poller({
    store: h.store,
    watchers: WATCHERS,
    apiFor: async (owner) => {
      const key = (await h.store.keys.get(owner))?.apiKey;
      return key ? h.deps.apiFor(key) : undefined;
    },
    clock: h.clock,
    logger: h.deps.logger,
    concurrency: 4,
    random: () => 0.5,
    ...options,
  });
}

let h: Harness;

describe.each(SIMULATOR_PROFILES)('results on the card (%s profile)', (profile) => {
  afterEach(async () => h.close());

  async function publishTwo(): Promise<{ launch: string; recap: string }> {
    h = await createHarness({ simulator: { profile } });
    ownReads = 0;
    await h.user('alice');
    await completedVideo(h, 'Launch teaser', { render: true });
    await completedVideo(h, 'Weekly recap', { render: true });
    await h.run('/reel publish "Launch teaser" youtube');
    await h.run('/reel publish "Launch teaser" tiktok');
    // Half an hour later: still read with the others ("about 24 h"), in the same call.
    await h.advance(30 * MINUTE);
    await h.run('/reel publish "Weekly recap" instagram');
    const url = (name: string, platform: string) =>
      h.sim.sim.publishedPosts().find((p) => p.title === name && p.platform === platform)?.postUrl ?? '';
    expect(h.sim.sim.publishedPosts()).toHaveLength(3);
    return { launch: url('Launch teaser', 'youtube'), recap: url('Weekly recap', 'instagram') };
  }

  it('shows the views at about a day and at 7 days, one analytics call for every post due', async () => {
    const { launch, recap } = await publishTwo();
    const tiktok = h.sim.sim.publishedPosts().find((p) => p.platform === 'tiktok')?.postUrl ?? '';
    await h.advance(22 * HOUR);
    expect(analyticsCalls(h)).toBe(0);
    expect(cardOf(h, 'Launch teaser')).not.toContain('Results');

    await h.advance(91 * MINUTE); // a day and a minute after the first posts
    expect(analyticsCalls(h)).toBe(1);
    const launchCard = cardOf(h, 'Launch teaser');
    const recapCard = cardOf(h, 'Weekly recap');
    if (profile === 'real') {
      // The older analytics shape reports no post: no line, and no "0 views" either.
      expect(launchCard).not.toContain('Results');
      expect(recapCard).not.toContain('Results');
      expect(launchCard).not.toContain('0 views');
    } else {
      const top = await simulatorViews(h);
      expect(launchCard).toContain(
        `📈 **Results after a day:** ${viewsOf(top, launch)} views on YouTube ([View post](${launch})) · ${viewsOf(top, tiktok)} views on TikTok ([View post](${tiktok}))`,
      );
      expect(recapCard).toContain(
        `📈 **Results after a day:** ${viewsOf(top, recap)} views on Instagram ([View post](${recap}))`,
      );
    }

    await h.advance(6 * DAY - 2 * MINUTE);
    expect(analyticsCalls(h)).toBe(1); // a minute before 7 days: not yet
    await h.advance(2 * MINUTE);
    expect(analyticsCalls(h)).toBe(2);
    const final = cardOf(h, 'Launch teaser');
    if (profile === 'real') expect(final).not.toContain('Results');
    else {
      const top = await simulatorViews(h);
      expect(final).toContain(
        `📈 **Results at 7 days:** ${viewsOf(top, launch)} views on YouTube ([View post](${launch})) · ${viewsOf(top, tiktok)} views on TikTok ([View post](${tiktok}))`,
      );
      expect(final).not.toContain('Results after a day');
      expect(cardOf(h, 'Weekly recap')).toContain('📈 **Results at 7 days:**');
    }

    // Then left alone: the watch is over, and nothing reads or edits any more.
    expect(await h.store.watches.activeWhere({ kind: 'results' })).toEqual([]);
    const updates = h.chat.updates.length;
    await h.advance(8 * DAY);
    expect(analyticsCalls(h)).toBe(2);
    expect(h.chat.updates.length).toBe(updates);
    expect(cardOf(h, 'Launch teaser')).toBe(final);
  });

  it('is not counted by unlink as a live card that will say it stopped', async () => {
    await publishTwo();
    expect(await h.store.watches.activeWhere({ kind: 'results' })).toHaveLength(1);
    // The results stop without a word when the key goes: unlink does not promise that they say so.
    const said = textOf(await h.run('/reel unlink'));
    expect(said).not.toContain('live status card');
    expect(said).not.toContain('followed with your key');
  });

  it('reads once and edits once with two replicas polling together', async () => {
    await publishTwo();
    const replica = anotherPoller();
    h.clock.advance(DAY + MINUTE);
    await Promise.all([h.poller.tick(), replica.tick()]);
    await h.flush();
    expect(analyticsCalls(h)).toBe(1);
    const edits = h.chat.updates.filter((u) => cardText(u.card).includes('Results after a day'));
    // One edit per card that shows a result (none on the real profile), never two.
    expect(edits).toHaveLength(profile === 'real' ? 0 : 2);
    await replica.stop();
  });

  it('waits while the key’s budget is short, then a restarted poller reads them from the store', async () => {
    const { launch } = await publishTwo();
    await h.poller.stop(); // the process goes away; the watch stays in the store
    let short = true;
    const restarted = anotherPoller({
      // The key's background budget is short: deferrable looks wait, looks at running jobs would not.
      budgetDelay: (_owner, _kind, { deferrable }) => (short && deferrable ? 10 * MINUTE : 0),
    });
    h.clock.advance(DAY + MINUTE);
    await restarted.tick();
    expect(analyticsCalls(h)).toBe(0);

    short = false;
    h.clock.advance(11 * MINUTE);
    await restarted.tick();
    await h.flush();
    expect(analyticsCalls(h)).toBe(1);
    if (profile === 'spec')
      expect(cardOf(h, 'Launch teaser')).toContain(`views on YouTube ([View post](${launch}))`);
    await restarted.stop();
  });

  it('follows a post recorded twice (a replayed commit) once, from when it first went out', async () => {
    const { launch } = await publishTwo();
    const [watch] = await h.store.watches.activeWhere({ kind: 'results' });
    const followed = readResultsState(watch?.state ?? {}).posts.find((p) => p.postUrl === launch);
    h.clock.advance(HOUR);
    await h.store.transaction(async () => {
      await watchResults(h.store, {
        owner: watch?.owner ?? '',
        conversation: h.conversation,
        post: { videoId: followed?.videoId ?? '', platform: 'youtube', postUrl: launch, at: h.clock.now() },
      });
    });
    const after = await h.store.watches.activeWhere({ kind: 'results' });
    expect(after.map((w) => w.id)).toEqual([watch?.id]);
    expect(readResultsState(after[0]?.state ?? {}).posts.filter((p) => p.postUrl === launch)).toEqual([
      followed,
    ]);
  });
});
