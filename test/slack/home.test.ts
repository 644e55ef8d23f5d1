/**
 * App Home: `app_home_opened` (an Events API callback, signed) publishes the member's dashboard with
 * `views.publish`: who they act as, credits, recent videos, the next 7 days, their approvals inbox, this
 * workspace's channel subscriptions. Only buttons that work from the dashboard: Link key, the recent videos'
 * Render / Schedule / Show in DM, the inbox's Approve / Reject (decided in the request's own channel and
 * answered on a refreshed Home), Unsubscribe; within the home view's 100 blocks (home-actions.test.ts clicks them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessFixtures } from '../core/approvals/fixtures.js';
import { completedVideo } from '../core/publishing/helpers.js';
import { DEMO_KEY } from '../support/harness.js';
import { askToPublish, bobApprovesPublishing } from './publish-policy.js';
import {
  ALICE,
  address,
  BOB,
  blocksText,
  elements,
  expectValidBlocks,
  findElement,
  fixture,
  type SlackWorld,
  slackWorld,
  TEAM,
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

const viewBlocks = (publish: { args: Record<string, unknown> }) =>
  (publish.args.view as { blocks: Record<string, unknown>[] }).blocks;

/** `user` clicks the control of core `action` in their App Home: no channel, no message, no response_url. */
async function clickInHome(user: string, blocks: unknown[], action: string) {
  const element = findElement(blocks, action);
  const payload = fixture<Record<string, unknown>>('block-actions.json');
  for (const key of ['channel', 'message', 'response_url']) delete payload[key];
  const name = user === BOB ? 'bob' : 'alice';
  Object.assign(payload, {
    user: { id: user, username: name, name, team_id: TEAM },
    container: { type: 'view', view_id: 'V0HOME' },
    view: { id: 'V0HOME', type: 'home', blocks, hash: '1700000040.abcdef' },
    actions: [
      {
        type: 'button',
        action_id: element.action_id,
        block_id: 'b1',
        text: element.text,
        value: element.value,
        action_ts: '1700000040.345678',
      },
    ],
  });
  const before = w.fake.callsOf('views.publish').length;
  const res = await w.send(
    `payload=${encodeURIComponent(JSON.stringify(payload))}`,
    'application/x-www-form-urlencoded',
  );
  expect(res.status).toBe(200);
  return w.fake.waitFor(() => w.fake.callsOf('views.publish')[before], 'views.publish after the click');
}

describe('App Home', () => {
  it('publishes the Home again without images, then as text, when Slack refuses its blocks', async () => {
    w.fake.fail('views.publish', { error: 'invalid_blocks' }, 2);
    const before = w.fake.callsOf('views.publish').length;
    await openHome(ALICE);
    const published = await w.fake.waitFor(
      () => w.fake.callsOf('views.publish')[before + 2],
      'the third publish',
    );
    const blocks = viewBlocks(published);
    expect(blocks.every((b) => b.type === 'section')).toBe(true);
    expect(JSON.stringify(blocks)).toContain('Credits');
    expect(JSON.stringify(viewBlocks(w.fake.callsOf('views.publish')[before + 1] as never))).not.toContain(
      '"type":"image"',
    );
  });

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
    expect(text).toContain('<#C0VIDEOS>: the posting calendar');
    // A dashboard: only buttons that work without the channel they were clicked in (no paging, no menu).
    const actions = elements(view.blocks)
      .filter((e) => !e.url)
      .map((e) => String(e.action_id).split('|')[0]);
    expect(new Set(actions)).toEqual(
      new Set(['home.link', 'video.render', 'video.schedule', 'video.show-here', 'home.unsubscribe']),
    );
    expect(elements(view.blocks).some((e) => e.type === 'static_select')).toBe(false);
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
    // The Home tab opened after it is published; the Messages tab opened before it was not.
    await openHome(event.event.user as string);
    expect(w.fake.callsOf('views.publish')).toHaveLength(before + 1);
  });

  it('shows bob’s approvals inbox with its buttons; Approve from Home decides in the channel and refreshes it', async () => {
    const fixtures = harnessFixtures(w.h);
    const id = await fixtures.renderedVideo('Approve me');
    await bobApprovesPublishing(w);
    await askToPublish(w, id, 'youtube');
    const request = await w.fake.waitFor(
      () => w.cards().find((m) => blocksText(m.blocks).includes('Approval needed')),
      'the approval card in the channel',
    );

    // bob links a key (the approved action runs under it), then opens his Home.
    await w.h.store.keys.put(address.user(BOB), {
      apiKey: DEMO_KEY,
      keyPrefix: DEMO_KEY.slice(0, 12),
      teamId: 'team',
      teamName: 'Team',
    });
    const home = viewBlocks(await openHome(BOB));
    expectValidBlocks(home, 100);
    expect(blocksText(home)).toContain('Approvals: 1 pending');
    expect(blocksText(home)).toContain('Publish “Approve me” to YouTube');
    // The inbox's buttons: bob may decide, it is not his to withdraw.
    const inbox = (blocks: unknown[]) =>
      elements(blocks).filter((e) => String(e.action_id).startsWith('approval.'));
    expect(inbox(home).map((e) => (e.text as { text: string }).text)).toEqual(['Approve', 'Reject']);

    const refreshed = viewBlocks(await clickInHome(BOB, home, 'approval.approve'));
    expectValidBlocks(refreshed, 100);
    const after = blocksText(refreshed);
    expect(after.startsWith(':white_check_mark: Approved · Published to YouTube')).toBe(true); // the answer leads
    expect(after).toContain('Nothing is waiting for you'); // the inbox, refreshed
    expect(inbox(refreshed)).toEqual([]);
    // The request card in the channel says who approved it, and the post went out.
    await w.h.flush();
    await w.fake.waitFor(
      () => w.cards().find((m) => m.ts === request.ts && /Approved by \*bob\*/.test(blocksText(m.blocks))),
      'the approval card edited to Approved',
    );
    expect(fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);

    // A second click on the Home as it was (a stale view) does nothing harmful and says so there.
    const stale = blocksText(viewBlocks(await clickInHome(BOB, home, 'approval.approve')));
    expect(stale).toMatch(/^:information_source: Nothing to do\n.*[Aa]lready approved/);
    expect(fixtures.publishedPosts()).toHaveLength(1);
  });
});
