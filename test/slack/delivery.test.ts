/**
 * The Slack sender under the outbox: a 429 from chat.postMessage pauses deliveries until Retry-After and the
 * card is posted once after it (no handler waits on it); a post whose answer was lost (crash, timeout) is
 * found again through its message metadata instead of being posted twice; errors map to retryable or not.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBotTokens } from '../../adapters/slack/installations.js';
import { createSlackSender } from '../../adapters/slack/sender.js';
import { ChatDeliveryError, type ChatSender } from '../../src/core/ports/index.js';
import type { Card } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { ALICE, address, BOT_TOKEN, blocksText, CHANNEL, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
beforeEach(async () => {
  w = await slackWorld();
});
afterEach(() => w.close());

const card: Card = {
  title: md`Octopus facts`,
  tone: 'progress',
  text: md`Generating…`,
  progress: { percent: 10 },
};

/** A sender as after a restart: same store, nothing in memory. */
const freshSender = (timeoutMs = 2_000): ChatSender =>
  createSlackSender({
    tokens: createBotTokens({ botToken: BOT_TOKEN }),
    store: w.h.store,
    logger: w.h.deps.logger,
    apiUrl: w.fake.apiUrl,
    timeoutMs,
  });

describe('429 from chat.postMessage', () => {
  it('is retried by the outbox after Retry-After, posting the card exactly once', async () => {
    const sent = await w.command(
      'create --model motion_lite --name "Moon landing" Ten seconds about the moon landing.',
    );
    const confirm = await w.reply(sent.responseUrl);
    w.fake.fail('chat.postMessage', { retryAfter: 30 });
    const click = await w.click(
      { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
      'video.create.confirm',
    );
    // The click is answered at once: deliveries never hold up a handler.
    expect(blocksText((await w.reply(click.responseUrl)).blocks as unknown[])).toContain(
      'Creating “Moon landing”',
    );

    const started = performance.now();
    await w.h.flush();
    expect(performance.now() - started).toBeLessThan(2_000); // the client rejected, it did not sleep 30 s
    expect(w.fake.callsOf('chat.postMessage')).toHaveLength(1);
    expect(w.cards()).toHaveLength(0);
    expect(await w.h.store.outbox.depth('slack')).toBeGreaterThan(0);

    await w.h.advance(20_000);
    expect(w.fake.callsOf('chat.postMessage')).toHaveLength(1); // still within Retry-After
    await w.h.advance(11_000);
    expect(w.cards()).toHaveLength(1);
    const posts = w.fake.callsOf('chat.postMessage').filter((c) => !c.args.thread_ts);
    expect(posts).toHaveLength(2);
    expect(posts[0]?.args.metadata).toEqual(posts[1]?.args.metadata); // the same outbox row, retried
    // The 429 was Slack's answer (nothing posted): no history lookup was needed.
    expect(w.fake.callsOf('conversations.history')).toHaveLength(0);

    await w.h.until(() => blocksText(w.cards()[0]?.blocks).includes(':white_check_mark:'), {
      maxMs: 10 * 60_000,
    });
    expect(w.cards()).toHaveLength(1);
    expect(w.fake.callsOf('chat.update').length).toBeGreaterThan(0);
  });
});

describe('no duplicate after a lost answer', () => {
  it('finds the message an earlier attempt posted (metadata) instead of posting again', async () => {
    const conversation = address.channel();
    w.fake.fail('chat.postMessage', { swallow: true });
    const first = freshSender(300);
    const error = await first.post(conversation, card, { dedupeId: 'outbox:9001' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatDeliveryError);
    expect((error as ChatDeliveryError).retryable).toBe(true);
    // Slack did post it; only the answer was lost.
    expect(w.fake.messages).toHaveLength(1);
    const ts = w.fake.messages[0]?.ts as string;

    const restarted = freshSender();
    const message = await restarted.post(conversation, card, { dedupeId: 'outbox:9001' });
    expect(message).toBe(`${conversation}:${ts}`);
    expect(w.fake.callsOf('chat.postMessage')).toHaveLength(1);
    const lookup = w.fake.callsOf('conversations.history')[0];
    expect(lookup?.args).toMatchObject({ channel: CHANNEL, include_all_metadata: true });

    // Known now: no call at all.
    const calls = w.fake.calls.length;
    expect(await freshSender().post(conversation, card, { dedupeId: 'outbox:9001' })).toBe(message);
    expect(w.fake.calls.length).toBe(calls);
  });

  it('looks in the thread for a threaded reply, and posts when the earlier attempt never arrived', async () => {
    const conversation = address.channel();
    const parent = await freshSender().post(conversation, card, { dedupeId: 'outbox:1' });
    // An attempt that began (journalled) but never reached Slack.
    await w.h.store.deliveries.begin('outbox:2', conversation);
    const reply = await freshSender().post(
      conversation,
      { title: md`Ready` },
      { dedupeId: 'outbox:2', threadOf: parent },
    );
    expect(w.fake.callsOf('conversations.replies')[0]?.args).toMatchObject({
      ts: parent.split(':')[3],
      include_all_metadata: true,
    });
    const replies = w.fake.messages.filter((m) => m.thread_ts === parent.split(':')[3]);
    expect(replies).toHaveLength(1);
    expect(reply).toBe(`${conversation}:${replies[0]?.ts}`);
  });

  it('does not look up history for a first attempt, nor after Slack refused the previous one', async () => {
    const sender = freshSender();
    w.fake.fail('chat.postMessage', { error: 'internal_error' });
    await expect(sender.post(address.channel(), card, { dedupeId: 'outbox:77' })).rejects.toMatchObject({
      retryable: true,
    });
    await sender.post(address.channel(), card, { dedupeId: 'outbox:77' });
    expect(w.fake.callsOf('conversations.history')).toHaveLength(0);
    expect(w.fake.messages).toHaveLength(1);
  });
});

describe('Slack errors as delivery errors', () => {
  it('maps permanent and transient failures, and 429 with its Retry-After', async () => {
    const sender = freshSender();
    const conversation = address.channel();
    const posted = await sender.post(conversation, card, { dedupeId: 'outbox:5' });

    w.fake.fail('chat.update', { error: 'message_not_found' });
    await expect(sender.update(posted, card)).rejects.toMatchObject({
      retryable: false,
      message: 'Slack chat.update failed: message_not_found',
    });
    w.fake.fail('chat.update', { error: 'service_unavailable' });
    await expect(sender.update(posted, card)).rejects.toMatchObject({ retryable: true });
    w.fake.fail('chat.update', { retryAfter: 7 });
    await expect(sender.update(posted, card)).rejects.toMatchObject({ retryable: true, retryAfter: 7 });
    await sender.update(posted, { ...card, progress: { percent: 50 } });
    expect(w.fake.messages[0]?.history.map((v) => /(\d+)%/.exec(blocksText(v.blocks))?.[1])).toEqual([
      '10',
      '50',
    ]);

    await expect(sender.update('discord:G1:C1:1', card)).rejects.toMatchObject({ retryable: false });
    await expect(sender.post('slack:T0001', card, { dedupeId: 'x' })).rejects.toBeInstanceOf(
      ChatDeliveryError,
    );
  });

  it('notifies with chat.postEphemeral, falling back to the DM when the user is not in the channel', async () => {
    const sender = freshSender();
    await sender.notify?.(address.user(ALICE), address.channel(), { title: md`Approval expired` });
    expect(w.fake.callsOf('chat.postEphemeral')[0]?.args).toMatchObject({ channel: CHANNEL, user: ALICE });
    w.fake.fail('chat.postEphemeral', { error: 'user_not_in_channel' });
    await sender.notify?.(address.user(ALICE), address.channel(), { title: md`Approval expired` });
    expect(w.fake.callsOf('chat.postMessage').at(-1)?.args).toMatchObject({
      channel: ALICE,
      text: 'Approval expired',
    });
  });
});

describe('blocks Slack refuses (invalid_blocks)', () => {
  const withImages: Card = {
    title: md`Octopus facts`,
    text: md`Generated.`,
    image: { url: 'https://cdn.example.com/expired-signature.png', alt: 'cover' },
    sections: [{ text: md`**Option 1**`, image: { url: 'https://cdn.example.com/t1.png', alt: 'Option 1' } }],
  };
  const hasImage = (blocks: unknown) => JSON.stringify(blocks ?? []).includes('"type":"image"');
  const updates = () => w.fake.callsOf('chat.update').map((c) => c.args);

  it('edits again without images, then as text alone, so the card never freezes', async () => {
    const sender = freshSender();
    const posted = await sender.post(address.channel(), card, { dedupeId: 'outbox:refused' });

    w.fake.fail('chat.update', { error: 'invalid_blocks' });
    await sender.update(posted, withImages);
    expect(updates().map((a) => hasImage(a.blocks))).toEqual([true, false]);
    expect(blocksText(w.fake.messages[0]?.blocks ?? [])).toContain('Option 1');

    w.fake.fail('chat.update', { error: 'invalid_blocks' }, 2);
    await sender.update(posted, { ...withImages, text: md`Rendered.` });
    const last = updates().at(-1);
    expect(last?.blocks).toEqual([]);
    expect(String(last?.text)).toContain('Rendered.');
  });

  it('posts without images first, then as text, when a new card is refused', async () => {
    const sender = freshSender();
    w.fake.fail('chat.postMessage', { error: 'invalid_blocks' });
    await sender.post(address.channel(), withImages, { dedupeId: 'outbox:refused-post' });
    const posts = w.fake.callsOf('chat.postMessage').map((c) => c.args);
    expect(posts.map((a) => hasImage(a.blocks))).toEqual([true, false]);
    expect(w.fake.messages).toHaveLength(1);
  });
});
