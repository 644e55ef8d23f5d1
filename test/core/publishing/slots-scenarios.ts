/**
 * Queue slots, `schedule … next`, clash warnings and daily caps (DESIGN §10) as a table of stories run on any
 * `ScenarioDriver`: the core harness, real Bolt and real discord.js, each on both simulator profiles. What counts
 * is what the service received (the schedule bodies) and what people see (answers, buttons).
 *
 * The drivers' clock starts on Monday 23 Nov 2026, 08:00 UTC (09:00 in Paris); alice reads times in Paris.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorProfile } from '../../../src/simulator/index.js';
import type { Reply, ScenarioDriver } from '../approvals/driver.js';
import { button, lastApproval, setup, text } from '../approvals/scenario-kit.js';
import { PROFILES } from '../approvals/scenarios.js';

interface SlotsScenario {
  name: string;
  run(d: ScenarioDriver): Promise<void>;
}

/** Friday 27 Nov 2026, 18:00 in Paris. */
const FRIDAY_18_PARIS = Date.parse('2026-11-27T17:00:00Z');

/** alice in Paris, with YouTube slots Mon–Fri 09:00 and 17:00 for the workspace. */
async function parisWithSlots(d: ScenarioDriver): Promise<void> {
  expect(text(await d.run('alice', 'tz Europe/Paris'))).toContain('Europe/Paris');
  const set = await d.run('alice', 'settings slots youtube "mon-fri 09:00,17:00"');
  expect(set.card?.title, text(set)).toBe('Workspace settings updated');
  expect(set.card?.text).toContain('Weekdays at 09:00, 17:00 (Europe/Paris)');
}

/** Moves the drivers' clock to `at` (never back). */
async function until(d: ScenarioDriver, at: number): Promise<void> {
  if (at > d.now()) await d.advance(at - d.now());
}

/** The scheduled times the service received, in order. */
const sentTimes = (d: ScenarioDriver): string[] =>
  d.fixtures.sentBodies('/posts/schedule').map((b) => new Date(String(b.scheduledTime)).toISOString());

function scheduled(r: Reply, when: string): void {
  expect(r.card?.title, text(r)).toBe('Scheduled');
  expect(r.card?.text).toContain(when);
}

export const SLOTS_SCENARIOS: readonly SlotsScenario[] = [
  {
    name: '`schedule … next` on a Friday at 18:00 in Paris lands on Monday 09:00 Paris; a taken slot is skipped',
    async run(d) {
      await parisWithSlots(d);
      const first = await d.fixtures.renderedVideo('Octo facts');
      const second = await d.fixtures.renderedVideo('Squid facts');
      await until(d, FRIDAY_18_PARIS);
      scheduled(
        await d.run('alice', `schedule ${first} youtube next`),
        'Mon 30 Nov 2026, 09:00 Europe/Paris',
      );
      // Monday 09:00 now holds a post of that account: the next one takes 17:00.
      scheduled(
        await d.run('alice', `schedule ${second} youtube next`),
        'Mon 30 Nov 2026, 17:00 Europe/Paris',
      );
      expect(sentTimes(d)).toEqual(['2026-11-30T08:00:00.000Z', '2026-11-30T16:00:00.000Z']);
      expect(await d.fixtures.scheduledPosts(second)).toMatchObject([
        { platform: 'youtube', status: 'scheduled', scheduledTime: '2026-11-30T16:00:00.000Z' },
      ]);
    },
  },
  {
    name: 'across the changes to summer and winter time, Monday 09:00 Paris is 07:00, then 08:00 UTC',
    async run(d) {
      await parisWithSlots(d);
      const id = await d.fixtures.renderedVideo('Octo facts');
      // Friday 26 Mar 2027, 18:00 in Paris (UTC+1); the clocks go forward on Sunday 28 March.
      await until(d, Date.parse('2027-03-26T17:00:00Z'));
      scheduled(await d.run('alice', `schedule ${id} youtube next`), 'Mon 29 Mar 2027, 09:00 Europe/Paris');
      expect(sentTimes(d)).toEqual(['2027-03-29T07:00:00.000Z']);
      // Friday 29 Oct 2027, 18:00 in Paris (UTC+2); the clocks go back on Sunday 31 October.
      const autumn = await d.fixtures.renderedVideo('Squid facts');
      await until(d, Date.parse('2027-10-29T16:00:00Z'));
      scheduled(
        await d.run('alice', `schedule ${autumn} youtube next`),
        'Mon 1 Nov 2027, 09:00 Europe/Paris',
      );
      expect(sentTimes(d)).toEqual(['2027-03-29T07:00:00.000Z', '2027-11-01T08:00:00.000Z']);
    },
  },
  {
    name: '`slots` shows each platform’s slots, cap and next free ones, a taken slot left out',
    async run(d) {
      await parisWithSlots(d);
      await d.run('alice', 'settings daily-cap youtube 2');
      const id = await d.fixtures.renderedVideo('Octo facts');
      scheduled(await d.run('alice', `schedule ${id} youtube next`), 'Mon 23 Nov 2026, 17:00');
      const queue = await d.run('alice', 'slots');
      expect(queue.card?.title, text(queue)).toBe('Queue slots');
      expect(queue.card?.text).toContain('YouTube');
      expect(queue.card?.text).toContain('Weekdays at 09:00, 17:00 (Europe/Paris)');
      expect(queue.card?.text).toContain('2 a day');
      expect(queue.card?.text).toContain('Tomorrow, 09:00, Tomorrow, 17:00, Wed 25 Nov, 09:00');
    },
  },
  {
    name: '`next` without slots says how to set them, and sends nothing',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Octo facts');
      const r = await d.run('alice', `schedule ${id} youtube next`);
      expect(text(r)).toContain('YouTube has no queue slots yet');
      expect(text(r)).toContain('mon-fri 09:00,17:00');
      expect(sentTimes(d)).toEqual([]);
    },
  },
  {
    name: 'the Schedule button’s form offers the next free slot first, and schedules there',
    async run(d) {
      await parisWithSlots(d);
      const id = await d.fixtures.renderedVideo('Octo facts');
      await d.run('alice', `status ${id}`);
      await d.advance(1_000);
      const card = (await d.cards()).filter((c) => c.title.includes('Octo facts')).at(-1);
      const opened = await d.click('alice', button(card, 'video.schedule'));
      expect(opened.form?.inputs, JSON.stringify(opened)).toEqual(['platforms', 'slot', 'when']);
      const form = opened.form;
      if (!form) throw new Error('no form');
      const sent = await d.submit('alice', form, { platforms: 'youtube', slot: 'next', when: '' });
      scheduled(sent, 'Mon 23 Nov 2026, 17:00 Europe/Paris');
      expect(sentTimes(d)).toEqual(['2026-11-23T16:00:00.000Z']);
    },
  },
  {
    name: 'each platform takes its own next free slot, one schedule per slot',
    async run(d) {
      await parisWithSlots(d);
      expect((await d.run('alice', 'settings slots x "daily 12:00"')).card?.title).toBe(
        'Workspace settings updated',
      );
      const id = await d.fixtures.renderedVideo('Octo facts');
      const meta = await d.run('alice', `meta ${id} x Eight arms, three hearts`);
      expect(meta.card?.title, text(meta)).not.toMatch(/error|couldn/i);
      scheduled(await d.run('alice', `schedule ${id} youtube,x next`), 'Mon 23 Nov 2026, 12:00 Europe/Paris');
      expect(d.fixtures.sentBodies('/posts/schedule').map((b) => [b.platforms, b.scheduledTime])).toEqual([
        [['x'], '2026-11-23T11:00:00.000Z'],
        [['youtube'], '2026-11-23T16:00:00.000Z'],
      ]);
    },
  },
  {
    name: 'under approval publish, `next` asks one approval for its slot and the approver’s click schedules there',
    async run(d) {
      await setup(d);
      await parisWithSlots(d);
      const id = await d.fixtures.renderedVideo('Octo facts');
      const asked = await d.run('alice', `schedule ${id} youtube next`);
      expect(asked.card?.title, text(asked)).toBe('Sent for approval');
      expect(sentTimes(d)).toEqual([]);
      const approved = await d.click('bob', button(await lastApproval(d), 'approval.approve'));
      expect(approved.card?.title, text(approved)).toMatch(/^Approved/);
      expect(sentTimes(d)).toEqual(['2026-11-23T16:00:00.000Z']);
    },
  },
  {
    name: 'a clash is warned: Cancel sends nothing, Schedule anyway sends it as asked',
    async run(d) {
      await parisWithSlots(d);
      const first = await d.fixtures.renderedVideo('Octo facts');
      const second = await d.fixtures.renderedVideo('Squid facts');
      scheduled(await d.run('alice', `schedule ${first} youtube 2026-11-24 09:00`), 'Tue 24 Nov 2026, 09:00');
      const warned = await d.run('alice', `schedule ${second} youtube 2026-11-24 09:15`);
      expect(warned.card?.title, text(warned)).toBe('Clash: check the time');
      expect(warned.card?.text).toContain(
        'YouTube already has a post of the same account at Tue 24 Nov 2026, 09:00',
      );
      expect(warned.card?.buttons.map((b) => b.label)).toEqual([
        'Use the next free slot (Mon 17:00)',
        'Schedule anyway (Tue 09:15)',
        'Cancel',
      ]);
      expect(sentTimes(d)).toHaveLength(1);
      const refused = await d.click('alice', button(warned.card, 'schedule.clash-cancel'));
      expect(refused.card?.title, text(refused)).toBe('Nothing scheduled');
      expect(sentTimes(d)).toHaveLength(1);

      const again = await d.run('alice', `schedule ${second} youtube 2026-11-24 09:15`);
      const confirmed = await d.click('alice', button(again.card, 'schedule.anyway'));
      scheduled(confirmed, 'Tue 24 Nov 2026, 09:15 Europe/Paris');
      expect(sentTimes(d)).toEqual(['2026-11-24T08:00:00.000Z', '2026-11-24T08:15:00.000Z']);
    },
  },
  {
    name: 'a clash answered "Use the next free slot" takes the next free one',
    async run(d) {
      await parisWithSlots(d);
      const first = await d.fixtures.renderedVideo('Octo facts');
      const second = await d.fixtures.renderedVideo('Squid facts');
      scheduled(await d.run('alice', `schedule ${first} youtube 2026-11-24 09:00`), 'Tue 24 Nov 2026, 09:00');
      const warned = await d.run('alice', `schedule ${second} youtube 2026-11-24 09:20`);
      const moved = await d.click('alice', button(warned.card, 'schedule.next-slot'));
      scheduled(moved, 'Mon 23 Nov 2026, 17:00 Europe/Paris');
      expect(sentTimes(d)).toEqual(['2026-11-24T08:00:00.000Z', '2026-11-23T16:00:00.000Z']);
    },
  },
  {
    name: 'a daily cap is warned: refused, then confirmed',
    async run(d) {
      await parisWithSlots(d);
      const capped = await d.run('alice', 'settings daily-cap youtube 1');
      expect(capped.card?.text, text(capped)).toContain('1 post a day');
      const first = await d.fixtures.renderedVideo('Octo facts');
      const second = await d.fixtures.renderedVideo('Squid facts');
      scheduled(await d.run('alice', `schedule ${first} youtube 2026-11-24 09:00`), 'Tue 24 Nov 2026, 09:00');
      const warned = await d.run('alice', `schedule ${second} youtube 2026-11-24 18:00`);
      expect(warned.card?.title, text(warned)).toBe('Over the daily cap');
      expect(warned.card?.text).toContain(
        'YouTube already has 1 post on Tue 24 Nov 2026: its daily cap is 1',
      );
      expect((await d.click('alice', button(warned.card, 'schedule.clash-cancel'))).card?.title).toBe(
        'Nothing scheduled',
      );
      expect(sentTimes(d)).toHaveLength(1);
      const again = await d.run('alice', `schedule ${second} youtube 2026-11-24 18:00`);
      scheduled(await d.click('alice', button(again.card, 'schedule.anyway')), 'Tue 24 Nov 2026, 18:00');
      expect(sentTimes(d)).toEqual(['2026-11-24T08:00:00.000Z', '2026-11-24T17:00:00.000Z']);
      // With the cap reached on Tuesday, `next` passes over Tuesday's slots.
      const third = await d.fixtures.renderedVideo('Crab facts');
      await until(d, Date.parse('2026-11-23T17:00:00Z'));
      scheduled(await d.run('alice', `schedule ${third} youtube next`), 'Wed 25 Nov 2026, 09:00');
    },
  },
];

export function defineSlotsSuite(
  name: string,
  makeDriver: (profile: SimulatorProfile) => Promise<ScenarioDriver>,
  profiles: readonly SimulatorProfile[] = PROFILES,
): void {
  describe.each(profiles)(`queue slots on ${name}, %s profile`, (profile) => {
    let d: ScenarioDriver;
    beforeEach(async () => {
      d = await makeDriver(profile);
    });
    afterEach(async () => d.close());
    for (const scenario of SLOTS_SCENARIOS) {
      it(scenario.name, async () => {
        await scenario.run(d);
      });
    }
  });
}
