/**
 * A filtered channel subscription on Slack (issue 32), through the real Bolt app, the real core and the
 * simulator on both profiles: `subscribe calendar --platform tiktok --status failed` posts the failed TikTok
 * post in the channel and neither a failed YouTube post nor a TikTok post that went out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Platform } from '../../src/core/video-api/video-api.js';
import { DEMO_KEY } from '../support/harness.js';
import { blocksText, CHANNEL, type SlackWorld, slackWorld } from './world.js';

const MINUTE = 60_000;
let w: SlackWorld;
afterEach(() => w.close());

describe.each(['spec', 'real'] as const)('filtered subscriptions on Slack (%s profile)', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  async function scheduled(name: string, platform: Platform): Promise<void> {
    const api = w.h.deps.apiFor(DEMO_KEY);
    const voice = (await api.voices.list())[0] as { id: string };
    const v = await api.videos.create(
      { script: `A short script about ${name}, long enough.`, voiceId: voice.id, name },
      { idempotencyKey: `slack-filters-${name}` },
    );
    await api.videos.update(v.id, { posts: { youtube: { title: name }, tiktok: { title: name } } });
    await api.posts.schedule(
      {
        videoId: v.id,
        platforms: [platform],
        scheduledTime: new Date(w.h.clock.now() + 10 * MINUTE).toISOString(),
      },
      { idempotencyKey: `slack-filters-schedule-${name}` },
    );
  }

  const said = () => w.fake.messages.filter((m) => m.channel === CHANNEL).map((m) => blocksText(m.blocks));

  it('posts only the failed TikTok post', async () => {
    const sent = await w.command('subscribe calendar --platform tiktok --status failed');
    expect(blocksText((await w.reply(sent.responseUrl)).blocks as unknown[])).toContain(
      'only failed posts · only TikTok',
    );
    w.h.sim.sim.setKnobs({ postFailureRate: 1 });
    await scheduled('TikTok flop', 'tiktok');
    await scheduled('YouTube flop', 'youtube');
    await w.h.until(() => said().some((t) => t.includes('Post to TikTok failed')), {
      stepMs: MINUTE,
      maxMs: 40 * MINUTE,
    });
    w.h.sim.sim.setKnobs({ postFailureRate: 0 });
    await scheduled('TikTok hit', 'tiktok');
    for (let i = 0; i < 30; i++) await w.h.advance(MINUTE);
    await w.h.flush();

    const feed = said().filter((t) => /Post(ed)? to /.test(t));
    expect(feed).toHaveLength(1);
    expect(feed[0]).toContain('TikTok flop');
    expect(said().join('\n')).not.toMatch(/YouTube flop|TikTok hit/);
  });
});
