/**
 * Scheduling again never doubles a post, as a table of stories run on any `ScenarioDriver`: the
 * core harness, real Bolt and real discord.js, each on both simulator profiles. What counts is what the
 * service holds (its calendar, read with the main team's key) and what people see (the answers and the
 * video card), never internals.
 *
 * The drivers' clock starts on Monday 23 Nov 2026, 08:00 UTC; the cast reads times in UTC.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorProfile } from '../../../src/simulator/index.js';
import type { Reply, ScenarioDriver, ShownCard } from '../approvals/driver.js';
import { button, lastApproval, setup, text } from '../approvals/scenario-kit.js';
import { PROFILES } from '../approvals/scenarios.js';

interface RescheduleScenario {
  name: string;
  run(d: ScenarioDriver): Promise<void>;
}

const TUE_09 = '2026-11-24T09:00:00.000Z';
const TUE_10 = '2026-11-24T10:00:00.000Z';
const TUE_11 = '2026-11-24T11:00:00.000Z';
const FRI_18 = '2026-11-27T18:00:00.000Z';

/** A rendered video with YouTube and X post details; its id. */
async function octo(d: ScenarioDriver, name = 'Octo facts'): Promise<string> {
  const id = await d.fixtures.renderedVideo(name);
  const meta = await d.run('alice', `meta ${id} x Eight arms, three hearts`);
  expect(meta.card?.title, text(meta)).not.toMatch(/error|couldn/i);
  return id;
}

/** What the service still holds for the video: `platform@time`, sorted. */
async function pending(d: ScenarioDriver, id: string): Promise<string[]> {
  return (await d.fixtures.scheduledPosts(id))
    .filter((p) => p.status === 'scheduled')
    .map((p) => `${p.platform}@${new Date(p.scheduledTime).toISOString()}`)
    .sort();
}

async function scheduled(d: ScenarioDriver, line: string): Promise<Reply> {
  const r = await d.run('alice', line);
  expect(r.card?.title, text(r)).toBe('Scheduled');
  return r;
}

/** The video's living card in the main channel. */
async function videoCard(d: ScenarioDriver, name: string): Promise<ShownCard> {
  await d.advance(1_000);
  const card = (await d.cards()).filter((c) => c.title.includes(name)).at(-1);
  if (!card) throw new Error(`no card for ${name}: ${JSON.stringify(await d.cards())}`);
  return card;
}

export const RESCHEDULE_SCENARIOS: readonly RescheduleScenario[] = [
  {
    name: 'scheduling again asks first; Move leaves one pending post per platform, at the new time',
    async run(d) {
      const id = await octo(d);
      await scheduled(d, `schedule ${id} x tomorrow 9am`);
      await scheduled(d, `schedule ${id} youtube tomorrow 10am`);
      expect(await pending(d, id)).toEqual([`x@${TUE_09}`, `youtube@${TUE_10}`]);

      const asked = await d.run('alice', `schedule ${id} x tomorrow 11am`);
      expect(asked.card?.title, text(asked)).toBe('Already scheduled');
      expect(asked.card?.text).toContain('Octo facts');
      expect(asked.card?.text).toContain('X at Tue 24 Nov 2026, 09:00 UTC');
      expect(asked.card?.buttons.map((b) => b.label)).toEqual(['Move it to 11:00', 'Keep both', 'Cancel']);
      // Nothing was sent yet.
      expect(await pending(d, id)).toEqual([`x@${TUE_09}`, `youtube@${TUE_10}`]);

      const moved = await d.click('alice', button(asked.card, 'schedule.move'));
      expect(moved.card?.title, text(moved)).toBe('Moved');
      expect(moved.card?.text).toContain('Tue 24 Nov 2026, 11:00 UTC');
      // DELETE cancelled every post of the video: YouTube was scheduled again at its own time.
      expect(await pending(d, id)).toEqual([`x@${TUE_11}`, `youtube@${TUE_10}`]);
      const card = await videoCard(d, 'Octo facts');
      expect(card.text).toContain('11:00 (X)');
      expect(card.text).toContain('10:00 (YouTube)');
      expect(card.text).not.toContain('09:00');

      // A second click of the same Move (or of Keep both on that question) cancels nothing again and schedules
      // nothing twice: the question is a one-shot card, answered once.
      const late = await d.click('alice', button(asked.card, 'schedule.move'));
      expect(text(late)).toContain('Already done by');
      const keep = await d.click('alice', button(asked.card, 'schedule.keep'));
      expect(text(keep)).toContain('Already done by');
      expect(await pending(d, id)).toEqual([`x@${TUE_11}`, `youtube@${TUE_10}`]);

      // And the posts go out once each, at their times.
      await d.advance(27 * 3_600_000);
      expect(
        d.fixtures
          .publishedPosts()
          .filter((p) => p.videoId === id)
          .map((p) => p.platform)
          .sort(),
      ).toEqual(['x', 'youtube']);
    },
  },
  {
    name: 'Keep both holds two posts and the video card lists both times',
    async run(d) {
      const id = await octo(d);
      await scheduled(d, `schedule ${id} x tomorrow 9am`);
      const asked = await d.run('alice', `schedule ${id} x tomorrow 11am`);
      expect(asked.card?.title, text(asked)).toBe('Already scheduled');
      const kept = await d.click('alice', button(asked.card, 'schedule.keep'));
      expect(kept.card?.title, text(kept)).toBe('Scheduled');
      expect(await pending(d, id)).toEqual([`x@${TUE_09}`, `x@${TUE_11}`]);
      const card = await videoCard(d, 'Octo facts');
      expect(card.text).toContain('Tue 24 Nov 2026, 09:00 (X)');
      expect(card.text).toContain('Tue 24 Nov 2026, 11:00 (X)');
    },
  },
  {
    name: 'Cancel schedules nothing and leaves the first post alone',
    async run(d) {
      const id = await octo(d);
      await scheduled(d, `schedule ${id} x tomorrow 9am`);
      const asked = await d.run('alice', `schedule ${id} x tomorrow 11am`);
      const cancelled = await d.click('alice', button(asked.card, 'schedule.cancel'));
      expect(cancelled.card?.title, text(cancelled)).toBe('Nothing changed');
      expect(await pending(d, id)).toEqual([`x@${TUE_09}`]);
    },
  },
  {
    name: 'reschedule moves one platform or all of them, and says when there is nothing to move',
    async run(d) {
      const id = await octo(d);
      await scheduled(d, `schedule ${id} youtube,x tomorrow 9am`);
      const one = await d.run('alice', `reschedule ${id} x tomorrow 11am`);
      expect(one.card?.title, text(one)).toBe('Moved');
      expect(await pending(d, id)).toEqual([`x@${TUE_11}`, `youtube@${TUE_09}`]);

      const all = await d.run('alice', `reschedule ${id} 2026-11-27 18:00`);
      expect(all.card?.title, text(all)).toBe('Moved');
      expect(await pending(d, id)).toEqual([`x@${FRI_18}`, `youtube@${FRI_18}`]);

      const other = await d.fixtures.renderedVideo('Nothing yet');
      const nothing = await d.run('alice', `reschedule ${other} youtube tomorrow 9am`);
      expect(text(nothing)).toContain('has nothing scheduled on YouTube to move');
      expect(await pending(d, other)).toEqual([]);
    },
  },
  {
    name: 'under approval publish, Move asks one approval and the approver’s click moves it',
    async run(d) {
      const id = await octo(d);
      await setup(d);
      const first = await d.run('alice', `schedule ${id} x tomorrow 9am`);
      expect(first.card?.title, text(first)).toBe('Sent for approval');
      await d.click('bob', button(await lastApproval(d), 'approval.approve'));
      expect(await pending(d, id)).toEqual([`x@${TUE_09}`]);

      const asked = await d.run('alice', `schedule ${id} x tomorrow 11am`);
      expect(asked.card?.title, text(asked)).toBe('Already scheduled');
      const sent = await d.click('alice', button(asked.card, 'schedule.move'));
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const card = await lastApproval(d);
      expect(card.title).toMatch(/^Approval needed: Move “Octo facts” on X/);
      expect(card.text).toContain('X at Tue 24 Nov 2026, 09:00 UTC');
      expect(await pending(d, id)).toEqual([`x@${TUE_09}`]);

      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toMatch(/^Approved/);
      expect(await pending(d, id)).toEqual([`x@${TUE_11}`]);
    },
  },
  {
    name: 'a time more than a year ahead or in the past is refused before anything is sent',
    async run(d) {
      const id = await octo(d);
      const far = await d.run('alice', `schedule ${id} youtube in 300 years`);
      expect(text(far)).toContain('more than a year ahead');
      const past = await d.run('alice', `reschedule ${id} youtube today 7am`);
      expect(text(past)).toContain('is in the past');
      expect(text(past)).toContain('tomorrow 07:00');
      expect(await pending(d, id)).toEqual([]);
    },
  },
];

/** Registers the table on a fresh driver per story, once per simulator profile. */
export function defineRescheduleSuite(
  name: string,
  makeDriver: (profile: SimulatorProfile) => Promise<ScenarioDriver>,
  profiles: readonly SimulatorProfile[] = PROFILES,
): void {
  describe.each(profiles)(`scheduling again on ${name}, %s profile`, (profile) => {
    let d: ScenarioDriver;
    beforeEach(async () => {
      d = await makeDriver(profile);
    });
    afterEach(async () => d.close());
    for (const scenario of RESCHEDULE_SCENARIOS) {
      it(scenario.name, async () => {
        await scenario.run(d);
      });
    }
  });
}
