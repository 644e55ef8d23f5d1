/** The outbox sender delivers in order and as written, waits for a reply's card, and starts and stops cleanly. */
import { describe, expect, it } from 'vitest';
import { editCard, notifyUser, postToChannel } from '../../src/core/live/live-card.js';
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
import { ALICE, CONV, card, FakeChatSender } from './support.js';

onEachStore(() => {
  describe('OutboxSender: order and content', () => {
    it('delivers in enqueue order with a stable dedupe id per row', async () => {
      await post('a', 'A');
      await store.transaction(() =>
        postToChannel(store, { conversation: CONV, card: card('note'), dedupeKey: 'n1' }),
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
      await store.transaction(() => editCard(store, 'ghost', { card: card('g', '1'), dedupeKey: 'g1' }));
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
