/**
 * Results come back to the card on Discord (DESIGN §4), through the real discord.js client, the core, the
 * poller and the simulator on both profiles: a day after `/reel publish`, the video's card message is edited
 * to show the views the simulator's GET /analytics reports for the post, with its link; the `real` profile's
 * older analytics shape reports no post, and the card says nothing about results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import { textOf, titleOf } from './read-message.js';
import { discordWorld, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.each(['spec', 'real'] as const)('results on the Discord card (%s profile)', (profile) => {
  it('edits the video card with its views a day after the post', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    await completedVideo(w.h, 'Octopus facts', { render: true });
    const sent = await w.slash('publish', { video: 'Octopus facts', platforms: 'youtube' });
    expect(textOfMessage(w.answer(sent))).toContain('Published to YouTube');
    const card = () => w.fake.channelMessages().find((m) => titleOf(m) === 'Octopus facts');
    expect(card()).toBeDefined();
    expect(textOf(card() as NonNullable<ReturnType<typeof card>>)).not.toContain('Results');

    await w.h.advance(DAY + MINUTE);
    const text = textOf(card() as NonNullable<ReturnType<typeof card>>);
    expect(w.h.sim.sim.received({ method: 'GET', path: '/analytics' })).toHaveLength(1);
    if (profile === 'real') {
      expect(text).not.toContain('Results');
      return;
    }
    const post = w.h.sim.sim.publishedPosts()[0];
    const api = w.h.deps.apiFor(w.h.sim.keys[0] as string);
    const reported = (await api.analytics.get()).topPosts.find((p) => p.postUrl === post?.postUrl);
    expect(reported?.views).toBeGreaterThan(0);
    expect(text).toContain(
      `📈 **Results after a day:** ${reported?.views.toLocaleString('en-US')} views on YouTube ([View post](${post?.postUrl}))`,
    );
  });
});
