/**
 * One living card per video, end to end through the core, the real simulator over HTTP, the
 * poller, the outbox and real SQLite: a video shown in several conversations has one state; a click or a
 * command anywhere edits every card; one watch follows it; milestones are said once per card; another team
 * cannot bring it into view; at most MAX_PROJECTIONS cards stay live, the oldest told where it went.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { MAX_PROJECTIONS, projectionsOf, videoState } from '../../../src/core/live/projections.js';
import { DEMO_KEY, textOf } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';
import {
  apiVideo,
  button,
  buttons,
  card,
  completeVideo,
  liveCards,
  MINUTE,
  OTHER_KEY,
  twoTeamsHarness,
  type VideosHarness,
} from './helpers.js';

let h: VideosHarness;

/** Channel `n` of the harness's workspace (`C1` is the harness's own). */
const channelN = (n: number): string => h.conversation.replace(/C1$/, `C${n}`);
const inChannel = (req: RequestInfo, n: number): RequestInfo => ({ ...req, conversation: channelN(n) });
const cardIn = (videoId: string, n: number) => {
  const found = liveCards(h, videoId).filter((p) => p.conversation === channelN(n));
  expect(found).toHaveLength(1);
  return found[0] as NonNullable<(typeof found)[number]>;
};
const activeWatches = async (videoId: string, kind: string) =>
  (await h.store.watches.activeWhere({ target: videoId })).filter((w) => w.kind === kind);

// On the seed spec's shapes and on the real service's (DESIGN §7).
describe.each(['spec', 'real'] as const)('one living card per video (%s profile)', (profile) => {
  beforeEach(async () => {
    h = await twoTeamsHarness(profile);
  });
  afterEach(() => h.close());

  it('status elsewhere adds a card; a pick there shows on both, with who made it; one watch; milestones once per card', async () => {
    const alice = await h.user('alice');
    const bob = await h.user('bob');
    const id = await apiVideo(h, 'Octopus facts');
    expect(textOf(await h.run(`status ${id}`, alice))).toContain('I posted a status card');
    expect(textOf(await h.run(`status ${id}`, inChannel(bob, 2)))).toContain('I posted a status card');
    // Two cards, one state, one watch, whatever the number of conversations.
    expect(
      liveCards(h, id)
        .map((p) => p.conversation)
        .sort(),
    ).toEqual([channelN(1), channelN(2)]);
    expect(await activeWatches(id, 'generation')).toHaveLength(1);
    expect(await projectionsOf(h.store, id)).toHaveLength(2);
    // Each card names the other conversation of the same team.
    expect(cardIn(id, 1).card.context).toContain(`also live in ⟦#${channelN(2)}⟧`);
    expect(cardIn(id, 2).card.context).toContain(`also live in ⟦#${channelN(1)}⟧`);

    await h.until(() => cardIn(id, 1).card.tone === 'success' && cardIn(id, 2).card.tone === 'success', {
      maxMs: 10 * MINUTE,
    });
    await completeVideo(h, id);
    await h.until(async () => ((await videoState(h.store, id))?.thumbnails?.variants.length ?? 0) > 0, {
      maxMs: 5 * MINUTE,
    });
    // The "ready" milestone: said once in each card's place, never twice.
    for (const n of [1, 2]) {
      const said = h.chat.posts.filter(
        (p) => p.conversation === channelN(n) && p.card.title?.includes('is ready'),
      );
      expect(said).toHaveLength(1);
    }

    // Bob picks on his card (channel 2): alice's card in channel 1 shows the pick and who made it.
    const pick = buttons(cardIn(id, 2).card).find((b) => b.action === 'thumbnail.pick');
    expect(pick).toBeDefined();
    await h.click('thumbnail.pick', pick?.value ?? '', {
      ...inChannel(bob, 2),
      message: cardIn(id, 2).message,
    });
    await h.sender.drain();
    expect(
      cardIn(id, 1)
        .card.sections?.map((s) => s.title)
        .join('\n'),
    ).toContain('picked by bob');
    expect(
      cardIn(id, 2)
        .card.sections?.map((s) => s.title)
        .join('\n'),
    ).toContain('picked by bob');

    // A render started from channel 1 ends with the MP4 link on both cards, and one render watch.
    const render = button(cardIn(id, 1).card, 'video.render');
    await h.click('video.render', render.value, { ...alice, message: cardIn(id, 1).message });
    expect(await h.store.watches.activeWhere({ kind: 'render' })).toHaveLength(1);
    await h.until(() => [1, 2].every((n) => cardIn(id, n).card.video !== undefined), {
      maxMs: 10 * MINUTE,
    });
    for (const n of [1, 2]) {
      const rendered = h.chat.posts.filter(
        (p) => p.conversation === channelN(n) && (p.card.text ?? '').startsWith('Rendered:'),
      );
      expect(rendered.length).toBe(1);
    }
  });

  it('"Show here" on show and the videos menu bring the live card into the conversation', async () => {
    const alice = await h.user('alice');
    const id = await apiVideo(h, 'Glaciers', { complete: true });
    const shown = card(await h.run(`show ${id}`, inChannel(alice, 2)));
    const here = button(shown, 'video.show-here', 'Show here');
    expect(liveCards(h, id)).toHaveLength(0);
    await h.click('video.show-here', here.value, inChannel(alice, 2));
    expect(cardIn(id, 2).card.title).toContain('Glaciers');

    const list = card(await h.run('videos', inChannel(alice, 3)));
    const menu = list.controls?.find((c) => c.kind === 'select' && c.action === 'video.show-here');
    expect(menu?.kind === 'select' && menu.options.map((o) => o.value)).toContain(id);
    await h.click('video.show-here', '', inChannel(alice, 3), id);
    expect(
      liveCards(h, id)
        .map((p) => p.conversation)
        .sort(),
    ).toEqual([channelN(2), channelN(3)]);

    // A click is re-authorised with the clicker's own key: another team's member shows nothing.
    const outsider = await h.user('mallory', { key: OTHER_KEY });
    const refused = await h.click('video.show-here', here.value, inChannel(outsider, 4));
    expect(textOf(refused)).toMatch(/No video matches|not found|no longer exists/i);
    expect(await h.store.cards.get(videoCardKey(id, channelN(4)))).toBeUndefined();
  });

  it('an approval decided where it was asked shows on every card of the video, in every conversation', async () => {
    const BOB_KEY = 'fl_live_bob_own_key_of_the_demo_team_0123';
    h.sim.sim.addKey(DEMO_KEY, BOB_KEY);
    const alice = await h.user('alice');
    const bob = await h.user('bob', { key: BOB_KEY });
    const id = await completedVideo(h, 'Launch teaser', { render: true });
    await h.api.videos.update(id, { posts: { youtube: { title: 'Launch', privacyStatus: 'public' } } });
    await h.run(`status ${id}`, alice);
    await h.run(`status ${id}`, inChannel(bob, 2));
    for (const line of ['role admin @alice', 'approval publish', 'approvers @bob'])
      expect(textOf(await h.run(`settings ${line}`, alice))).toContain('updated');

    await h.run(`publish ${id} youtube`, alice);
    await h.sender.drain();
    for (const n of [1, 2]) expect(cardIn(id, n).card.text).toContain('⏳ Waiting for approval: Publish');
    const workspace = h.conversation.split(':').slice(0, 2).join(':');
    const approvalId = (await h.store.approvals.pendingIn(workspace))[0]?.id ?? '';
    expect(approvalId).not.toBe('');

    // Bob decides on the request in channel 1 (an approval belongs to its channel); the card in channel 2,
    // which he watches, follows.
    expect(textOf(await h.click('approval.approve', approvalId, bob))).toContain('Approved');
    await h.sender.drain();
    for (const n of [1, 2]) {
      expect(cardIn(id, n).card.text).toContain('✅ Approved by bob: Publish');
      expect(JSON.stringify(cardIn(id, n).card.fields)).toContain('View post');
    }
  });

  it('a member of another team gets "not found" and no card is made', async () => {
    const id = await apiVideo(h, 'Secret launch', { complete: true });
    await h.run(`status ${id}`, await h.user('alice'));
    const outsider = await h.user('mallory', { key: OTHER_KEY });
    const answer = textOf(await h.run(`status ${id}`, inChannel(outsider, 3)));
    expect(answer).toMatch(/No video matches|not found|no longer exists/i);
    expect(await h.store.cards.get(videoCardKey(id, channelN(3)))).toBeUndefined();
    expect(liveCards(h, id).map((p) => p.conversation)).toEqual([channelN(1)]);
    expect(await projectionsOf(h.store, id)).toHaveLength(1);
  });

  it(`keeps at most ${MAX_PROJECTIONS} live cards: the oldest says where the card went, and status brings it back`, async () => {
    const alice = await h.user('alice');
    const id = await apiVideo(h, 'Everywhere', { complete: true });
    for (let n = 1; n <= MAX_PROJECTIONS; n++) {
      await h.run(`status ${id}`, inChannel(alice, n));
      h.clock.advance(1000);
    }
    expect(await projectionsOf(h.store, id)).toHaveLength(MAX_PROJECTIONS);
    const first = cardIn(id, 1);
    expect(first.card.text).not.toContain('stopped following');

    await h.run(`status ${id}`, inChannel(alice, MAX_PROJECTIONS + 1));
    await h.sender.drain();
    const live = (await projectionsOf(h.store, id)).map((p) => p.conversation);
    expect(live).toHaveLength(MAX_PROJECTIONS);
    expect(live).not.toContain(channelN(1));
    expect(first.card.text).toContain(
      `stopped following: the video is live in ⟦#${channelN(MAX_PROJECTIONS + 1)}⟧`,
    );
    expect(first.card.controls ?? []).toEqual([]);

    // A later change reaches the live cards, not the retired one.
    await h.run(`rename ${id} Everywhere at once`, inChannel(alice, 2));
    await h.sender.drain();
    expect(cardIn(id, 2).card.title).toContain('Everywhere at once');
    expect(first.card.title).not.toContain('Everywhere at once');

    // `status` in the retired channel brings the same message back to life (an edit, not a second post).
    const postsBefore = h.chat.posts.length;
    await h.run(`status ${id}`, inChannel(alice, 1));
    await h.sender.drain();
    expect(
      h.chat.posts.filter((p) => p.conversation === channelN(1) && p.card.context?.includes(id)),
    ).toHaveLength(1);
    expect(first.card.title).toContain('Everywhere at once');
    expect(h.chat.posts.length).toBe(postsBefore);
    const after = (await projectionsOf(h.store, id)).map((p) => p.conversation);
    expect(after).toContain(channelN(1));
    expect(after).not.toContain(channelN(2));
    expect(after).toHaveLength(MAX_PROJECTIONS);
  });
});
