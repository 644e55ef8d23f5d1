/**
 * The whole life of a video from chat: create (cost confirm) → progress on one card edited in place →
 * thumbnails → pick → render → MP4, with milestones in the card's thread.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { md } from '../../../src/core/text/text.js';
import { cardText, DEMO_KEY, textOf } from '../../support/harness.js';
import {
  button,
  buttons,
  card,
  completeVideo,
  idFrom,
  liveCard,
  liveCards,
  MINUTE,
  type VideosHarness,
  videosHarness,
  writes,
} from './helpers.js';

let h: VideosHarness;
beforeEach(async () => {
  h = await videosHarness();
});
afterEach(() => h.close());

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);

describe('create → progress → thumbnails → pick → render → MP4', () => {
  it('runs the whole flow on one card edited in place', async () => {
    const confirm = card(
      await h.run(
        'create --model motion_pro --name "Octopus facts" Octopuses have three hearts and blue blood.',
      ),
    );
    expect(confirm.text).toBe('Create “Octopus facts” with Motion Pro: **100 credits**, balance 500 → 400.');
    expect(writes(h)).toEqual([]);
    expect(spends()).toEqual([]);

    const creating = card(
      await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value),
    );
    expect(creating.title).toBe('Creating “Octopus facts”…');
    const id = idFrom(creating);
    expect(spends().map((e) => e.credits)).toEqual([-100]);
    expect(await h.store.users.getLast('playground:W1:alice', 'video')).toBe(id);

    // The live card is a channel message, posted through the outbox.
    const live = liveCard(h, id);
    expect(live.card.title).toBe('Octopus facts');
    expect(live.card.progress?.percent).toBe(0);
    expect(live.card.context).toContain('Requested by alice');
    expect(await h.store.watches.findActive('generation', id)).toMatchObject({
      conversation: h.conversation,
      owner: 'playground:W1:alice',
    });

    // motion_pro takes 240 s at speed 1: the card moves through several percent steps.
    await h.until(() => live.card.tone === 'success', { stepMs: 5_000, maxMs: 10 * MINUTE });
    const percents = live.history.map((c) => c.progress?.percent).filter((p) => p !== undefined);
    expect(new Set(percents).size).toBeGreaterThan(3);
    expect(percents).toEqual([...percents].sort((a, b) => (a as number) - (b as number)));
    expect(live.history.some((c) => c.progress?.label?.includes('left'))).toBe(true);
    expect(liveCards(h, id)).toHaveLength(1);

    // Ready milestone: once, in the card's thread.
    const replies = () => h.chat.repliesTo(live.message);
    expect(replies().map((r) => r.card.title)).toEqual(['✅ Octopus facts is ready']);

    // Thumbnails arrive a little after completion ("on the way" first), each with "Use this".
    await h.until(() => (live.card.sections?.length ?? 0) === 3, { stepMs: 5_000, maxMs: 5 * MINUTE });
    expect(live.history.some((c) => c.text?.includes('Thumbnails are on the way'))).toBe(true);
    expect(cardText(live.card)).toContain('⭐ AI pick, in use');
    expect(buttons(live.card).filter((b) => b.action === 'thumbnail.pick')).toHaveLength(3);
    expect(buttons(live.card).map((b) => b.label)).toEqual(
      expect.arrayContaining(['Render', 'Schedule', 'Publish now', 'Use this']),
    );
    expect(await h.store.watches.findActive('generation', id)).toBeUndefined();

    // Pick option 3 from the live card: selected with the clicker's key, the card marks it.
    const third = button({ title: md``, sections: [live.card.sections?.[2] ?? {}] }, 'thumbnail.pick').value;
    const picked = await h.click('thumbnail.pick', third, {
      ...(await h.user('alice')),
      message: live.message,
    });
    expect(textOf(picked)).toContain('now uses option 3');
    const video = await h.api.videos.get(id);
    expect(video.thumbnails?.selectedBy).toBe('user');
    expect(video.thumbnails?.selectedVariantId).toBe(third.split(':')[1]);
    expect(live.card.sections?.[2]?.title).toContain('✅ in use (picked by alice)');
    expect(live.card.sections?.[2]?.controls).toBeUndefined();

    // Render from the card's button; progress on the same card, then the MP4 link and a thread reply.
    const rendering = await h.click('video.render', button(live.card, 'video.render').value);
    expect(textOf(rendering)).toContain('Rendering “Octopus facts” (h264)');
    expect(live.card.fields?.find((f) => f.label === 'Render')?.value).toContain('0%');
    await h.until(() => live.card.video !== undefined, { stepMs: 5_000, maxMs: 5 * MINUTE });
    const rendered = (await h.api.videos.get(id)).renderedVideoUrl as string;
    expect(rendered).toMatch(/\.mp4$/);
    // The video itself is the one way to it (each platform shows one Watch / Download link), and the
    // headline says where the video is now and what comes next.
    expect(live.card.video?.url).toBe(rendered);
    expect(live.card.fields?.find((f) => f.label === 'Render')).toBeUndefined();
    expect(live.card.controls?.filter((c) => c.kind === 'link')).toEqual([]);
    expect(live.card.text).toMatch(
      /^\*\*Rendered\.\*\* .* Watch it here or download the MP4, then \*\*Schedule\*\*/,
    );
    expect(live.history.some((c) => /Render: .* [1-9]\d% \(h264\)/.test(cardText(c)))).toBe(true);
    expect(replies().map((r) => r.card.text)).toContain(`Rendered: ${rendered}`);
    expect(button(live.card, 'video.render').label).toBe('Render again');
    // Still exactly one card for the video, and one charge.
    expect(liveCards(h, id)).toHaveLength(1);
    expect(spends()).toHaveLength(1);
    expect(await h.store.watches.active()).toEqual([]);
  });

  it('charges once for a double-clicked Create', async () => {
    const confirm = card(await h.run('create --model motion_lite Ten seconds about the moon landing.'));
    const value = button(confirm, 'video.create.confirm').value;
    const [a, b] = await Promise.all([
      h.click('video.create.confirm', value),
      h.click('video.create.confirm', value),
    ]);
    expect(idFrom(card(a))).toBe(idFrom(card(b)));
    // And a late third click changes nothing either: it says who created it, and when.
    const c = await h.click('video.create.confirm', value);
    expect(card(c).title).toBe('Already done');
    expect(card(c).text).toContain(': Creating “');
    expect(spends().map((e) => e.credits)).toEqual([-50]);
    expect((await h.api.videos.list()).items).toHaveLength(1);
    const id = idFrom(card(a));
    expect(liveCards(h, id)).toHaveLength(1);
    expect((await h.store.watches.active()).filter((w) => w.kind === 'generation')).toHaveLength(1);
    expect(
      (await h.store.audit.list({ workspacePrefix: 'playground:W1' })).filter(
        (e) => e.action === 'video.create',
      ),
    ).toHaveLength(1);
  });

  it('says so once on the card and in the thread when generation fails', async () => {
    h.sim.sim.setKnobs({ generationFailureRate: 1 });
    const confirm = card(await h.run('create A script that is going to fail somewhere.'));
    const id = idFrom(
      card(await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value)),
    );
    const live = liveCard(h, id);
    await h.until(() => live.card.tone === 'danger', { maxMs: 5 * MINUTE });
    expect(live.card.text).toContain('Generation failed');
    expect(live.card.text).toContain('not refunded automatically');
    const status = await h.api.videos.status(id);
    for (const reason of status.errorMessages) expect(live.card.text).toContain(reason);
    expect(buttons(live.card)).toEqual([]);
    await h.advance(2 * MINUTE);
    const replies = h.chat.repliesTo(live.message);
    expect(replies.map((r) => r.card.title)).toEqual([`❌ ${live.card.title} failed`]);
    expect(await h.store.watches.active()).toEqual([]);
  });

  it('stops watching after the watch age and says how to look again', async () => {
    h.deps.watchMaxAgeMs = 30_000;
    const confirm = card(await h.run('create --model motion_pro A slow cinematic video about glaciers.'));
    const id = idFrom(
      card(await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value)),
    );
    const live = liveCard(h, id);
    await h.advance(40_000);
    await h.advance(10_000);
    expect(live.card.text).toContain(`Stopped watching after 30 s; run \`/reel status ${id}\``);
    expect(await h.store.watches.active()).toEqual([]);

    // `status` picks it up again on the same card (with the normal watch age).
    delete h.deps.watchMaxAgeMs;
    const status = await h.run(`status ${id}`);
    expect(textOf(status)).toContain('Its status card in this channel follows it again');
    expect(await h.store.watches.findActive('generation', id)).toBeDefined();
    await h.until(() => live.card.tone === 'success', { maxMs: 10 * MINUTE });
    expect(live.card.text).not.toContain('Stopped watching');
    expect(liveCards(h, id)).toHaveLength(1);
  });

  it('status brings an abandoned card up to date once the video is finished', async () => {
    h.deps.watchMaxAgeMs = 20_000;
    const confirm = card(await h.run('create A video whose card nobody watches any more.'));
    const id = idFrom(
      card(await h.click('video.create.confirm', button(confirm, 'video.create.confirm').value)),
    );
    const live = liveCard(h, id);
    await h.advance(30_000);
    expect(live.card.text).toContain('Stopped watching');
    await completeVideo(h, id);
    const r = card(await h.run(`status ${id}`));
    expect(r.tone).toBe('success');
    await h.flush();
    expect(live.card.tone).toBe('success');
    expect(live.card.text).not.toContain('Stopped watching');
    expect(live.card.sections).toHaveLength(3);
    expect(await h.store.watches.active()).toEqual([]);
  });
});
