/**
 * The live video card through the outbox (chat.postMessage, then chat.update as the video moves) in a
 * workspace that refuses carousels, with the real Bolt app against the fake Slack: the card still posts and
 * every edit lands, in the classic rendering (the thumbnails one under another, each with its button); the
 * refusal is paid once for the workspace; a button of the classic rendering still picks the variant at the
 * simulator. A refusal for another reason (an image Slack cannot fetch) still falls back a step further.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import type { FakeMessage } from './fake-slack.js';
import { blocksText, elements, expectValidBlocks, type SlackWorld, slackWorld } from './world.js';

const MINUTE = 60_000;
let w: SlackWorld;
afterEach(() => w.close());

const types = (blocks: unknown) => ((blocks ?? []) as { type: string }[]).map((b) => b.type);
const picks = (m: { blocks?: unknown[] | undefined }) =>
  elements(m.blocks ?? []).filter((e) => String(e.action_id).startsWith('thumbnail.pick|'));
const cardOf = (videoId: string): FakeMessage | undefined =>
  w.cards().find((m) => blocksText(m.blocks).includes(videoId));

/** A completed video whose three thumbnails are ready at the service. */
async function videoWithThumbnails(name: string): Promise<string> {
  const id = await completedVideo(w.h, name);
  const api = apiOf(w.h);
  await w.h.until(async () => (await api.videos.get(id)).thumbnails?.status === 'ready', {
    stepMs: 5_000,
    maxMs: 10 * MINUTE,
  });
  return id;
}

/** `/reel status <id>`: the video's live card is posted in the channel by the outbox. */
async function postCardOf(videoId: string): Promise<FakeMessage> {
  await w.reply((await w.command(`status ${videoId}`)).responseUrl);
  await w.h.flush();
  return await w.fake.waitFor(() => cardOf(videoId), `the live card of ${videoId}`);
}

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
    w.fake.refusedBlocks.add('carousel');
  });

  it('posts the card classic after one refusal, and the next card goes classic at once', async () => {
    const first = await videoWithThumbnails('Octopus facts');
    const card = await postCardOf(first);
    expect(w.fake.refusals.map((r) => r.where)).toEqual(['chat.postMessage']);
    expect(types(w.fake.refusals[0]?.blocks)).toContain('carousel');
    // The classic rendering: the three options one under another, each its picture and its button.
    expect(types(card.blocks)).not.toContain('carousel');
    expect(types(card.blocks).filter((t) => t === 'image')).toHaveLength(3);
    expect(picks(card)).toHaveLength(3);
    expect(blocksText(card.blocks)).toContain('Option 2');
    expectValidBlocks(card.blocks);

    // "Use this" from the classic rendering picks the variant at the simulator; the edit lands classic.
    const chosen = String(picks(card)[1]?.value);
    const pick = await w.click({ blocks: card.blocks, ts: card.ts }, 'thumbnail.pick', { nth: 1 });
    expect(blocksText((await w.reply(pick.responseUrl)).blocks as unknown[])).toContain('now uses option 2');
    const selected = w.h.sim.sim.received({ method: 'POST', path: `/videos/${first}/thumbnail` });
    expect(selected.map((r) => r.body)).toEqual([{ variantId: chosen.slice(chosen.indexOf(':') + 1) }]);
    await w.h.flush();
    const edited = cardOf(first) as FakeMessage;
    expect(blocksText(edited.blocks)).toContain('in use (picked by alice)');
    expect(types(edited.blocks)).not.toContain('carousel');
    expect(w.fake.callsOf('chat.update').filter((c) => c.args.ts === card.ts).length).toBeGreaterThan(0);

    // The next video's card goes classic at once: no second refusal.
    const second = await videoWithThumbnails('Squid facts');
    const next = await postCardOf(second);
    expect(picks(next)).toHaveLength(3);
    expect(types(next.blocks)).not.toContain('carousel');
    expect(w.fake.refusals).toHaveLength(1);
    expect(w.fake.calls.filter((c) => c.outcome?.ok === false)).toHaveLength(1);
  });

  it('edits a generating card classic once its thumbnails come, paying the refusal once', async () => {
    const sent = await w.command(
      'create --model motion_lite --name "Moon landing" Ten seconds about the moon landing.',
    );
    const confirm = await w.reply(sent.responseUrl);
    const click = await w.click(
      { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
      'video.create.confirm',
    );
    await w.reply(click.responseUrl);
    await w.h.flush();
    expect(w.cards()).toHaveLength(1);
    const card = w.cards()[0] as FakeMessage;
    await w.h.until(() => picks(w.cards()[0] as FakeMessage).length === 3, {
      stepMs: 5_000,
      maxMs: 30 * MINUTE,
    });

    // The edit that brought the thumbnails was refused once (chat.update), then landed classic.
    expect(w.fake.refusals.map((r) => r.where)).toEqual(['chat.update']);
    const live = w.cards()[0] as FakeMessage;
    expect(live.ts).toBe(card.ts);
    expect(types(live.blocks)).not.toContain('carousel');
    expect(types(live.blocks).filter((t) => t === 'image')).toHaveLength(3);
    // Every edit landed: each chat.update of the card that Slack took is a version of the message.
    const updates = w.fake.callsOf('chat.update').filter((c) => c.args.ts === card.ts);
    const taken = updates.filter((c) => c.outcome?.ok === true);
    expect(taken.length).toBe(updates.length - 1);
    expect(live.history).toHaveLength(1 + taken.length);

    // Later edits of the card go classic at once.
    const pick = await w.click({ blocks: live.blocks, ts: live.ts }, 'thumbnail.pick', { nth: 0 });
    expect(blocksText((await w.reply(pick.responseUrl)).blocks as unknown[])).toContain('now uses option 1');
    await w.h.flush();
    expect(blocksText((w.cards()[0] as FakeMessage).blocks)).toContain('in use (picked by alice)');
    expect(w.fake.refusals).toHaveLength(1);
    expect(w.h.sim.sim.received({ method: 'POST', path: /\/thumbnail$/ })).toHaveLength(1);
  });

  it('still falls back without images when an edit is refused for an image', async () => {
    const id = await videoWithThumbnails('Octopus facts');
    const card = await postCardOf(id);
    // Slack cannot fetch a picture: the classic blocks are refused too; the edit lands without images.
    w.fake.fail('chat.update', {
      error: 'invalid_blocks',
      messages: ['[ERROR] downloading image failed [json-pointer:/blocks/5/image_url]'],
    });
    const pick = await w.click({ blocks: card.blocks, ts: card.ts }, 'thumbnail.pick', { nth: 2 });
    await w.reply(pick.responseUrl);
    await w.h.flush();
    const edited = cardOf(id) as FakeMessage;
    expect(blocksText(edited.blocks)).toContain('in use (picked by alice)');
    expect(types(edited.blocks)).not.toContain('image');
    expect(picks(edited)).toHaveLength(2);
    // The carousel refusal stays the only one remembered: the image refusal blamed no native block.
    expect(w.fake.refusals).toHaveLength(1);
  });
});
