/**
 * Every parameter within reach, through the real Bolt app: advanced flags typed in `/reel …` reach the API. A `series create` with
 * the layout, background and thumbnail settings, confirmed with a click, lands in the simulator's POST
 * /series body; a bad layout is answered in the reply and sends nothing. Both simulator profiles.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
afterEach(async () => w.close());

describe.each(['spec', 'real'] as const)('advanced flags over Slack (%s profile)', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  it('series create --layout --background --thumbnail-settings reaches POST /series', async () => {
    const sent = await w.command(
      'series create "Reddit Reads" --source reddit --subreddit tifu --layout split ' +
        '--background "Subway runner" --random-background no --emojis yes --thumbnail-settings style=bold,faces=yes',
    );
    expect(sent.status).toBe(200);
    const confirm = await w.reply(sent.responseUrl);
    expect(blocksText(confirm.blocks as unknown[])).toContain('Reddit Reads');
    expect(w.h.sim.sim.received({ method: 'POST', path: '/series' })).toEqual([]);

    const click = await w.click(
      { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
      'series.create.confirm',
    );
    expect(click.status).toBe(200);
    await w.reply(click.responseUrl);
    const [received] = w.h.sim.sim.received({ method: 'POST', path: '/series' });
    expect(received?.body).toMatchObject({
      name: 'Reddit Reads',
      source: 'reddit',
      subreddit: 'tifu',
      layout: 'split',
      // Typed by its display name, sent as the catalog value.
      backgroundVideo: 'subway_runner',
      useRandomBackgroundVideo: false,
      showEmojis: true,
      thumbnailSettings: { style: 'bold', faces: true },
    });
  });

  it('a bad layout is answered in the reply and nothing is sent', async () => {
    const sent = await w.command('series create "Bad" --source ai_story --layout "two columns!"');
    const reply = await w.reply(sent.responseUrl);
    expect(blocksText(reply.blocks as unknown[])).toContain("isn't a layout name");
    expect(w.h.sim.sim.received({ method: 'POST', path: '/series' })).toEqual([]);
  });
});
