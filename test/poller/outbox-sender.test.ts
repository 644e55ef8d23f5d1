import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  editCard,
  notifyUser,
  postCard,
  postToChannel,
  replyToCard,
  repostIfUnposted,
  unpostableNotice,
} from '../../src/core/live/live-card.js';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { OutboxSender, type OutboxSenderOptions } from '../../src/poller/outbox-sender.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { ALICE, CONV, card, FakeChatSender, ManualClock, recordingLogger, STORES, T0 } from './support.js';

const CONV2 = 'slack:T1:C2';
const DISCORD = 'discord:G1:C9';

let clock: ManualClock;
let store: SqliteStore;
let opened: ReturnType<(typeof STORES)[number]['open']>;
let logger: ReturnType<typeof recordingLogger>;
let slack: FakeChatSender;

function sender(options: Partial<OutboxSenderOptions> = {}): OutboxSender {
  return new OutboxSender({ store, senders: { slack }, clock, logger, random: () => 0.5, ...options });
}

const post = async (key: string, title: string, conversation = CONV, threadOfCard?: string) =>
  await store.transaction(
    async () =>
      await postCard(store, {
        key,
        conversation,
        card: card(title),
        ...(threadOfCard === undefined ? {} : { threadOfCard }),
      }),
  );
const edit = async (key: string, title: string, text: string) =>
  await store.transaction(
    async () => await editCard(store, key, { card: card(title, text), dedupeKey: `${key}:${text}` }),
  );
const reply = async (key: string, title: string, dedupeKey = `${key}:${title}`) =>
  await store.transaction(
    async () => await replyToCard(store, { key, card: card(title), dedupeKey, threaded: true }),
  );

describe.each(STORES)('on the $name store', (fixture) => {
  beforeEach(() => {
    clock = new ManualClock();
    opened = fixture.open(clock);
    store = opened.store;
    logger = recordingLogger();
    slack = new FakeChatSender('slack', clock);
  });
  afterEach(async () => await opened.close());

  describe('OutboxSender: order and content', () => {
    it('delivers in enqueue order with a stable dedupe id per row', async () => {
      await post('a', 'A');
      await store.transaction(
        async () => await postToChannel(store, { conversation: CONV, card: card('note'), dedupeKey: 'n1' }),
      );
      await post('b', 'B', CONV2);
      await sender().drain();
      expect(slack.titles()).toEqual(['post:A', 'post:note', 'post:B']);
      const ids = slack.calls.map((c) => (c.kind === 'post' ? c.dedupeId : ''));
      expect(ids).toEqual(['outbox:1', 'outbox:2', 'outbox:3']);
      expect((await store.cards.get('a'))?.message).toBe(`${CONV}:1.000`);
      expect((await store.cards.get('b'))?.message).toBe(`${CONV2}:3.000`);
      expect(await store.outbox.depth()).toBe(0);
    });

    it("posts a card's current content, so edits made before the post are not sent again", async () => {
      await post('a', 'A');
      await edit('a', 'A', '10%');
      await edit('a', 'A', '50%');
      await sender().drain();
      expect(slack.calls).toHaveLength(1);
      expect(slack.calls[0]).toMatchObject({ kind: 'post', card: { title: 'A', text: '50%' } });
      expect(await store.outbox.depth()).toBe(0);
    });

    it('coalesces several ready edits of one card into one update with the latest content', async () => {
      await post('a', 'A');
      const s = sender();
      await s.drain();
      await edit('a', 'A', '10%');
      await edit('a', 'A', '40%');
      await edit('a', 'A', '90%');
      await s.drain();
      expect(slack.calls.slice(1)).toEqual([
        { kind: 'update', message: `${CONV}:1.000`, card: card('A', '90%') },
      ]);
      expect(await store.outbox.depth()).toBe(0);
    });

    it('sends an edit again after a restart (memory of shown content is lost), but only once', async () => {
      await post('a', 'A');
      await sender().drain();
      await edit('a', 'A', '10%');
      await edit('a', 'A', '20%');
      await sender().drain(); // a new sender: it does not know what the card shows
      expect(slack.titles()).toEqual(['post:A', 'update:A']);
    });

    it('sends one notification per state change even if the change is committed twice', async () => {
      await post('a', 'A');
      expect(await reply('a', 'done', 'v1:completed')).toBe(true);
      expect(await reply('a', 'done', 'v1:completed')).toBe(false);
      await sender().drain();
      await sender().drain();
      expect(slack.titles()).toEqual(['post:A', 'post:done']);
    });

    it('notifies through sender.notify, or falls back to a channel post', async () => {
      await store.transaction(
        async () =>
          await notifyUser(store, {
            user: ALICE,
            conversation: CONV,
            card: card('expired'),
            dedupeKey: 'x1',
          }),
      );
      await sender().drain();
      expect(slack.calls).toEqual([
        { kind: 'notify', user: ALICE, conversation: CONV, card: card('expired') },
      ]);

      const bare = new FakeChatSender('slack', clock, false);
      await store.transaction(
        async () =>
          await notifyUser(store, {
            user: ALICE,
            conversation: CONV,
            card: card('expired 2'),
            dedupeKey: 'x2',
          }),
      );
      await sender({ senders: { slack: bare } }).drain();
      expect(bare.calls).toEqual([
        { kind: 'post', conversation: CONV, card: card('expired 2'), dedupeId: 'outbox:2' },
      ]);
    });

    it('keeps platforms apart: each item goes to its own platform sender', async () => {
      const discord = new FakeChatSender('discord', clock);
      await post('a', 'A');
      await post('d', 'D', DISCORD);
      await sender({ senders: { slack, discord } }).drain();
      expect(slack.titles()).toEqual(['post:A']);
      expect(discord.titles()).toEqual(['post:D']);
    });

    it('leaves items of a platform without a sender in the outbox', async () => {
      await post('d', 'D', DISCORD);
      await sender().drain();
      expect(await store.outbox.depth('discord')).toBe(1);
    });
  });

  describe('OutboxSender: waiting for the card', () => {
    it("holds threaded replies and edits until the card's post went out, then threads them under it", async () => {
      await post('a', 'A');
      slack.failNext(FakeChatSender.serverError());
      const s = sender();
      await s.drain();
      await reply('a', 'milestone');
      await edit('a', 'A', '30%');
      await s.drain(); // the post is backing off: nothing else for that card may go
      expect(slack.calls).toEqual([]);
      clock.advance(1_000);
      await s.drain();
      expect(slack.calls).toMatchObject([
        { kind: 'post', card: { title: 'A', text: '30%' } },
        { kind: 'post', card: { title: 'milestone' }, threadOf: `${CONV}:1.000` },
      ]);
      expect(await store.outbox.depth()).toBe(0); // the edit was carried by the post
    });

    it('posts a card in the thread of another card once that one is posted', async () => {
      await post('parent', 'Series');
      await post('child', 'Episode 1', CONV, 'parent');
      await sender().drain();
      expect(slack.calls[1]).toMatchObject({
        kind: 'post',
        card: { title: 'Episode 1' },
        threadOf: `${CONV}:1.000`,
      });
    });

    it('fails items whose card was never posted after the wait limit', async () => {
      await store.cards.put('ghost', { conversation: CONV, card: card('never posted') });
      await store.transaction(
        async () => await editCard(store, 'ghost', { card: card('g', '1'), dedupeKey: 'g1' }),
      );
      const s = sender({ maxWaitForCardMs: 60_000 });
      await s.drain();
      expect(await store.outbox.depth()).toBe(1);
      clock.advance(60_000);
      await s.drain();
      expect(await store.outbox.depth()).toBe(0);
      expect(slack.calls).toEqual([]);
      expect(
        logger.lines.some((l) => l.level === 'error' && String(l.obj.reason).includes('never posted')),
      ).toBe(true);
    });
  });

  describe('OutboxSender: failures', () => {
    it("honours a platform 429's Retry-After: nothing is sent to that platform before it", async () => {
      const discord = new FakeChatSender('discord', clock);
      await post('a', 'A');
      await post('b', 'B', CONV2);
      await post('d', 'D', DISCORD);
      slack.failNext(FakeChatSender.rateLimited(30));
      const s = sender({ senders: { slack, discord } });
      await s.drain();
      expect(slack.attempts).toHaveLength(1); // B was not even tried
      expect(discord.titles()).toEqual(['post:D']); // other platforms go on
      clock.advance(29_999);
      await s.drain();
      expect(slack.calls).toEqual([]);
      clock.advance(1);
      await s.drain();
      expect(slack.titles()).toEqual(['post:A', 'post:B']);
      expect(slack.at).toEqual([T0 + 30_000, T0 + 30_000]);
    });

    it('a restarted sender still waits: the Retry-After is kept on the row', async () => {
      await post('a', 'A');
      slack.failNext(FakeChatSender.rateLimited(30));
      await sender().drain();
      clock.advance(10_000);
      await sender().drain();
      expect(slack.calls).toEqual([]);
      clock.advance(20_000);
      await sender().drain();
      expect(slack.titles()).toEqual(['post:A']);
    });

    it('429s do not count towards giving up: many waits, then a few 5xx, and it is still delivered', async () => {
      await post('a', 'A');
      slack.failFor(
        'A',
        ...Array.from({ length: 10 }, () => FakeChatSender.rateLimited(1)),
        FakeChatSender.serverError(),
        FakeChatSender.serverError(),
      );
      const s = sender({ maxAttempts: 3, backoffBaseMs: 1_000 });
      for (let i = 0; i < 20 && slack.titles().length === 0; i++) {
        await s.drain();
        clock.advance(5_000);
      }
      expect(slack.attempts).toHaveLength(13);
      expect(slack.titles()).toEqual(['post:A']);
      expect(await store.outbox.depth()).toBe(0);
    });

    it('retries 5xx with exponential backoff and the same dedupe id', async () => {
      await post('a', 'A');
      slack.failNext(FakeChatSender.serverError(), FakeChatSender.serverError());
      const s = sender();
      await s.drain();
      clock.advance(999);
      await s.drain();
      expect(slack.attempts).toHaveLength(1);
      clock.advance(1);
      await s.drain(); // second failure: next try 2 s later
      clock.advance(1_999);
      await s.drain();
      expect(slack.attempts).toHaveLength(2);
      clock.advance(1);
      await s.drain();
      expect(slack.titles()).toEqual(['post:A']);
      expect(new Set(slack.attempts.map((c) => (c.kind === 'post' ? c.dedupeId : '')))).toEqual(
        new Set(['outbox:1']),
      );
    });

    it('treats unknown errors (network) as transient', async () => {
      await post('a', 'A');
      slack.failNext(new Error('socket hang up'));
      const s = sender();
      await s.drain();
      clock.advance(1_000);
      await s.drain();
      expect(slack.titles()).toEqual(['post:A']);
    });

    it('fails an item after 8 attempts and keeps going with the rest', async () => {
      await post('a', 'A');
      await post('b', 'B', CONV2);
      slack.failFor('A', ...Array.from({ length: 8 }, () => FakeChatSender.serverError()));
      const s = sender();
      for (let i = 0; i < 12; i++) {
        await s.drain();
        clock.advance(10 * 60_000);
      }
      expect(slack.attempts.filter((c) => c.card.title === 'A')).toHaveLength(8);
      expect(slack.titles()).toEqual(['post:B']);
      expect(await store.outbox.depth()).toBe(0);
      expect(logger.lines.filter((l) => l.level === 'error').map((l) => l.obj.reason)).toEqual([
        'ChatDeliveryError: 502 Bad Gateway (attempt 8)',
      ]);
    });

    describe('a card the platform refuses (the bot is not in the channel)', () => {
      const postAsked = async (key: string, title: string) =>
        await store.transaction(
          async () =>
            await postCard(store, {
              key,
              conversation: CONV,
              card: card(title),
              onUnpostable: unpostableNotice(ALICE, md`run \`/reel status v1\``),
            }),
        );

      it('tells the requester privately what to do, and fails its edits and replies at once', async () => {
        await postAsked('a', 'A');
        await edit('a', 'A', '10%');
        await reply('a', 'milestone');
        await store.transaction(
          async () =>
            await postToChannel(store, { conversation: CONV2, card: card('other'), dedupeKey: 'o' }),
        );
        slack.failFor('A', FakeChatSender.permanent());
        const s = sender();
        await s.drain();
        expect(slack.calls).toEqual([
          { kind: 'post', conversation: CONV2, card: card('other'), dedupeId: 'outbox:4' },
          {
            kind: 'notify',
            user: ALICE,
            conversation: CONV,
            card: {
              title: 'I can’t post in this channel',
              tone: 'warning',
              text: 'I can’t post in this channel — invite @reelbot (or /invite) and run `/reel status v1`.',
            },
          },
        ]);
        // Nothing waits an hour for a card that will not come: the edit and the reply failed with the post.
        expect(await store.outbox.depth()).toBe(0);
        // An edit made afterwards (the job goes on) fails at once too.
        await edit('a', 'A', '50%');
        await s.drain();
        expect(await store.outbox.depth()).toBe(0);
        expect(slack.attempts.filter((c) => c.card.title === 'A')).toHaveLength(1);
      });

      it('is posted again on request once the bot is invited, and then follows its edits', async () => {
        await postAsked('a', 'A');
        slack.failFor('A', FakeChatSender.permanent());
        const s = sender();
        await s.drain();
        expect(
          await store.transaction(
            async () => await repostIfUnposted(store, { key: 'a', dedupeKey: 'a:repost:1' }),
          ),
        ).toBe(true);
        await s.drain();
        expect((await store.cards.get('a'))?.message).toBeDefined();
        await edit('a', 'A', '70%');
        await s.drain();
        expect(slack.titles()).toEqual(['notify:I can’t post in this channel', 'post:A', 'update:A']);
        // Posted: nothing to post again.
        expect(
          await store.transaction(
            async () => await repostIfUnposted(store, { key: 'a', dedupeKey: 'a:repost:2' }),
          ),
        ).toBe(false);
      });

      it('says nothing when the post only ran out of retries (an outage, not a refusal)', async () => {
        await postAsked('a', 'A');
        const s = sender({ maxAttempts: 2, backoffBaseMs: 1 });
        slack.failFor('A', FakeChatSender.serverError(), FakeChatSender.serverError());
        await s.drain();
        clock.advance(1_000);
        await s.drain();
        expect(slack.calls).toEqual([]);
        expect(await store.outbox.depth()).toBe(0);
      });
    });

    it('fails a non-retryable error at once', async () => {
      await post('a', 'A');
      slack.failNext(FakeChatSender.permanent());
      const outcomes: string[] = [];
      await sender({ metrics: { delivery: (_p, op, outcome) => outcomes.push(`${op}:${outcome}`) } }).drain();
      expect(slack.attempts).toHaveLength(1);
      expect(await store.outbox.depth()).toBe(0);
      expect(outcomes).toEqual(['post-card:failed']);
    });

    it('keeps a conversation in order while one of its items backs off', async () => {
      await store.transaction(async () => {
        await postToChannel(store, { conversation: CONV, card: card('first'), dedupeKey: '1' });
        await postToChannel(store, { conversation: CONV, card: card('second'), dedupeKey: '2' });
        await postToChannel(store, { conversation: CONV2, card: card('elsewhere'), dedupeKey: '3' });
      });
      slack.failNext(FakeChatSender.serverError());
      const s = sender();
      await s.drain();
      expect(slack.titles()).toEqual(['post:elsewhere']);
      clock.advance(500);
      await s.drain(); // 'second' is ready, but 'first' is still backing off
      expect(slack.titles()).toEqual(['post:elsewhere']);
      clock.advance(500);
      await s.drain();
      expect(slack.titles()).toEqual(['post:elsewhere', 'post:first', 'post:second']);
    });

    it('retries a coalesced group together when the update fails', async () => {
      await post('a', 'A');
      const s = sender();
      await s.drain();
      await edit('a', 'A', '1');
      await edit('a', 'A', '2');
      slack.failNext(new ChatDeliveryError('503', true));
      await s.drain();
      await s.drain();
      expect(slack.attempts).toHaveLength(2); // one post, one failed update; the second edit waited too
      clock.advance(1_000);
      await s.drain();
      expect(slack.calls.slice(1)).toEqual([
        { kind: 'update', message: `${CONV}:1.000`, card: card('A', '2') },
      ]);
    });
  });

  describe('OutboxSender: lifecycle', () => {
    it('start() delivers on its own, nudge() sooner, stop() waits for the current delivery', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slow = new FakeChatSender('slack', clock);
      const original = slow.post.bind(slow);
      slow.post = async (...args) => {
        await gate;
        return original(...args);
      };
      const s = sender({ senders: { slack: slow }, intervalMs: 60_000 });
      s.start();
      await post('a', 'A');
      s.nudge();
      await expect.poll(() => slow.attempts.length).toBe(0);
      let stopped = false;
      const stopping = s.stop().then(() => {
        stopped = true;
      });
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false); // still waiting for the post held at the gate
      release();
      await stopping;
      expect(slow.titles()).toEqual(['post:A']);
      expect(await store.outbox.depth()).toBe(0);
    });
  });
});
