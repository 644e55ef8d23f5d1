/**
 * Results come back to the card on Slack (DESIGN §4), through the real Bolt app, the core, the poller and the
 * simulator on both profiles: a day after `/reel publish`, the video's card message is updated
 * (`chat.update`) with the views the simulator's GET /analytics reports for the post, linked in Slack's
 * mrkdwn; the `real` profile's older analytics shape reports no post, and the card says nothing about results.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import { blocksText, type SlackWorld, slackWorld } from './world.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let w: SlackWorld;
afterEach(() => w.close());

describe.each(['spec', 'real'] as const)('results on the Slack card (%s profile)', (profile) => {
  it('updates the video card with its views a day after the post', async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
    await completedVideo(w.h, 'Octopus facts', { render: true });
    const sent = await w.command('publish "Octopus facts" youtube');
    expect(blocksText((await w.reply(sent.responseUrl)).blocks as unknown[])).toContain(
      'Published to YouTube',
    );
    const card = () => w.cards().find((m) => blocksText(m.blocks).includes('Octopus facts'));
    await w.h.flush();
    expect(card()).toBeDefined();
    expect(blocksText(card()?.blocks)).not.toContain('Results');

    await w.h.advance(DAY + MINUTE);
    expect(w.h.sim.sim.received({ method: 'GET', path: '/analytics' })).toHaveLength(1);
    const text = blocksText(card()?.blocks);
    expect(text).toContain('**Posted** to YouTube'.replaceAll('**', '*'));
    if (profile === 'real') {
      expect(text).not.toContain('Results');
      return;
    }
    const post = w.h.sim.sim.publishedPosts()[0];
    const api = w.h.deps.apiFor(w.h.sim.keys[0] as string);
    const reported = (await api.analytics.get()).topPosts.find((p) => p.postUrl === post?.postUrl);
    expect(reported?.views).toBeGreaterThan(0);
    expect(text).toContain(
      `📈 *Results after a day:* ${reported?.views.toLocaleString('en-US')} views on YouTube (<${post?.postUrl}|View post>)`,
    );
  });
});
