/** How the outbox sender meets a failing platform: Retry-After, backoff, giving up, order kept while one item waits. */
import { describe, expect, it } from 'vitest';
import {
  postCard,
  postToChannel,
  repostIfUnposted,
  unpostableNotice,
} from '../../src/core/live/live-card.js';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import {
  CONV2,
  clock,
  DISCORD,
  edit,
  logger,
  onEachStore,
  post,
  reply,
  sender,
  slack,
  store,
} from './outbox-world.js';
import { ALICE, CONV, card, FakeChatSender, T0 } from './support.js';

onEachStore(() => {
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
          await store.transaction(() => repostIfUnposted(store, { key: 'a', dedupeKey: 'a:repost:1' })),
        ).toBe(true);
        await s.drain();
        expect((await store.cards.get('a'))?.message).toBeDefined();
        await edit('a', 'A', '70%');
        await s.drain();
        expect(slack.titles()).toEqual(['notify:I can’t post in this channel', 'post:A', 'update:A']);
        // Posted: nothing to post again.
        expect(
          await store.transaction(() => repostIfUnposted(store, { key: 'a', dedupeKey: 'a:repost:2' })),
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
});
