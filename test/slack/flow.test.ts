/**
 * The whole life of a video from Slack, through the real Bolt app, the real core and the simulator:
 * `/reel create` → cost confirm → the live card posted by the outbox (chat.postMessage with metadata) and
 * edited in place (chat.update) as it progresses → thumbnail pick → render → schedule from the card's button
 * (modal from the trigger, inline errors, the next form, then the schedule on the card). On both simulator
 * profiles: `real` serves the real product's shapes (progress that jumps and stalls, warnings while
 * processing, opaque voice ids, extra fields).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeMessage } from './fake-slack.js';
import {
  ALICE,
  address,
  blocksText,
  CHANNEL,
  elements,
  expectValidBlocks,
  type SlackWorld,
  slackWorld,
} from './world.js';

const MINUTE = 60_000;
let w: SlackWorld;
afterEach(() => w.close());

/** The live card of the video, as the fake channel shows it now. */
const liveCard = (): FakeMessage => {
  const cards = w.cards();
  expect(cards).toHaveLength(1);
  return cards[0] as FakeMessage;
};
const actionIds = (m: { blocks?: unknown[] }) =>
  elements(m.blocks ?? []).map((e) => String(e.action_id).split('|')[0]);

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  describe('create → progress → thumbnail pick → render → schedule, through Slack', () => {
    it('runs the flow on one card edited in place', async () => {
      const sent = await w.command(
        'create --model motion_pro --name "Octopus facts" Octopuses have three hearts and blue blood.',
      );
      expect(sent.status).toBe(200);
      const confirm = await w.reply(sent.responseUrl);
      expect(confirm.response_type).toBe('ephemeral');
      expect(blocksText(confirm.blocks as unknown[])).toContain('*100 credits*');
      // The default voice by its catalog name, whatever shape its id has (`eleven_quality:…` on the real service).
      expect(blocksText(confirm.blocks as unknown[])).toContain('Aria · en · female');
      expectValidBlocks(confirm.blocks as unknown[]);

      // The confirm card is ephemeral: the click carries its response_url, and the card is replaced.
      const click = await w.click(
        { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
        'video.create.confirm',
      );
      expect(click.status).toBe(200);
      const creating = await w.reply(click.responseUrl);
      expect(blocksText(creating.blocks as unknown[])).toContain('Creating “Octopus facts”');

      await w.h.flush();
      const posted = w.fake.callsOf('chat.postMessage')[0];
      expect(posted?.token).toBe('xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy');
      expect(posted?.args.channel).toBe(CHANNEL);
      expect(posted?.args.metadata).toMatchObject({
        event_type: 'reelbot_card',
        event_payload: { dedupeId: expect.stringMatching(/^outbox:\d+$/) },
      });
      const card = liveCard();
      expect(blocksText(card.blocks)).toContain('Octopus facts');
      expect(blocksText(card.blocks)).toMatch(/░/);
      expect((await w.h.store.cards.get(`video:${idOf(card)}@${address.channel()}`))?.message).toBe(
        `${address.channel()}:${card.ts}`,
      );

      // Progress: the same message is edited (chat.update), never re-posted.
      await w.h.until(() => actionIds(liveCard()).includes('thumbnail.pick'), {
        stepMs: 5_000,
        maxMs: 20 * MINUTE,
      });
      const updates = w.fake.callsOf('chat.update').filter((c) => c.args.ts === card.ts);
      expect(updates.length).toBeGreaterThan(3);
      const percents = liveCard()
        .history.map((v) => /(\d+)%/.exec(blocksText(v.blocks))?.[1])
        .filter(Boolean)
        .map(Number);
      expect(new Set(percents).size).toBeGreaterThan(2);
      for (const version of liveCard().history) expectValidBlocks(version.blocks);
      expect(w.cards()).toHaveLength(1);
      // Milestones went in the card's thread.
      const replies = w.fake.messages.filter((m) => m.thread_ts === card.ts);
      expect(replies.map((m) => m.text)).toContainEqual(expect.stringContaining('is ready'));

      // Thumbnails: three images, a "Use this" each; pick the third from the channel message.
      await w.h.until(
        () =>
          elements(liveCard().blocks ?? []).filter((e) => String(e.action_id).startsWith('thumbnail.pick|'))
            .length === 3,
        { maxMs: 5 * MINUTE },
      );
      // The options side by side: a carousel of cards, each with its picture.
      const carousel = (liveCard().blocks as { type: string; elements?: { hero_image?: unknown }[] }[]).find(
        (b) => b.type === 'carousel',
      );
      expect(carousel?.elements?.filter((c) => c.hero_image).length).toBe(3);
      const pick = await w.click({ blocks: liveCard().blocks, ts: card.ts }, 'thumbnail.pick', { nth: 2 });
      const picked = await w.reply(pick.responseUrl);
      expect(blocksText(picked.blocks as unknown[])).toContain('now uses option 3');
      await w.h.flush();
      expect(blocksText(liveCard().blocks)).toContain('in use (picked by alice)');

      // Render from the card's button; the card gets the MP4 link button.
      const render = await w.click({ blocks: liveCard().blocks, ts: card.ts }, 'video.render');
      expect(blocksText((await w.reply(render.responseUrl)).blocks as unknown[])).toContain(
        'Rendering “Octopus facts”',
      );
      await w.h.until(
        () =>
          elements(liveCard().blocks ?? []).some(
            (e) => typeof e.url === 'string' && String(e.url).endsWith('.mp4'),
          ),
        { maxMs: 5 * MINUTE },
      );

      // Schedule from the card: a modal straight from the click's trigger.
      const schedule = await w.click({ blocks: liveCard().blocks, ts: card.ts }, 'video.schedule');
      const modal = await w.fake.waitFor(() => w.fake.callsOf('views.open').at(-1), 'views.open');
      expect(modal.args.trigger_id).toBe(schedule.triggerId);
      const view = modal.args.view as Record<string, unknown>;
      expect(view.callback_id).toBe('schedule.form');
      expect(blocksText(view.blocks as unknown[])).toContain('Europe/Paris'); // users.info tz

      // Bad input: inline errors in the ack, the modal stays open, nothing scheduled.
      const bad = await w.submit({ platforms: 'youtube, vine', when: 'yesterday' });
      expect(bad.ack?.response_action).toBe('errors');
      expect(Object.keys(bad.ack?.errors as object).sort()).toEqual(['platforms', 'when']);

      // YouTube needs post details first: the next form replaces the modal (response_action update).
      const next = await w.submit({ platforms: 'youtube', when: '2026-12-01 18:00' });
      expect(next.ack?.response_action).toBe('update');
      const details = next.ack?.view as Record<string, unknown>;
      expect(blocksText([details.title])).toBe('YouTube post details');
      const done = await w.submit(
        { title: 'Octopus facts', description: '', privacyStatus: 'public' },
        { view: details },
      );
      expect(done.ack).toBeUndefined(); // closes the modal
      const scheduled = await w.reply(schedule.responseUrl);
      expect(blocksText(scheduled.blocks as unknown[])).toContain(
        'Tue 1 Dec 2026, 18:00 Europe/Paris (17:00 UTC)',
      );
      await w.h.flush();
      expect(blocksText(liveCard().blocks)).toContain(
        '*Scheduled*\nTue 1 Dec 2026, 18:00 Europe/Paris (17:00 UTC) → YouTube',
      );
      expect(w.cards()).toHaveLength(1);
      const entries = await w.h.deps
        .apiFor((await w.h.store.keys.get(address.user(ALICE)))?.apiKey as string)
        .posts.calendar({
          startDate: '2026-12-01',
          endDate: '2026-12-01',
        });
      expect(entries.map((e) => e.platform)).toEqual(['youtube']);
    });
  });
});

/** The video id from the card's context line (`id \`…\``). */
function idOf(message: FakeMessage): string {
  const id = /id `([A-Za-z0-9_]+)`/.exec(blocksText(message.blocks))?.[1];
  if (!id) throw new Error(`no id in ${blocksText(message.blocks)}`);
  return id;
}
