/**
 * The Discord `ChatSender` against the fake: bot-token posts and edits, nonce de-duplication of retried posts,
 * threads for milestones (created once, found again after a restart), private notices by DM with a channel
 * fallback, and failures in the outbox's vocabulary (429 → retry after Retry-After without waiting in the
 * REST client, 5xx retryable, other 4xx final), including a 429 recovered through the real outbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import type { Card } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { cardText } from '../support/card-text.js';
import type { FakeMessage } from './fake-discord.js';
import {
  accentOf,
  componentsOf,
  galleriesOf,
  isV2,
  textDisplaysOf,
  textOf,
  titleOf,
} from './read-message.js';
import { controlsOf, discordWorld, IDS, MEMBERS, TOKEN, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const card = (title: string, extra: Partial<Card> = {}): Card => ({
  title: cardText(title),
  text: md`Some text`,
  ...extra,
});
const conversation = `discord:${IDS.guild}:${IDS.channel}`;

describe('posting and editing cards', () => {
  it('posts with the bot token and edits the same message', async () => {
    w = await discordWorld();
    const address = await w.adapter.sender.post(conversation, card('Status'), { dedupeId: 'outbox:1' });
    const [message] = w.fake.channelMessages();
    expect(address).toBe(`${conversation}:${message?.id}`);
    expect(isV2(message as FakeMessage)).toBe(true);
    await w.adapter.sender.update(address, card('Status', { text: md`Done`, tone: 'success' }));
    expect(titleOf(message as FakeMessage)).toBe('Status');
    expect(textOf(message as FakeMessage)).toBe('Status\nDone');
    expect(accentOf(message as FakeMessage)).toBe(0x57f287);
    expect(w.fake.edits(message?.id as string)).toHaveLength(1);
  });

  it('turns a card posted as embeds (before Components V2) into a V2 card on its next edit', async () => {
    w = await discordWorld();
    // What an earlier version posted: the approvers pinged in `content`, the card in an embed.
    const old: FakeMessage = {
      id: '1300000000000000880',
      channel_id: IDS.channel,
      content: `<@&${IDS.approvers}>`,
      embeds: [{ title: 'Approve “Octopus facts”?', description: 'Waiting', color: 0x5865f2 }],
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Approve', custom_id: 'r|a|1' }] }],
      flags: 0,
      author: w.fake.botUser,
      history: [],
      deleted: false,
    };
    w.fake.messages.set(old.id, old);
    await w.adapter.sender.update(`${conversation}:${old.id}`, card('Approved', { tone: 'success' }));
    // Discord's Edit Message sets the flag when the edit resets what V2 forbids (the fake refuses it otherwise).
    const [edit] = w.fake.edits(old.id);
    expect(edit).toMatchObject({ flags: 1 << 15, content: null, embeds: [] });
    expect(isV2(old)).toBe(true);
    expect(old.content).toBe('');
    expect(old.embeds).toEqual([]);
    expect(titleOf(old)).toBe('Approved');
    // Edited again, it stays V2.
    await w.adapter.sender.update(`${conversation}:${old.id}`, card('Approved', { text: md`By Alice` }));
    expect(textOf(old)).toBe('Approved\nBy Alice');
  });

  it('does not post twice when a post is retried with the same dedupe id', async () => {
    w = await discordWorld();
    const first = await w.adapter.sender.post(conversation, card('Once'), { dedupeId: 'outbox:42' });
    const again = await w.adapter.sender.post(conversation, card('Once'), { dedupeId: 'outbox:42' });
    expect(again).toBe(first);
    expect(w.fake.channelMessages()).toHaveLength(1);
    const nonces = w.fake.requests
      .filter((r) => r.method === 'POST' && r.path.endsWith('/messages'))
      .map((r) => (r.body as { nonce: string }).nonce);
    expect(nonces).toHaveLength(2);
    expect(new Set(nonces).size).toBe(1);
    await w.adapter.sender.post(conversation, card('Another'), { dedupeId: 'outbox:43' });
    expect(w.fake.channelMessages()).toHaveLength(2);
  });

  it('keeps whatever it is given inside Discord’s limits', async () => {
    w = await discordWorld();
    const long = 'word '.repeat(2_000);
    const big: Card = {
      title: md`A ${cardText('very '.repeat(80))}long title`,
      text: cardText(long),
      tone: 'warning',
      fields: Array.from({ length: 30 }, (_, i) => ({
        label: md`Field ${i} ${cardText('x'.repeat(300))}`,
        value: cardText(long),
        short: i % 2 === 0,
      })),
      sections: Array.from({ length: 12 }, (_, i) => ({
        text: md`Section ${i} ${cardText(long)}`,
        image: { url: `https://img.example/${i}.png`, alt: '' },
      })),
      controls: Array.from({ length: 14 }, (_, i) => ({
        kind: 'button' as const,
        action: 'video.show',
        value: `v${i}`,
        label: `Button ${i}`,
      })),
      context: md`Context ${cardText(long)}`,
    };
    // The fake answers 400 to anything Discord would refuse.
    const address = await w.adapter.sender.post(conversation, big, { dedupeId: 'outbox:big' });
    const message = w.fake.channelMessages()[0] as FakeMessage;
    expect(isV2(message)).toBe(true);
    expect(componentsOf(message).length).toBeLessThanOrEqual(40);
    expect(textDisplaysOf(message).join('').length).toBeLessThanOrEqual(4000);
    // Twelve pictured sections: one gallery of ten, every section's words still there (cut with "…").
    expect(galleriesOf(message).map((g) => g.length)).toEqual([10]);
    for (let i = 0; i < 12; i++) expect(textOf(message)).toContain(`Section ${i} word`);
    expect(textOf(message)).toContain('…');
    await w.adapter.sender.update(address, { ...big, title: md`Edited` });
    expect(titleOf(message)).toBe('Edited');
  });
});

describe('milestones in threads', () => {
  it('starts one thread on the card and posts replies into it, also after a restart', async () => {
    w = await discordWorld();
    const parent = await w.adapter.sender.post(conversation, card('Octopus facts'), { dedupeId: 'outbox:1' });
    const parentId = parent.split(':').at(-1) as string;
    const reply1 = await w.adapter.sender.post(conversation, card('✅ ready'), {
      dedupeId: 'outbox:2',
      threadOf: parent,
    });
    const reply2 = await w.adapter.sender.post(conversation, card('🎬 rendered'), {
      dedupeId: 'outbox:3',
      threadOf: parent,
    });
    expect(w.fake.threads.get(parentId)).toEqual({ parent: IDS.channel, name: 'Octopus facts' });
    expect(w.fake.requests.filter((r) => r.path.endsWith('/threads'))).toHaveLength(1);
    expect(reply1.startsWith(`discord:${IDS.guild}:${parentId}:`)).toBe(true);
    expect(w.fake.channelMessages(parentId).map(titleOf)).toEqual(['✅ ready', '🎬 rendered']);
    expect(w.fake.channelMessages()).toHaveLength(1);
    // A reply's address edits the reply, inside the thread.
    await w.adapter.sender.update(reply2, card('🎬 rendered again'));
    expect(titleOf(w.fake.channelMessages(parentId)[1] as FakeMessage)).toBe('🎬 rendered again');

    // A new process does not know the thread exists: Discord says so (160004) and the reply still goes in.
    const restarted = createDiscordAdapter({
      config: { token: TOKEN, applicationId: IDS.app, apiUrl: w.fake.apiUrl },
      bot: w.h.bot,
      http: w.http,
      store: w.h.store,
      logger: w.h.deps.logger,
      clock: w.h.clock,
      registerOnStart: false,
    });
    await restarted.sender.post(conversation, card('📅 scheduled'), {
      dedupeId: 'outbox:4',
      threadOf: parent,
    });
    expect(w.fake.channelMessages(parentId).map(titleOf)).toContain('📅 scheduled');
  });
});

describe('private notices', () => {
  it('go by direct message, or as a mention in the channel when DMs are closed', async () => {
    w = await discordWorld();
    const notify = w.adapter.sender.notify?.bind(w.adapter.sender);
    if (!notify) throw new Error('the Discord sender notifies');
    await notify(w.address('bob'), conversation, card('Your approval expired'));
    const dm = w.fake.requests.find((r) => r.path === '/users/@me/channels');
    expect(dm?.body).toEqual({ recipient_id: MEMBERS.bob.id });
    expect(w.fake.channelMessages()).toEqual([]);

    w.fake.closedDms.add(MEMBERS.carol.id);
    await notify(w.address('carol'), conversation, card('Your approval expired'));
    const [fallback] = w.fake.channelMessages() as FakeMessage[];
    // The mention is the text display above the card, and the only one allowed to ping.
    expect(textDisplaysOf(fallback as FakeMessage)[0]).toBe(`<@${MEMBERS.carol.id}>`);
    expect(fallback?.history[0]?.allowed_mentions).toEqual({ parse: [], users: [MEMBERS.carol.id] });
    expect(textOfMessage(fallback as never)).toContain('Your approval expired');
  });
});

describe('failures', () => {
  it('turns a 429 into a retryable error with Retry-After, without waiting it out', async () => {
    w = await discordWorld();
    w.fake.failNext('POST', /\/channels\/\d+\/messages$/, 429, 30);
    const started = Date.now();
    const error = await w.adapter.sender
      .post(conversation, card('x'), { dedupeId: 'outbox:1' })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(ChatDeliveryError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as ChatDeliveryError).retryAfter).toBeGreaterThanOrEqual(30);
  });

  it('calls 5xx retryable and other 4xx final', async () => {
    w = await discordWorld();
    w.fake.failNext('POST', /\/channels\/\d+\/messages$/, 502);
    await expect(w.adapter.sender.post(conversation, card('x'), { dedupeId: 'a' })).rejects.toMatchObject({
      retryable: true,
    });
    w.fake.failNext('POST', /\/channels\/\d+\/messages$/, 403);
    await expect(w.adapter.sender.post(conversation, card('x'), { dedupeId: 'b' })).rejects.toMatchObject({
      retryable: false,
    });
    await expect(
      w.adapter.sender.update(`${conversation}:1300000000000000999`, card('x')),
    ).rejects.toMatchObject({
      retryable: false,
    });
    await expect(w.adapter.sender.post('slack:T1:C1', card('x'), { dedupeId: 'c' })).rejects.toMatchObject({
      retryable: false,
    });
  });

  it('lets the outbox deliver a rate-limited card once Retry-After has passed', async () => {
    w = await discordWorld();
    w.fake.failNext('POST', /\/channels\/\d+\/messages$/, 429, 0.2);
    const confirm = await w.slash('create', {
      script: 'Octopuses have three hearts and blue blood.',
      name: 'Octopus facts',
    });
    await w.click(w.original(confirm), 'Create (20 credits)');
    // The first delivery was refused; the card waits in the outbox.
    expect(w.fake.channelMessages()).toEqual([]);
    expect(await w.h.store.outbox.depth('discord')).toBeGreaterThan(0);
    // discord.js keeps its rate-limit bucket on the real clock (Retry-After 0.2 s): let it run out.
    // real-time-ok: discord.js's own bucket, not ours (no clock to inject there)
    await new Promise((r) => setTimeout(r, 400));
    w.h.clock.advance(1_000);
    await w.h.flush();
    const [posted] = w.fake.channelMessages();
    expect(titleOf(posted as FakeMessage)).toBe('Octopus facts');
    await w.h.until(() => controlsOf(posted as never).includes('Render'), { maxMs: 20 * 60_000 });
    expect(w.fake.channelMessages()).toHaveLength(1);
  });
});
