/**
 * The life of a video from Discord, end to end through the real discord.js client, the real core, the
 * simulator, the poller and the outbox: `/reel create` → cost confirmation → Create → a status card posted in
 * the channel with the BOT token and edited in place (PATCH) as it generates → milestone in the card's thread →
 * thumbnails with "Use this" → pick → Render → MP4 link → Schedule (modal) → YouTube details (a second modal,
 * opened from a button since a modal cannot answer a modal) → scheduled, on the same card. On both simulator
 * profiles (`real`: the real product's shapes, progress that jumps and stalls).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { controlsIn, galleriesOf, isV2, sectionsOf, textOf, titleOf } from './read-message.js';
import { controlsOf, discordWorld, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());
const MINUTE = 60_000;

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  describe('create → thumbnail pick → render → schedule from Discord', () => {
    it('runs the whole flow on one channel card edited in place', async () => {
      w = await discordWorld({ harness: { simulator: { profile } } });
      const { fake, h } = w;

      const confirm = await w.slash('create', {
        script: 'Octopuses have three hearts and blue blood, and they taste with their arms.',
        name: 'Octopus facts',
      });
      const ask = w.original(confirm);
      expect(ask.flags & 64).toBe(64);
      expect(textOfMessage(ask)).toContain('**20 credits**');
      // The default voice by its catalog name, whatever shape its id has (`eleven_quality:…` on the real service).
      expect(textOfMessage(ask)).toContain('**Voice**: Aria · en · female');
      expect(controlsOf(ask)).toEqual(['Create (20 credits)', 'More options', 'Cancel']);
      expect(fake.channelMessages()).toEqual([]);

      // Create: the private confirmation is replaced (UPDATE_MESSAGE), the status card goes to the channel.
      const created = await w.click(ask, 'Create (20 credits)');
      expect(created.callbacks[0]).toMatchObject({ type: 7 });
      expect(textOfMessage(ask)).toContain('Creating “Octopus facts”');
      const [card] = fake.channelMessages();
      if (!card) throw new Error('no status card in the channel');
      expect(isV2(card)).toBe(true);
      expect(titleOf(card)).toBe('Octopus facts');
      expect(card.interaction).toBeUndefined(); // a bot message, not an interaction response
      const post = fake.requests.find(
        (r) => r.method === 'POST' && r.path === `/channels/${card.channel_id}/messages`,
      );
      expect(post?.body).toMatchObject({
        enforce_nonce: true,
        nonce: expect.stringMatching(/^[\w-]{1,25}$/),
      });

      // Generation: the same message is PATCHed as the percentage moves, then shows three thumbnails.
      await h.until(() => JSON.stringify(card.components).includes('Use this'), { maxMs: 20 * MINUTE });
      const edits = fake.edits(card.id);
      expect(edits.length).toBeGreaterThan(2);
      const progress = card.history.map((b) => textOf(b)).filter((d) => d.includes('%'));
      expect(progress.length).toBeGreaterThan(0);
      // One gallery of the three thumbnails; each option's "Use this" beside its text.
      expect(galleriesOf(card).map((g) => g.length)).toEqual([3]);
      expect(galleriesOf(card)[0]?.every((i) => /^https?:\/\//.test(i.url))).toBe(true);
      expect(sectionsOf(card).map((s) => s.text.split('\n')[0])).toEqual([
        expect.stringMatching(/^\*\*Option 1/),
        expect.stringMatching(/^\*\*Option 2/),
        expect.stringMatching(/^\*\*Option 3/),
      ]);
      expect(controlsOf(card)).toEqual([
        'Use this',
        'Use this',
        'Use this',
        'Render',
        'Schedule',
        'Publish now',
      ]);
      expect(fake.channelMessages()).toHaveLength(1);

      // The ready milestone went into a thread started on the card (thread id = card message id).
      expect(fake.threads.get(card.id)).toMatchObject({ parent: card.channel_id, name: 'Octopus facts' });
      expect(fake.channelMessages(card.id).map(titleOf)).toContain('✅ Octopus facts is ready');

      // Bob picks option 3 from the channel card: a private confirmation, and the card marks the pick.
      const third = sectionsOf(card)[2]?.accessory.custom_id as string;
      const pick = await w.click(card, third, 'bob');
      expect(pick.callbacks[0]).toMatchObject({ type: 4, data: { flags: 64 | (1 << 15) } });
      expect(textOfMessage(w.original(pick))).toContain('now uses option 3');
      expect(textOfMessage(card)).toContain('✅ in use (picked by Bob)');
      expect(controlsIn(card).map((c) => c.custom_id)).not.toContain(third);
      expect(controlsOf(card).filter((l) => l === 'Use this')).toHaveLength(2);

      // Render: progress on the card, then the MP4 as a link button.
      const render = await w.click(card, 'Render');
      expect(textOfMessage(w.original(render))).toContain('Rendering “Octopus facts” (h264)');
      await h.until(() => controlsOf(card).includes('Download MP4'), { maxMs: 10 * MINUTE });
      const link = controlsIn(card).find((c) => c.label === 'Download MP4');
      expect(link).toMatchObject({ style: 5, url: expect.stringMatching(/\.mp4$/) });
      expect(fake.channelMessages(card.id).some((m) => textOfMessage(m).includes('.mp4'))).toBe(true);

      // Discord does not share members' zones: Alice set hers (else she is asked first: time-zone.e2e.test.ts).
      await h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
      // Schedule: a modal straight from the button.
      const schedule = await w.click(card, 'Schedule');
      expect(schedule.callbacks[0]).toMatchObject({ type: 9, data: { title: 'Schedule a post' } });
      const submitted = await w.submit(schedule, { platforms: 'youtube', when: 'tomorrow 9am' });
      // YouTube needs a title first: Discord cannot open a modal from a modal, so a button opens the next form.
      const launcher = w.original(submitted);
      expect(launcher.flags & 64).toBe(64);
      expect(controlsOf(launcher)).toEqual(['YouTube post details']);
      const details = await w.click(launcher, 'YouTube post details');
      expect(details.callbacks[0]).toMatchObject({ type: 9, data: { title: 'YouTube post details' } });
      const done = await w.submit(details, { title: 'Three hearts, blue blood' });
      expect(textOfMessage(w.original(done))).toMatch(/UTC/);
      await h.flush();
      expect(textOfMessage(card)).toMatch(/\*\*Scheduled\*\*: .*→ YouTube/);
      expect(fake.channelMessages()).toHaveLength(1);
    }, 60_000);
  });
});
