/**
 * The same honesty for the other typed writes the 10-minute window covers (src/core/dispatch/typed-replay.ts): a
 * schedule and a caption typed again say what was already done, in the caller's zone, and send nothing; their
 * button runs the command again as a new action.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TYPED_AGAIN_ACTION } from '../../../src/core/dispatch/typed-replay.js';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { apiOf, cardOf, completedVideo, MINUTE } from '../publishing/helpers.js';

let h: Harness;
afterEach(() => h?.close());

const writes = (path: string) =>
  (h.proxy?.calls ?? []).filter((c) => c.method === 'POST' && c.path === path).map((c) => c.idempotencyKey);

describe.each(['spec', 'real'] as const)(
  'other typed writes repeated within 10 minutes (%s profile)',
  (profile) => {
    it('schedule: "Already sent this schedule at …", nothing sent; "Schedule again" of the same never doubles', async () => {
      h = await createHarness({ simulator: { profile }, proxy: true });
      const bob = await h.user('bob', { timeZone: 'America/Los_Angeles' });
      const id = await completedVideo(h, 'Planned');
      await apiOf(h).videos.update(id, { posts: { youtube: { title: 'Planned' } } });
      h.clock.advance(Date.parse('2026-11-23T09:00:00Z') - h.clock.now()); // 01:00 in Los Angeles
      const text = `schedule ${id} youtube tomorrow 9am`;
      expect(cardOf(await h.run(text, bob)).title).toBe('Scheduled');
      h.clock.advance(MINUTE / 2);
      const repeated = await h.run(text, bob);
      expect(textOf(repeated)).toContain(
        'Already sent this schedule at 01:00 (same command, less than a minute ago) — Schedule again?',
      );
      expect(writes('/posts/schedule')).toHaveLength(1);
      const button = cardOf(repeated).controls?.find(
        (c) => c.kind === 'button' && c.action === TYPED_AGAIN_ACTION,
      );
      expect(button?.kind === 'button' && button.label).toBe('Schedule again');
      if (button?.kind !== 'button') return;
      // Run again, it is the very schedule already pending at the service: a second identical post would be
      // a double, so nothing is sent and the answer says so.
      const again = cardOf(await h.click(TYPED_AGAIN_ACTION, button.value, bob));
      expect(again.title).toBe('Scheduled');
      expect(again.text).toContain('is already scheduled on YouTube');
      expect(writes('/posts/schedule')).toHaveLength(1);
    });

    it('caption: "Already captioned at …", one video', async () => {
      h = await createHarness({ simulator: { profile }, proxy: true });
      const alice = await h.user('alice', { timeZone: 'Europe/Paris' });
      h.clock.advance(Date.parse('2026-11-23T09:00:00Z') - h.clock.now());
      const text = 'caption https://cdn.example.com/interview.mp4 --name Interview';
      await h.run(text, alice);
      h.clock.advance(5 * MINUTE);
      const repeated = await h.run(text, alice);
      expect(textOf(repeated)).toContain(
        'Already captioned at 10:00 (same command, 5 minutes ago) — Caption again?',
      );
      expect((await apiOf(h).videos.list({ page: 1, limit: 20 })).items).toHaveLength(1);
    });
  },
);
