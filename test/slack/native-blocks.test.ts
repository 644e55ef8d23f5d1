/**
 * Slack's newest blocks through the real Bolt app against the fake Slack: `analytics` answers with a data
 * visualization and a data table; a workspace that refuses them gets the same answer in the classic blocks,
 * and the refusal is remembered, so the next answer goes classic at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import { blocksText, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
afterEach(() => w.close());

/** A video published to YouTube three days ago, so analytics have a post to count. */
async function publishedPost(world: SlackWorld): Promise<void> {
  const id = await completedVideo(world.h, 'Octopus facts', { render: true });
  await apiOf(world.h).posts.publish(
    { videoId: id, platform: 'youtube', title: 'Octopus facts' },
    { idempotencyKey: 'native-blocks-post' },
  );
  world.h.clock.advance(3 * 24 * 3600_000);
}

const types = (blocks: unknown) => ((blocks ?? []) as { type: string }[]).map((b) => b.type);

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  // The older analytics shape the real service still answers has no top posts.
  const topPosts = profile === 'spec';
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
    await publishedPost(w);
  });

  it('answers analytics with a chart and a table of top posts', async () => {
    const sent = await w.command('analytics --range 7');
    const reply = await w.reply(sent.responseUrl);
    expect(types(reply.blocks)).toContain('data_visualization');
    expect(types(reply.blocks).includes('data_table')).toBe(topPosts);
    const blocks = reply.blocks as Record<string, unknown>[];
    const chart = blocks.find((b) => b.type === 'data_visualization') as {
      title: string;
      chart: {
        type: string;
        axis_config: { categories: string[] };
        series: { name: string; data: unknown[] }[];
      };
    };
    expect(chart.title).toBe('Views per platform');
    expect(chart.chart.type).toBe('bar');
    expect(chart.chart.axis_config.categories).toEqual(['YouTube']);
    // The bars are the simulator's numbers.
    const analytics = await apiOf(w.h).analytics.get({ range: 7 });
    expect(chart.chart.series[0]).toMatchObject({
      name: 'Total views',
      data: [{ label: 'YouTube', value: analytics.byPlatform.youtube?.totalViews }],
    });
    if (topPosts) {
      const table = blocks.find((b) => b.type === 'data_table') as { caption: string; rows: unknown[][] };
      expect(table.caption).toBe('Top posts');
      expect(table.rows[0]).toEqual([
        { type: 'raw_text', text: 'Post' },
        { type: 'raw_text', text: 'Platform' },
        { type: 'raw_text', text: 'Views' },
      ]);
      expect(table.rows[1]?.[2]).toMatchObject({ type: 'raw_number', value: expect.any(Number) });
    }
    // The chart's numbers are the message's text too: notifications and screen readers read them.
    expect(String(reply.text)).toMatch(/Views per platform \(views\):/);
  });

  it('answers credits with the ledger as a data table whose changes sort as numbers', async () => {
    const reply = await w.reply((await w.command('credits')).responseUrl);
    const table = (reply.blocks as Record<string, unknown>[]).find((b) => b.type === 'data_table') as
      | { caption: string; rows: { type: string; value?: number }[][] }
      | undefined;
    expect(table?.caption).toBe('Credit ledger');
    const changes = table?.rows.slice(1).map((row) => row[0]) ?? [];
    expect(changes.length).toBeGreaterThan(0);
    for (const cell of changes) expect(cell).toMatchObject({ type: 'raw_number', value: expect.any(Number) });
  });

  it('sends the classic blocks where the workspace refuses the new ones, and remembers', async () => {
    w.fake.refusedBlocks.add('data_visualization');
    w.fake.refusedBlocks.add('data_table');
    const first = await w.command('analytics --range 7');
    const reply = await w.reply(first.responseUrl);
    expect(w.fake.refusals.map((r) => r.where)).toEqual(['response_url']);
    expect(types(reply.blocks)).not.toContain('data_visualization');
    expect(types(reply.blocks)).not.toContain('data_table');
    const said = blocksText(reply.blocks as unknown[]);
    expect(said).toContain('Views per platform');
    expect(said).toMatch(/YouTube [\d,]+/);
    if (topPosts) expect(said).toContain('Octopus facts');

    // The next answer goes classic at once: no refused attempt is sent first.
    const second = await w.command('analytics --range 7');
    const again = await w.reply(second.responseUrl);
    expect(types(again.blocks)).not.toContain('data_visualization');
    expect(w.fake.refusals).toHaveLength(1);
  });
});
