/**
 * The weekly digest on Slack (issue 32), through the real Bolt app, the real core and the simulator on both
 * profiles: `subscribe digest weekly mon 09:00` answers in words, and each Monday the channel gets one digest
 * message; a week of daily readings later, its data visualizations are the views gained by day and by
 * platform (the newer analytics shape) or total views by platform (the older one), with the chart numbers as
 * the message text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import { blocksText, CHANNEL, type SlackWorld, slackWorld } from './world.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** Mon 23 Nov 2026 09:00 UTC: the harness starts an hour before. */
const MONDAY_9 = Date.parse('2026-11-23T09:00:00Z');

let w: SlackWorld;
afterEach(() => w.close());

const types = (blocks: unknown) => ((blocks ?? []) as { type: string }[]).map((b) => b.type);

describe.each(['spec', 'real'] as const)('the weekly digest on Slack (%s profile)', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  it('posts one digest a week with its charts as Slack data visualizations', async () => {
    const id = await completedVideo(w.h, 'Octopus facts', { render: true });
    await apiOf(w.h).posts.publish(
      { videoId: id, platform: 'youtube', title: 'Octopus facts' },
      { idempotencyKey: 'slack-digest-post' },
    );
    await w.command('settings timezone UTC');
    // 08:00 UTC on Monday: an hour before the first 09:00.
    const sent = await w.command('subscribe digest weekly mon 09:00');
    const answer = blocksText((await w.reply(sent.responseUrl)).blocks as unknown[]);
    expect(answer).toContain('weekly digest on Mondays at 09:00 (UTC)');
    expect(answer).toContain('The next one comes Mon 23 Nov 2026, 09:00 UTC.');

    for (let day = 0; day <= 7; day++) await w.h.advance(MONDAY_9 + day * DAY + 10_000 - w.h.clock.now());
    await w.h.flush();
    const digests = w.fake.messages.filter(
      (m) => m.channel === CHANNEL && blocksText(m.blocks).includes('Weekly digest ·'),
    );
    // Subscribed on Monday before 09:00: that Monday's digest (the week before, no readings yet), then the next.
    expect(digests.map((m) => m.text.split('\n')[0])).toEqual([
      'Weekly digest · Mon 16 Nov 2026 to Sun 22 Nov 2026',
      'Weekly digest · Mon 23 Nov 2026 to Sun 29 Nov 2026',
    ]);
    const blocks = digests[1]?.blocks as Record<string, unknown>[];
    expect(types(blocks).filter((t) => t === 'data_visualization')).toHaveLength(2);
    const titles = blocks.filter((b) => b.type === 'data_visualization').map((b) => b.title);
    expect(titles).toEqual([
      'Views gained by day',
      profile === 'spec' ? 'Views gained by platform' : 'Total views by platform',
    ]);
    expect(String(digests[1]?.text)).toMatch(/Views gained by day \(views\):/);
  });
});
