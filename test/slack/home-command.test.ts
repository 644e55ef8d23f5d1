/**
 * `/reel home` through REAL Bolt with signed requests against the fake Slack: the dashboard cards
 * of the App Home answered privately in one ephemeral message (dividers between cards, valid Block Kit within
 * 50 blocks), ending with a pointer to the Home tab. Nothing is posted in the channel.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import { blocksText, expectValidBlocks, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld();
  await completedVideo(w.h, 'Octopus facts');
}, 60_000);
afterAll(() => w?.close());

it('/reel home answers privately with every dashboard card and points to the Home tab', async () => {
  const sent = await w.command('home');
  const reply = await w.reply(sent.responseUrl);
  expect(reply.response_type).toBe('ephemeral');
  const blocks = reply.blocks as { type: string }[];
  expectValidBlocks(blocks);
  expect(blocks.length).toBeLessThanOrEqual(50);
  const text = blocksText(blocks);
  for (const title of ['You act as', 'Credits:', 'Recent videos', 'Calendar', 'Channel subscriptions'])
    expect(text).toContain(title);
  expect(text).toContain('Octopus facts');
  expect(blocks.filter((b) => b.type === 'divider').length).toBeGreaterThanOrEqual(5);
  expect(blocks.at(-1)?.type).toBe('context');
  expect(blocksText([blocks.at(-1)])).toContain('*Home* tab');
  expect(w.fake.callsOf('chat.postMessage')).toEqual([]);
});
