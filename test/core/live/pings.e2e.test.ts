/**
 * The right person is pinged (DESIGN §4), end to end on the core (real simulator over HTTP, both profiles):
 * the requester is mentioned when their video is ready or fails, the scheduler and the approver when a
 * scheduled post fails, each as they asked with `notify` (a mention, a direct message, nothing); the failure
 * carries Retry now, which publishes once with a key of its own, under the approval while the content is the
 * same. Nobody else is pinged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import type { Card } from '../../../src/core/text/cards.js';
import { SIMULATOR_PROFILES } from '../../../src/simulator/options.js';
import type { PostedMessage } from '../../support/fake-chat.js';
import { cardText, DEMO_KEY, textOf } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';
import {
  button,
  card,
  createThroughChat,
  HOUR,
  liveCard,
  MINUTE,
  type VideosHarness,
  videosHarness,
} from '../videos/helpers.js';

const BOB_KEY = 'fl_live_bob_own_key_of_the_demo_team_0123';
const FEED_CHANNEL = 'playground:W1:C2';

describe.each(SIMULATOR_PROFILES)('pings (%s profile)', (profile) => {
  let h: VideosHarness;
  let alice: RequestInfo;
  let bob: RequestInfo;
  beforeEach(async () => {
    h = await videosHarness({ simulator: { profile } });
    h.sim.sim.addKey(DEMO_KEY, BOB_KEY);
    alice = await h.user('alice');
    bob = await h.user('bob', { key: BOB_KEY });
  });
  afterEach(() => h.close());

  const repliesOf = (videoId: string): PostedMessage[] => h.chat.repliesTo(liveCard(h, videoId).message);
  const settled = (videoId: string) => () =>
    repliesOf(videoId).some((r) => /is ready|failed/.test(r.card.title));

  async function createdBy(who: RequestInfo, name: string): Promise<string> {
    const confirm = card(
      await h.run(`create --name "${name}" A short script about ${name} for a test.`, who),
    );
    const pressed = card(
      await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value, who),
    );
    const m = /id `([^`]+)`/.exec(pressed.context ?? '');
    return m?.[1] ?? '';
  }

  it('mentions the requester, and only them, when their video is ready', async () => {
    const id = await createdBy(bob, 'Ready one');
    await h.until(settled(id), { stepMs: 10_000, maxMs: 20 * MINUTE });
    const ready = repliesOf(id).find((r) => r.card.title === '✅ Ready one is ready');
    expect(ready?.card.notify).toEqual([bob.user]);
    expect(h.chat.notices).toEqual([]);
  });

  it('mentions the requester when their video fails', async () => {
    h.sim.sim.setKnobs({ generationFailureRate: 1 });
    const id = await createThroughChat(
      h,
      'create --name "Doomed" A short script that will fail to generate.',
    );
    await h.until(settled(id), { stepMs: 10_000, maxMs: 20 * MINUTE });
    const failed = repliesOf(id).find((r) => r.card.title === '❌ Doomed failed');
    expect(failed?.card.notify).toEqual([alice.user]);
  });

  it('mentions nobody once the member turned mentions off; the news still goes to the thread', async () => {
    expect(card(await h.run('notify mentions off', bob)).title).toBe('Mentions are off');
    expect(card(await h.run('notify', bob)).title).toBe('Mentions are off');
    const id = await createdBy(bob, 'Quiet one');
    await h.until(settled(id), { stepMs: 10_000, maxMs: 20 * MINUTE });
    const ready = repliesOf(id).find((r) => r.card.title === '✅ Quiet one is ready');
    expect(ready).toBeDefined();
    expect(ready?.card.notify).toBeUndefined();
    expect(h.chat.notices).toEqual([]);
  });

  it('sends the ping as a direct message with --dm, and no mention in the channel', async () => {
    expect(card(await h.run('notify --dm', bob)).title).toBe('Your pings come as direct messages');
    const id = await createdBy(bob, 'Direct one');
    await h.until(settled(id), { stepMs: 10_000, maxMs: 20 * MINUTE });
    const ready = repliesOf(id).find((r) => r.card.title === '✅ Direct one is ready');
    expect(ready?.card.notify).toBeUndefined();
    expect(h.chat.notices.map((n) => ({ user: n.user, title: n.card.title, direct: n.direct }))).toEqual([
      { user: bob.user, title: '✅ Direct one is ready', direct: true },
    ]);
    // Back to a mention in the channel.
    expect(card(await h.run('notify mentions on', bob)).title).toBe('You are mentioned in the channel');
  });

  it('refuses mentions off with --dm in words', async () => {
    const r = await h.run('notify mentions off --dm', bob);
    expect(textOf(r)).toContain('With mentions off nothing is sent to you');
    expect(await h.store.users.getNotify(bob.user)).toBeUndefined();
  });

  describe('a scheduled post that fails', () => {
    const posts = () => h.sim.sim.received({ method: 'POST', path: '/posts' }).length;
    let id: string;

    async function approvedSchedule(): Promise<void> {
      id = await completedVideo(h, 'Launch teaser', { render: true });
      await h.deps.apiFor(DEMO_KEY).videos.update(id, { posts: { x: { text: 'Launch teaser' } } });
      for (const line of ['role admin @alice', 'approval publish', 'approvers @bob'])
        expect(textOf(await h.run(`settings ${line}`, alice))).toContain('updated');
      // Another channel follows the calendar: it hears of the failure too, with no mention.
      await h.run('subscribe calendar', { ...alice, conversation: FEED_CHANNEL });
      await h.run('status Launch teaser', alice);
      await h.run('schedule "Launch teaser" x in 2 hours', alice);
      const request = h.chat.channelMessages.find((m) => m.card.title.startsWith('Approval needed'));
      const approve = (request?.card.controls ?? []).find(
        (c) => c.kind === 'button' && c.action === 'approval.approve',
      );
      if (approve?.kind !== 'button') throw new Error('no approval card');
      await h.click('approval.approve', approve.value, bob);
      h.sim.sim.setKnobs({ postFailureRate: 1 });
      await h.until(() => failure() !== undefined, { stepMs: 10 * MINUTE, maxMs: 6 * HOUR });
    }
    const failure = (): Card | undefined => repliesOf(id).find((r) => r.card.title === 'Failed on X')?.card;
    const retryValue = (): string => button(failure() as Card, 'post.retry', 'Retry now').value;

    it('mentions the scheduler and the approver, with Retry now that posts exactly once', async () => {
      await approvedSchedule();
      expect(failure()?.notify).toEqual([alice.user, bob.user]);
      // The channel's calendar subscription says it too, mentioning nobody.
      const feed = () =>
        h.chat.channelMessages.find((m) => m.conversation === FEED_CHANNEL && /failed/.test(m.card.title));
      await h.until(() => feed() !== undefined, { stepMs: 5 * MINUTE, maxMs: 2 * HOUR });
      expect(feed()?.card.notify).toBeUndefined();
      expect(cardText(failure() as Card)).not.toContain('/reel publish');

      h.sim.sim.setKnobs({ postFailureRate: 0 });
      const before = posts();
      const retried = card(await h.click('post.retry', retryValue(), alice));
      expect(retried.title).toBe('Published to X');
      expect(retried.context).toContain('Retried by alice, under the approval of the schedule');
      expect(posts()).toBe(before + 1);
      const sent = h.sim.sim.received({ method: 'POST', path: '/posts' }).at(-1);
      expect(sent?.body).toMatchObject({ videoId: id, platform: 'x' });
      // A second click (a stale copy, another conversation) sends nothing and says who retried.
      const again = await h.click('post.retry', retryValue(), bob);
      expect(textOf(again)).toContain('Already done by');
      expect(posts()).toBe(before + 1);
      expect(h.sim.sim.publishedPosts().filter((p) => p.platform === 'x')).toHaveLength(1);
    });

    it('asks for approval again when the video changed since it was approved', async () => {
      await approvedSchedule();
      h.sim.sim.setKnobs({ postFailureRate: 0 });
      await h.deps.apiFor(DEMO_KEY).videos.update(id, { posts: { x: { text: 'A different text' } } });
      const before = posts();
      const r = await h.click('post.retry', retryValue(), alice);
      expect(posts()).toBe(before);
      expect(card(r).title).toBe('Sent for approval');
    });
  });
});
