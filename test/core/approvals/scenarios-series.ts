/**
 * Approval scenarios: a series that posts is a publication (DESIGN §5). Creating one, or changing where, when
 * or with which model it posts, takes the publish role and, under the publish policy, waits for an approver
 * before the service hears of it. Registered on every driver by `scenarios.ts`.
 */
import { expect } from 'vitest';
import type { ScenarioDriver } from './driver.js';
import { type ApprovalScenario, button, lastApproval, setup, text } from './scenario-kit.js';

const DAILY =
  'series create "Daily Tips" --source ai_story --destination youtube --schedule "daily 09:00 Europe/Paris"';

/** Publish policy (approvers bob and carol); alice and bob hold the publish role, dave does not. */
async function publishers(d: ScenarioDriver): Promise<void> {
  await setup(d);
  const r = await d.run('alice', `settings role publish ${d.mention('alice')} ${d.mention('bob')}`);
  expect(r.card?.title, text(r)).toBe('Workspace settings updated');
}

const posts = (d: ScenarioDriver) => d.fixtures.seriesWrites().filter((w) => w.method === 'POST');
const patches = (d: ScenarioDriver) => d.fixtures.seriesWrites().filter((w) => w.method === 'PATCH');

export const SERIES_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'series: a daily series to YouTube waits for an approver; nothing reaches the service until then',
    async run(d) {
      await publishers(d);
      const refused = await d.run('dave', DAILY);
      expect(text(refused)).toContain(`Only ${d.mention('alice')}, ${d.mention('bob')} may`);
      expect(text(refused)).toContain('start a series');
      expect(posts(d)).toEqual([]);

      const ask = await d.run('alice', DAILY);
      const confirm = button(ask.card, 'series.create.confirm');
      expect(confirm.label, text(ask)).toMatch(/^Request approval/);
      expect(text(ask)).toContain('nothing is sent until one approves');
      const sent = await d.click('alice', confirm);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(posts(d)).toEqual([]);
      expect(d.fixtures.spends()).toEqual([]);

      const card = await lastApproval(d);
      expect(card.title).toMatch(/^Approval needed: Start the series “Daily Tips”/);
      for (const words of [
        'Every day at 09:00 (Europe/Paris)',
        'YouTube',
        'Demo Channel',
        'Storyboard',
        '20 credits',
        '600 credits',
        // 500 credits at 20 a day: 25 episodes from Mon 23 Nov.
        'at this pace your 500 credits last until Fri 18 Dec 2026',
      ])
        expect(card.text, words).toContain(words);

      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Series created: Daily Tips');
      const again = await d.click('carol', button(card, 'approval.approve'));
      expect(text(again)).toContain('Already approved by');
      expect(posts(d)).toHaveLength(1);
      expect(posts(d)[0]?.body).toMatchObject({
        name: 'Daily Tips',
        destination: 'youtube',
        autoPostTime: '09:00',
        timezone: 'Europe/Paris',
      });
      expect((await lastApproval(d)).title).toMatch(/^Approved: Start the series/);
    },
  },
  {
    name: 'series: a blank destination and schedule is still a publication: the card says where and when it posts',
    async run(d) {
      await publishers(d);
      const ask = await d.run('alice', 'series create "Plain" --source ai_story');
      const sent = await d.click('alice', button(ask.card, 'series.create.confirm'));
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(posts(d)).toEqual([]);
      const card = await lastApproval(d);
      expect(card.text).toContain('Every day');
      expect(card.text).toContain('the service’s default platform');
      const form = await d.click('carol', button(card, 'approval.reject'));
      await d.submit('carol', form.form as NonNullable<typeof form.form>, { reason: 'Pick a channel first' });
      expect((await lastApproval(d)).title).toMatch(/^Rejected: Start the series “Plain”/);
      expect(posts(d)).toEqual([]);
    },
  },
  {
    name: 'series: changing where or when a series posts takes the publish role and waits; other edits do not',
    async run(d) {
      const created = await d.run(
        'alice',
        'series create "Weekly" --source ai_story --schedule "mon 09:00 UTC"',
      );
      const done = await d.click('alice', button(created.card, 'series.create.confirm'));
      expect(done.card?.title, text(done)).toBe('Series created: Weekly');
      await publishers(d);

      // Options every surface shows (Discord types the advanced ones in `more`).
      const refused = await d.run('dave', 'series edit Weekly --schedule "18:00 UTC"');
      expect(text(refused)).toContain(`Only ${d.mention('alice')}, ${d.mention('bob')} may`);
      expect(text(refused)).toContain('change where, when or with which model a series posts');
      const free = await d.run('dave', 'series edit Weekly --name "Weekly Reads"');
      expect(free.card?.title, text(free)).toBe('Updated “Weekly Reads”');
      expect(patches(d)).toHaveLength(1);

      const sent = await d.run(
        'alice',
        'series edit Weekly --destination tiktok --schedule "mon,wed,fri 18:00 Europe/Paris"',
      );
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(patches(d)).toHaveLength(1);
      const card = await lastApproval(d);
      expect(card.title).toMatch(
        /^Approval needed: Change the series “Weekly Reads”: destination, posting time, posting days, time zone/,
      );
      for (const words of ['Mon, Wed, Fri at 18:00 (Europe/Paris)', 'TikTok', '@demo.reels', '260 credits'])
        expect(card.text, words).toContain(words);

      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Updated “Weekly Reads”');
      expect(patches(d)).toHaveLength(2);
      expect(patches(d)[1]?.body).toMatchObject({
        destination: 'tiktok',
        autoPostTime: '18:00',
        timezone: 'Europe/Paris',
      });
    },
  },
  {
    name: 'budgets: two active series show their pace and run-out date; a spend past the monthly cap waits',
    async run(d) {
      for (const rest of [
        '"Daily" --schedule "daily 09:00 UTC"',
        '"Thrice" --schedule "mon,wed,fri 09:00 UTC"',
      ]) {
        const ask = await d.run('alice', `series create ${rest} --source ai_story`);
        const done = await d.click('alice', button(ask.card, 'series.create.confirm'));
        expect(done.card?.title, text(done)).toMatch(/^Series created/);
      }
      expect(d.fixtures.spends()).toEqual([-20, -20]);
      // 460 credits at 20 + 60/7 a day last 16 days from Mon 23 Nov.
      const shown = await d.run('alice', 'series show Daily');
      expect(text(shown)).toContain(
        '≈600 credits a month; at this pace (all 2 active series: ≈860 a month) your 460 credits last until Wed 9 Dec 2026',
      );

      // 40 spent this month: 20 more is within a threshold of 50, but past a monthly cap of 50.
      for (const line of [
        `role admin ${d.mention('alice')}`,
        `approvers ${d.mention('bob')}`,
        'monthly-cap 50',
      ]) {
        const r = await d.run('alice', `settings ${line}`);
        expect(r.card?.title, text(r)).toBe('Workspace settings updated');
      }
      const more = await d.run('alice', 'series generate Daily');
      const generate = button(more.card, 'series.generate.confirm');
      expect(generate.label).toMatch(/^Request approval/);
      expect(text(more)).toContain('monthly cap of 50 credits');
      const sent = await d.click('alice', generate);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(d.fixtures.spends()).toHaveLength(2);
      const approved = await d.click('bob', button(await lastApproval(d), 'approval.approve'));
      expect(approved.card?.title, text(approved)).toMatch(/^Approved/);
      expect(d.fixtures.spends()).toEqual([-20, -20, -20]);
    },
  },
];
