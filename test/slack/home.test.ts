/**
 * App Home: `app_home_opened` (an Events API callback, signed) publishes the member's dashboard with
 * `views.publish`: who they act as, credits, recent videos, the next 7 days, this workspace's channel
 * subscriptions. No core buttons on the dashboard; within the home view's 100 blocks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import {
  ALICE,
  BOB,
  blocksText,
  elements,
  expectValidBlocks,
  fixture,
  type SlackWorld,
  slackWorld,
} from './world.js';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld();
  await completedVideo(w.h, 'Octopus facts');
  const sub = await w.command('subscribe calendar');
  await w.reply(sub.responseUrl);
}, 60_000);
afterAll(() => w.close());

async function openHome(user: string) {
  const event = fixture<Record<string, unknown> & { event: Record<string, unknown> }>('app-home-opened.json');
  event.event = { ...event.event, user };
  const before = w.fake.callsOf('views.publish').length;
  const res = await w.send(JSON.stringify(event), 'application/json');
  expect(res.status).toBe(200);
  return w.fake.waitFor(() => w.fake.callsOf('views.publish')[before], 'views.publish');
}

describe('App Home', () => {
  it('publishes the dashboard for the member who opened it', async () => {
    const publish = await openHome(ALICE);
    expect(publish.args.user_id).toBe(ALICE);
    const view = publish.args.view as { type: string; blocks: Record<string, unknown>[] };
    expect(view.type).toBe('home');
    expectValidBlocks(view.blocks, 100);
    const text = blocksText(view.blocks);
    expect(text).toContain('You act as'); // whoami
    expect(text).toContain('Credits: 480');
    expect(text).toContain('Octopus facts'); // recent videos with status
    expect(text).toContain('Nothing scheduled in the next 7 days'); // calendar
    expect(text).toContain('Channel subscriptions');
    expect(text).toContain('<#C0VIDEOS>: *calendar*');
    // A dashboard: only link buttons, never actions that would need a channel.
    for (const element of elements(view.blocks)) expect(element.url).toBeDefined();
  });

  it('shows a member without a key how to link, once, and the subscriptions', async () => {
    const publish = await openHome(BOB);
    const text = blocksText((publish.args.view as { blocks: unknown[] }).blocks);
    expect(text).toContain('/reel link');
    expect(text.match(/Not done/g)).toHaveLength(1);
    expect(text).toContain('Channel subscriptions');
  });

  it('ignores the Messages tab', async () => {
    const event = fixture<Record<string, unknown> & { event: Record<string, unknown> }>(
      'app-home-opened.json',
    );
    event.event = { ...event.event, tab: 'messages', event_ts: '1700000031.000300' };
    event.event_id = 'Ev07A1MSGS02';
    const before = w.fake.callsOf('views.publish').length;
    expect((await w.send(JSON.stringify(event), 'application/json')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 150));
    expect(w.fake.callsOf('views.publish')).toHaveLength(before);
  });
});
