/**
 * The App Home as a dashboard with actions, through the REAL Bolt app against the fake Slack (signed
 * requests), on both simulator profiles: "Link key" opens the link form and the key is linked; Approve decides
 * a request from the Home and the command runs; Render starts a render at the simulator with its live card
 * in the member's DM with the app; and the Home is published again (outbox, coalesced) after a thumbnail pick
 * made in a channel, once for several quick picks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harnessFixtures } from '../core/approvals/fixtures.js';
import { completedVideo } from '../core/publishing/helpers.js';
import { DEMO_KEY } from '../support/harness.js';
import type { SlackCall } from './fake-slack.js';
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

const DM = { [ALICE]: 'D0ALICEDM', [BOB]: 'D0BOBDM' } as Record<string, string>;

describe.each(['spec', 'real'] as const)('App Home actions on the %s profile', (profile) => {
  let w: SlackWorld;
  let triggers = 0;
  beforeAll(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  }, 60_000);
  afterAll(() => w.close());

  const publishesTo = (user: string): SlackCall[] =>
    w.fake.callsOf('views.publish').filter((c) => c.args.user_id === user);
  const viewBlocks = (publish: SlackCall) =>
    (publish.args.view as { blocks: Record<string, unknown>[] }).blocks;

  async function openHome(user: string): Promise<Record<string, unknown>[]> {
    const event = fixture<Record<string, unknown> & { event: Record<string, unknown> }>(
      'app-home-opened.json',
    );
    event.event = { ...event.event, user, channel: DM[user] };
    event.event_id = `Ev0HOME${++triggers}`;
    const before = publishesTo(user).length;
    expect((await w.send(JSON.stringify(event), 'application/json')).status).toBe(200);
    const published = await w.fake.waitFor(() => publishesTo(user)[before], 'views.publish');
    const blocks = viewBlocks(published);
    expectValidBlocks(blocks, 100);
    return blocks;
  }

  /** `user` clicks the `nth` control of core `action` in their App Home: no channel, message or response_url. */
  async function clickInHome(user: string, blocks: unknown[], action: string, nth = 0) {
    const element = findElement(blocks, action, nth);
    const payload = fixture<Record<string, unknown>>('block-actions.json');
    for (const key of ['channel', 'message', 'response_url']) delete payload[key];
    const name = user === BOB ? 'bob' : 'alice';
    const triggerId = `7216${++triggers}.7141926741253.home${triggers}`;
    Object.assign(payload, {
      user: { id: user, username: name, name, team_id: TEAM },
      container: { type: 'view', view_id: 'V0HOME' },
      view: { id: 'V0HOME', type: 'home', blocks, hash: '1700000040.abcdef' },
      trigger_id: triggerId,
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
    const res = await w.send(
      `payload=${encodeURIComponent(JSON.stringify(payload))}`,
      'application/x-www-form-urlencoded',
    );
    expect(res.status).toBe(200);
    return { triggerId, value: element.value as string };
  }

  /** Lets the outbox's coalescing pause pass and delivers what it holds. */
  const settle = () => w.h.advance(1_500);
  const labels = (blocks: unknown[], prefix: string) =>
    elements(blocks)
      .filter((e) => String(e.action_id).startsWith(prefix))
      .map((e) => (e.text as { text: string }).text);

  it('Link key on the Home opens the link form; submitting it links the key and refreshes the Home', async () => {
    const home = await openHome(BOB);
    expect(blocksText(home)).toContain('Not done');
    expect(labels(home, 'home.link')).toEqual(['Link key']);
    const before = w.fake.callsOf('views.open').length;
    const click = await clickInHome(BOB, home, 'home.link');
    const opened = await w.fake.waitFor(() => w.fake.callsOf('views.open')[before], 'views.open');
    expect(opened.args.trigger_id).toBe(click.triggerId);
    const modal = opened.args.view as Record<string, unknown>;
    expect(modal.callback_id).toBe('account.link');

    const published = publishesTo(BOB).length;
    const submitted = await w.submit({ key: DEMO_KEY }, { view: modal, user: BOB });
    expect(submitted.status).toBe(200);
    expect(submitted.ack?.response_action).toBeUndefined();
    expect((await w.h.store.keys.get(address.user(BOB)))?.keyPrefix).toBe(DEMO_KEY.slice(0, 12));
    // The answer in bob's DM with the app; then his Home, refreshed through the outbox, shows the link.
    await w.fake.waitFor(
      () => w.fake.callsOf('chat.postEphemeral').find((c) => c.args.channel === DM[BOB]),
      'the answer in the DM',
    );
    await settle();
    const refreshed = await w.fake.waitFor(() => publishesTo(BOB)[published], 'the refreshed Home');
    expect(blocksText(viewBlocks(refreshed))).toContain('You act as');
    expect(labels(viewBlocks(refreshed), 'home.link')).toEqual(['Link another key']);
  });

  it('Approve on the Home decides the request and the command runs', async () => {
    const fixtures = harnessFixtures(w.h);
    const id = await fixtures.renderedVideo('Approve from Home');
    await bobApprovesPublishing(w);
    await askToPublish(w, id, 'youtube');

    const home = await openHome(BOB);
    expect(blocksText(home)).toContain('Publish “Approve from Home” to YouTube');
    expect(labels(home, 'approval.')).toEqual(['Approve', 'Reject']);
    const published = publishesTo(BOB).length;
    await clickInHome(BOB, home, 'approval.approve');
    const answered = await w.fake.waitFor(() => publishesTo(BOB)[published], 'the Home after the click');
    const after = blocksText(viewBlocks(answered));
    expect(after).toContain('Approved');
    expect(after).toContain('Nothing is waiting for you');
    expect(fixtures.publishedPosts()).toContainEqual({ videoId: id, platform: 'youtube' });
    expect((await w.h.store.approvals.pendingIn(`slack:${TEAM}`)).length).toBe(0);
  });

  it('with stages, the Home shows where a request waits, and Approve there moves it to the next stage', async () => {
    const fixtures = harnessFixtures(w.h);
    const id = await fixtures.renderedVideo('Staged from Home');
    await bobApprovesPublishing(w);
    const stages = await w.command('settings approval stages brand,legal', { raw: true });
    expect(JSON.stringify(await w.reply(stages.responseUrl))).toContain('Workspace settings updated');
    await askToPublish(w, id, 'youtube');

    const home = await openHome(BOB);
    expect(blocksText(home)).toContain('Publish “Staged from Home” to YouTube');
    expect(blocksText(home)).toContain('⏳ brand · ◻️ legal');
    const published = publishesTo(BOB).length;
    await clickInHome(BOB, home, 'approval.approve');
    await settle();
    // The Home the click published, told apart by its content: a refresh of bob's Home for the request (the
    // outbox's) may land after `openHome` returned.
    const answered = await w.fake.waitFor(
      () =>
        publishesTo(BOB)
          .slice(published)
          .find((p) => /Approved at/.test(blocksText(viewBlocks(p)))),
      'the Home after the click',
    );
    const after = blocksText(viewBlocks(answered));
    expect(after).toMatch(/✅ brand by \S+ · ⏳ legal/);
    expect(labels(viewBlocks(answered), 'approval.')).toEqual(['Approve', 'Reject']);
    expect(fixtures.publishedPosts()).not.toContainEqual({ videoId: id, platform: 'youtube' });

    const off = await w.command('settings approval stages off', { raw: true });
    expect(JSON.stringify(await w.reply(off.responseUrl))).toContain('Workspace settings updated');
  });

  it('Render on the Home starts the render and posts its live card in the DM', async () => {
    const id = await completedVideo(w.h, 'Render from Home');
    const home = await openHome(ALICE);
    const text = blocksText(home);
    expect(text).toContain('Recent videos');
    expect(text).toContain('Render from Home');
    expect(labels(home, 'video.')).toEqual(expect.arrayContaining(['Render', 'Schedule', 'Show in DM']));
    // The newest video first: its Render button carries its id.
    const click = await clickInHome(ALICE, home, 'video.render');
    expect(click.value).toBe(id);

    const answer = await w.fake.waitFor(
      () =>
        w.fake
          .callsOf('chat.postMessage')
          .find((c) => c.args.channel === DM[ALICE] && String(c.args.text).includes('Rendering')),
      'the answer in the DM',
    );
    expect(answer.args.text).toContain('Render from Home');
    await w.h.flush();
    const card = await w.fake.waitFor(
      () =>
        w.fake.messages.find(
          (m) => m.channel === DM[ALICE] && m.metadata?.event_type === 'reelbot_card' && !m.thread_ts,
        ),
      'the live card in the DM',
    );
    expect(blocksText(card.blocks)).toContain('Render from Home');
    const stored = await w.h.store.cards.get(`video:${id}@${address.channel(DM[ALICE])}`);
    expect(stored?.message).toBe(`${address.channel(DM[ALICE])}:${card.ts}`);
    const state = await w.h.store.cardStates.get(`video:${id}`);
    const renderId = (state?.render as { renderId?: string } | undefined)?.renderId;
    expect(renderId).toBeTruthy();
    // The simulator knows the render: it runs to its MP4, shown on the DM's card as a Watch / Download button.
    const render = await w.h.deps.apiFor(DEMO_KEY).renders.get(renderId as string);
    expect(render.status).not.toBe('error');
    await w.h.until(async () => (await w.h.store.watches.active()).every((x) => x.kind !== 'render'), {
      maxMs: 10 * 60_000,
    });
    await w.h.flush();
    const done = w.fake.messages.find((m) => m.ts === card.ts && m.channel === DM[ALICE]);
    const mp4 = elements(done?.blocks ?? []).find((e) => String(e.url ?? '').endsWith('.mp4'));
    expect(mp4).toBeDefined();
  });

  it('Unsubscribe on the Home: refused to a member who may not change the channel, done for one who may', async () => {
    const sub = await w.command('subscribe calendar');
    expect(JSON.stringify(await w.reply(sub.responseUrl))).toContain('calendar');
    const subscribed = async () => (await w.h.store.subscriptions.list(address.channel())).length;
    expect(await subscribed()).toBe(1);

    // The admin role names alice (set above): bob may not change the channel's subscriptions.
    const bobs = await openHome(BOB);
    expect(labels(bobs, 'home.unsubscribe')).toEqual(['Unsubscribe']);
    const bobBefore = publishesTo(BOB).length;
    await clickInHome(BOB, bobs, 'home.unsubscribe');
    const refused = await w.fake.waitFor(() => publishesTo(BOB)[bobBefore], 'bob’s Home after the click');
    expect(blocksText(viewBlocks(refused))).toContain('Only <@U01ALICE> may');
    expect(await subscribed()).toBe(1);

    const alices = await openHome(ALICE);
    const aliceBefore = publishesTo(ALICE).length;
    await clickInHome(ALICE, alices, 'home.unsubscribe');
    const done = await w.fake.waitFor(() => publishesTo(ALICE)[aliceBefore], 'alice’s Home after the click');
    const text = blocksText(viewBlocks(done));
    expect(text).toContain('Unsubscribed');
    expect(text).toContain('No channel follows anything yet');
    expect(await subscribed()).toBe(0);
  });

  it('shows a channel’s subscriptions only to its members or admins, and only they may stop them', async () => {
    // C0SECRET: a private channel alice alone is in; C0HIDDEN: one the bot cannot read the members of.
    w.fake.channelMembers.set('C0SECRET', [ALICE]);
    w.fake.channelMembers.set('C0HIDDEN', 'hidden');
    for (const channel of ['C0SECRET', 'C0HIDDEN']) {
      const sub = await w.command('subscribe videos', { channel });
      expect(JSON.stringify(await w.reply(sub.responseUrl))).toContain('videos');
    }
    const secret = address.channel('C0SECRET');
    const subscribed = async () => (await w.h.store.subscriptions.list(secret)).length;

    // Bob is in neither: his Home shows neither, nor any button to stop them.
    const bobs = await openHome(BOB);
    const bobText = blocksText(bobs);
    expect(bobText).not.toContain('C0SECRET');
    expect(bobText).not.toContain('C0HIDDEN');
    expect(bobText).toContain('No channel you are in follows anything yet');
    expect(labels(bobs, 'home.unsubscribe')).toEqual([]);

    // Alice, a workspace admin, sees both; bob replaying her button is refused and nothing is removed.
    const alices = await openHome(ALICE);
    expect(blocksText(alices)).toContain('C0SECRET');
    expect(blocksText(alices)).toContain('C0HIDDEN');
    const bobBefore = publishesTo(BOB).length;
    await clickInHome(BOB, alices, 'home.unsubscribe');
    const refused = await w.fake.waitFor(() => publishesTo(BOB)[bobBefore], 'bob’s Home after the click');
    expect(blocksText(viewBlocks(refused))).toContain('Only members of that channel');
    expect(await subscribed()).toBe(1);

    // Once Slack says bob is in C0SECRET, his Home shows it (still not C0HIDDEN).
    w.fake.channelMembers.set('C0SECRET', [ALICE, BOB]);
    const again = blocksText(await openHome(BOB));
    expect(again).toContain('C0SECRET');
    expect(again).not.toContain('C0HIDDEN');
    expect(again).toContain('Channels you are not in are left out.');

    // Each command's work starts once the server has been quiet (src/http/ack-gate.ts): wait for its answer.
    for (const channel of ['C0SECRET', 'C0HIDDEN']) {
      const stop = await w.command('unsubscribe videos', { channel });
      await w.reply(stop.responseUrl);
    }
    expect(await subscribed()).toBe(0);
  });

  it('re-publishes the Home once after quick thumbnail picks made in a channel', async () => {
    const id = await completedVideo(w.h, 'Pick on the card');
    // Its thumbnail options come a little after the video.
    w.h.clock.advance(10 * 60_000);
    await openHome(ALICE);
    const shown = await w.command(`status ${id}`);
    await w.reply(shown.responseUrl);
    await w.h.flush();
    const card = await w.fake.waitFor(
      () =>
        w.cards().find((m) => m.channel === 'C0VIDEOS' && blocksText(m.blocks).includes('Pick on the card')),
      'the live card in the channel',
    );
    await settle();
    await settle();
    const before = publishesTo(ALICE).length;

    // Two picks in a row on the channel's card, each delivered to the channel at once.
    // (The option in use has no button: the second of the others is option 2, then option 3.)
    for (const option of [2, 3]) {
      const now = w.fake.messages.find((m) => m.ts === card.ts) ?? card;
      const pick = await w.click({ blocks: now.blocks, ts: card.ts }, 'thumbnail.pick', { nth: 1 });
      expect(blocksText((await w.reply(pick.responseUrl)).blocks as unknown[])).toContain(
        `now uses option ${option}`,
      );
      await w.h.flush();
    }
    expect(blocksText(w.fake.messages.find((m) => m.ts === card.ts)?.blocks)).toContain('picked by alice');
    // The Home waits for the burst to end…
    expect(publishesTo(ALICE)).toHaveLength(before);
    const queued = (await w.h.store.outbox.depth('slack')) > 0;
    expect(queued).toBe(true);
    // …then is published once for both picks.
    await settle();
    await w.fake.waitFor(() => publishesTo(ALICE)[before], 'the refreshed Home');
    await settle();
    expect(publishesTo(ALICE)).toHaveLength(before + 1);
    expect(blocksText(viewBlocks(publishesTo(ALICE)[before] as SlackCall))).toContain('Pick on the card');
  });
});
