/**
 * Honest replays through Slack (real Bolt, signed requests, answers on response_url): `/reel publish` typed
 * again within 10 minutes answers "Already published at … — Publish again?" in Alice's zone (Europe/Paris,
 * from Slack's users.info) and sends nothing; the "Publish again" button, a signed block_actions click, is a
 * second publish at the simulator with a new idempotency key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPED_AGAIN_ACTION } from '../../src/core/dispatch/typed-replay.js';
import { completedVideo, MINUTE } from '../core/publishing/helpers.js';
import { blocksText, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
let videoId: string;
beforeAll(async () => {
  w = await slackWorld({ harness: { proxy: true } });
  videoId = await completedVideo(w.h, 'Slack teaser', { render: true });
  // 09:00 UTC = 10:00 in Paris.
  w.h.clock.advance(Date.parse('2026-11-23T09:00:00Z') - w.h.clock.now());
}, 60_000);
afterAll(() => w.close());

const publishKeys = () =>
  (w.h.proxy?.calls ?? [])
    .filter((c) => c.method === 'POST' && c.path === '/posts')
    .map((c) => c.idempotencyKey);

async function typed(text: string): Promise<unknown[]> {
  const sent = await w.command(text);
  expect(sent.status).toBe(200);
  return (await w.reply(sent.responseUrl)).blocks as unknown[];
}

describe('a typed publish repeated through Slack', () => {
  it('is answered honestly, and "Publish again" publishes a second time with a new key', async () => {
    expect(blocksText(await typed(`publish ${videoId} tiktok`))).toContain('Published to TikTok');
    w.h.clock.advance(4 * MINUTE);
    const repeated = await typed(`publish ${videoId} tiktok`);
    expect(blocksText(repeated)).toContain(
      'Already published at 10:00 (same command, 4 minutes ago) — Publish again?',
    );
    expect(w.h.sim.sim.publishedPosts()).toHaveLength(1);

    const click = await w.click(
      { blocks: repeated, ts: '1700000002.000200', ephemeral: true },
      TYPED_AGAIN_ACTION,
    );
    expect(click.status).toBe(200);
    const again = await w.reply(click.responseUrl);
    expect(blocksText(again.blocks as unknown[])).toContain('Published to TikTok');
    expect(w.h.sim.sim.publishedPosts()).toHaveLength(2);
    const keys = publishKeys();
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
  });
});
