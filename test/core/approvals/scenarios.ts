/**
 * Team publishing scenarios (DESIGN §5) as a reusable table: each runs on any `ScenarioDriver`, so the core
 * harness, the playground and the Slack/Discord suites replay the same stories through their own surface.
 *
 *   import { defineApprovalSuite } from '../core/approvals/scenarios.js';
 *   defineApprovalSuite('slack', (profile) => createSlackDriver({ profile }));
 *
 * Every suite runs once per simulator profile: `spec` (video-api.md as written) and `real` (the real product's
 * shapes: opaque voice ids, older account entries, `platform: "tts"`, progress that jumps and stalls…).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorProfile } from '../../../src/simulator/index.js';
import type { Reply, ScenarioDriver } from './driver.js';
import {
  type ApprovalScenario,
  approvalCards,
  askToPublish,
  button,
  lastApproval,
  MINUTE,
  SCRIPT,
  setup,
  text,
} from './scenario-kit.js';
import { CONTENT_SCENARIOS } from './scenarios-content.js';
import { INBOX_SCENARIOS } from './scenarios-inbox.js';
import { MULTI_SCENARIOS } from './scenarios-multi.js';
import { ONE_SHOT_SCENARIOS } from './scenarios-one-shot.js';
import { POLICY_SCENARIOS } from './scenarios-policy.js';
import { REMINDER_SCENARIOS } from './scenarios-reminders.js';
import { SERIES_SCENARIOS } from './scenarios-series.js';
import { STAGE_SCENARIOS } from './scenarios-stages.js';

export type { ApprovalScenario } from './scenario-kit.js';

// ——— the table ———

export const APPROVAL_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'publish waits for an approver; Approve publishes under the approver’s key and edits the card',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch teaser');
      await setup(d);
      const sent = await d.run('alice', `publish ${id} youtube`);
      expect(sent.visibility).toBe('ephemeral');
      expect(sent.card?.title).toBe('Sent for approval');
      expect(sent.card?.text).toContain(d.mention('bob'));
      expect(sent.card?.text).toContain(d.mention('carol'));
      expect(d.fixtures.publishedPosts()).toEqual([]);

      const card = await lastApproval(d);
      expect(card.title).toMatch(/^Approval needed: Publish “Launch teaser” to YouTube/);
      expect(card.text).toContain('Launch teaser — launch'); // the YouTube block, previewed
      expect(card.text).toContain(d.mention('alice'));
      expect(card.image).toBeTruthy();
      expect(card.buttons.map((b) => b.label)).toEqual(['Approve', 'Reject', 'Withdraw']);

      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.visibility).toBe('ephemeral');
      expect(approved.card?.title).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);

      const after = await lastApproval(d);
      expect(after.title).toMatch(/^Approved: Publish “Launch teaser”/);
      expect(after.text).toContain('Approved by');
      expect(after.text).toContain('Bob');
      expect(after.buttons).toEqual([]);
      expect((await d.notices('alice')).map((n) => n.title)).toEqual(['Approved']);
    },
  },
  {
    name: 'schedule: the card shows the requester’s zone and UTC; the approver’s confirmation shows theirs',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Teaser two');
      await d.run('bob', 'tz America/New_York');
      await setup(d);
      const sent = await d.run('alice', `schedule ${id} youtube tomorrow 9am`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(sent.card?.text).toContain('Tue 24 Nov 2026, 09:00 UTC');
      const card = await lastApproval(d);
      expect(card.title).toMatch(/^Approval needed: Schedule “Teaser two” on YouTube/);
      expect(card.text).toContain('Tue 24 Nov 2026, 09:00 UTC');
      expect(card.buttons.map((b) => b.label)).toEqual(['Approve', 'Reject', 'Reschedule', 'Withdraw']);
      expect(await d.fixtures.scheduledPosts(id)).toEqual([]);

      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Scheduled');
      expect(approved.card?.text).toContain('Tue 24 Nov 2026, 04:00 America/New_York (09:00 UTC)');
      expect(await d.fixtures.scheduledPosts(id)).toMatchObject([
        { platform: 'youtube', status: 'scheduled' },
      ]);
      const after = await lastApproval(d);
      expect(after.title).toMatch(/^Approved: Schedule/);
      expect(after.text).toContain('Scheduled for Tue 24 Nov 2026, 09:00 UTC');
      // Decided before its time: the expiry does nothing later.
      await d.advance(26 * 60 * MINUTE);
      expect((await lastApproval(d)).title).toMatch(/^Approved: /);
      expect((await d.notices('alice')).map((n) => n.title)).toEqual(['Approved']);
    },
  },
  {
    name: 'Reject asks for a reason, edits the card, tells the requester; nothing is sent',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Rough cut');
      await setup(d);
      const card = await askToPublish(d, id);
      const form = await d.click('bob', button(card, 'approval.reject'));
      expect(form.kind).toBe('form');
      expect(form.form?.inputs).toEqual(['reason']);
      const done = await d.submit('bob', form.form as NonNullable<Reply['form']>, {
        reason: 'The title needs the launch date',
      });
      expect(done.card?.title, text(done)).toBe('Rejected');
      const after = await lastApproval(d);
      expect(after.title).toMatch(/^Rejected: Publish “Rough cut”/);
      expect(after.text).toContain('The title needs the launch date');
      expect(after.buttons).toEqual([]);
      const notices = await d.notices('alice');
      expect(notices.map((n) => n.title)).toEqual(['Request rejected']);
      expect(notices[0]?.text).toContain('The title needs the launch date');

      // The stale Approve button of the card as it was: harmless.
      const late = await d.click('carol', button(card, 'approval.approve'));
      expect(text(late)).toContain('Already rejected by');
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
  {
    name: 'self-approval is refused unless the channel allows it',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Own cut');
      await setup(d, { approvers: ['alice', 'bob'] });
      const card = await askToPublish(d, id);
      const refused = await d.click('alice', button(card, 'approval.approve'));
      expect(refused.visibility).toBe('ephemeral');
      expect(text(refused)).toContain('does not allow approving your own requests');
      expect(text(refused)).toContain(d.mention('bob'));
      expect(d.fixtures.publishedPosts()).toEqual([]);
      expect((await lastApproval(d)).title).toMatch(/^Approval needed/);

      await d.run('alice', 'settings self-approval on');
      const ok = await d.click('alice', button(card, 'approval.approve'));
      expect(ok.card?.title, text(ok)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toHaveLength(1);
    },
  },
  {
    name: 'a non-approver is refused and the card stays pending',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Side cut');
      await setup(d, { approvers: ['bob'] });
      const card = await askToPublish(d, id);
      const refused = await d.click('dave', button(card, 'approval.approve'));
      expect(refused.visibility).toBe('ephemeral');
      expect(text(refused)).toContain(`Only approvers can decide this: ${d.mention('bob')}`);
      const reject = await d.click('dave', button(card, 'approval.reject'));
      expect(reject.kind).toBe('message');
      expect(text(reject)).toContain('Only approvers can decide this');
      expect((await lastApproval(d)).title).toMatch(/^Approval needed/);
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
  {
    name: 'a second click (same or another approver) does nothing harmful: exactly one post',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Double');
      await setup(d);
      const card = await askToPublish(d, id);
      const first = await d.click('bob', button(card, 'approval.approve'));
      expect(first.card?.title).toBe('Approved · Published to YouTube');
      const again = await d.click('bob', button(card, 'approval.approve'));
      // When, in the clicker's own zone: a time today, never a UTC timestamp in brackets.
      expect(text(again)).toMatch(/Already approved by .+ at \d{2}:\d{2}\./);
      expect(text(again)).toContain(`Already approved by ${d.mention('bob')} at `);
      const other = await d.click('carol', button(card, 'approval.approve'));
      expect(text(other)).toContain('Already approved by');
      const reject = await d.click('carol', button(card, 'approval.reject'));
      expect(text(reject)).toContain('Already approved by');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
      expect((await d.notices('alice')).map((n) => n.title)).toEqual(['Approved']);
    },
  },
  {
    name: 'concurrent clicks: one approval wins, the other hears who decided; exactly one post',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Race');
      await setup(d);
      const card = await askToPublish(d, id);
      const replies = await Promise.all([
        d.click('bob', button(card, 'approval.approve')),
        d.click('carol', button(card, 'approval.approve')),
      ]);
      const titles = replies.map((r) => r.card?.title).sort();
      expect(titles).toEqual(['Approved · Published to YouTube', 'Nothing to do']);
      expect(replies.map(text).join('\n')).toContain('Already approved by');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
    },
  },
  {
    name: 'a scheduled request expires at its time: card edited, requester told once; Reschedule asks again',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Late');
      await setup(d);
      const sent = await d.run('alice', `schedule ${id} youtube in 2 hours`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const card = await lastApproval(d);

      await d.advance(60 * MINUTE);
      expect((await lastApproval(d)).title).toMatch(/^Approval needed/);
      expect(await d.notices('alice')).toEqual([]);

      await d.advance(61 * MINUTE);
      const expired = await lastApproval(d);
      expect(expired.title).toMatch(/^Expired: Schedule “Late”/);
      expect(expired.buttons.map((b) => b.label)).toEqual(['Reschedule']);
      await d.advance(60 * MINUTE);
      const notices = await d.notices('alice');
      expect(notices.map((n) => n.title)).toEqual(['Approval expired']);

      const stale = await d.click('bob', button(card, 'approval.approve'));
      expect(text(stale)).toContain('Already expired');
      expect(await d.fixtures.scheduledPosts(id)).toEqual([]);

      const form = await d.click('alice', button(expired, 'approval.reschedule'));
      expect(form.kind).toBe('form');
      const again = await d.submit('alice', form.form as NonNullable<Reply['form']>, {
        when: 'tomorrow 10am',
      });
      expect(again.card?.title, text(again)).toBe('Sent for approval');
      const cards = await approvalCards(d);
      expect(cards.map((c) => c.title.split(':')[0])).toEqual(['Replaced', 'Approval needed']);
      expect(cards[0]?.buttons).toEqual([]);
      const ok = await d.click('bob', button(cards[1], 'approval.approve'));
      expect(ok.card?.title, text(ok)).toBe('Approved · Scheduled');
      expect(await d.fixtures.scheduledPosts(id)).toMatchObject([
        { platform: 'youtube', status: 'scheduled' },
      ]);
    },
  },
  {
    name: 'forged clicks: another channel’s approval, an unknown id, another team’s video — all refused',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Elsewhere');
      await setup(d);
      await setup(d, { channel: 'other' });
      const sent = await d.run({ user: 'alice', channel: 'other' }, `publish ${id} youtube`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const foreign = await lastApproval(d, 'other');
      const refused = await d.click('bob', button(foreign, 'approval.approve'));
      expect(text(refused)).toContain('belongs to another channel');
      const forged = await d.click('bob', {
        action: 'approval.approve',
        value: 'ap_forged0000000000',
        label: 'x',
      });
      expect(text(forged)).toContain('no longer valid');
      const videoAsValue = await d.click('bob', { action: 'approval.approve', value: id, label: 'x' });
      expect(text(videoAsValue)).toContain('no longer valid');
      expect((await lastApproval(d, 'other')).title).toMatch(/^Approval needed/);

      // Mallory's team owns this video; the approver's key (another team) simply does not find it.
      const theirs = await d.fixtures.renderedVideo('Their video', { team: 'other' });
      const card = await askToPublish(d, theirs, 'mallory');
      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved, but it did not go through');
      expect(text(approved)).toContain('No video matches');
      expect((await lastApproval(d)).title).toMatch(/^Approved, not done: /);
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
  {
    name: 'spend policy: a create above the threshold is charged once, after approval',
    async run(d) {
      await setup(d, { policy: 'spend', threshold: 30, approvers: ['bob'] });
      const ask = await d.run('alice', `create --model motion_lite ${SCRIPT}`);
      const confirm = button(ask.card, 'video.create.confirm');
      expect(confirm.label).toBe('Request approval (50 credits)');
      const sent = await d.click('alice', confirm);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(d.fixtures.spends()).toEqual([]);
      // The cost card was answered (one-shot): a stale copy's click says so, and asks nothing again.
      const again = await d.click('alice', confirm);
      expect(text(again)).toContain(`Already done by ${d.mention('alice')}`);
      expect(text(again)).toContain(': Sent for approval.');
      expect(await approvalCards(d)).toHaveLength(1);

      const card = await lastApproval(d);
      expect(card.title).toMatch(/^Approval needed: Create “.*” \(50 credits\)/);
      expect(card.text).toContain('50 credits');
      expect(card.text).toContain('500 → 450');
      const before = (await d.cards()).length;
      const [a, b] = await Promise.all([
        d.click('bob', button(card, 'approval.approve')),
        d.click('bob', button(card, 'approval.approve')),
      ]);
      expect([a, b].map((r) => r.card?.title).sort()).toEqual([
        'Approved · Creating “A short script about the launch of our new product, told in…”…',
        'Nothing to do',
      ]);
      await d.click('bob', button(card, 'approval.approve'));
      expect(d.fixtures.spends()).toEqual([-50]);
      // The video's status card, as a direct create would post it.
      expect((await d.cards()).length).toBe(before + 1);
      // At or under the threshold, no approval: a storyboard (20) goes straight to the confirm card.
      const cheap = await d.run('alice', `create ${SCRIPT}`);
      expect(button(cheap.card, 'video.create.confirm').label).toBe('Create (20 credits)');
    },
  },
  {
    name: 'roles: only the publish role may publish/unschedule/delete, only the spend role may create',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Roles');
      expect((await d.run('alice', `settings role publish ${d.mention('bob')}`)).card?.title).toBe(
        'Workspace settings updated',
      );
      for (const line of [
        `publish ${id} youtube`,
        `schedule ${id} youtube tomorrow 9am`,
        `unschedule ${id}`,
        `delete ${id}`,
      ]) {
        const r = await d.run('alice', line);
        expect(text(r), line).toContain(
          `Only ${d.mention('bob')} may publish, schedule, unschedule or delete videos`,
        );
      }
      expect(d.fixtures.publishedPosts()).toEqual([]);
      const ok = await d.run('bob', `publish ${id} youtube`);
      expect(ok.card?.title, text(ok)).toBe('Published to YouTube');

      await d.run('alice', `settings role spend ${d.mention('carol')}`);
      const spent = d.fixtures.spends();
      const spend = await d.run('alice', `create ${SCRIPT}`);
      expect(text(spend)).toContain(`Only ${d.mention('carol')} may spend credits`);
      expect(d.fixtures.spends()).toEqual(spent);
    },
  },
  {
    name: 'audit lists who asked, approved, rejected and published, in the caller’s zone; --csv gives the rows',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Audited');
      await setup(d);
      await d.click('bob', button(await askToPublish(d, id), 'approval.approve'));
      await d.run('alice', `schedule ${id} youtube tomorrow 9am`);
      const form = await d.click('carol', button(await lastApproval(d), 'approval.reject'));
      await d.submit('carol', form.form as NonNullable<Reply['form']>, { reason: 'Not this week' });

      await d.run('dave', 'tz Asia/Tokyo');
      const log = await d.run('dave', 'audit');
      expect(log.visibility).toBe('ephemeral');
      expect(log.card?.title).toBe('Audit log');
      const t = text(log);
      // The three settings changes of `setup` are audited too.
      expect(t).toContain('8 entries in this channel');
      expect(t).toContain('Times in Asia/Tokyo');
      expect(t).toMatch(/, 17:0\d\b/); // just after 08:00 UTC, in Tokyo
      for (const words of [
        'asked for approval',
        'approved: Publish',
        'published “Audited” to YouTube',
        'rejected: Schedule',
        'Not this week',
      ])
        expect(t).toContain(words);
      // Code spans read differently per platform: the words are what matter.
      expect(t).toMatch(/set `?approval`? to `?publish`? \(was `?off`?\)/);

      const csv = await d.run('dave', `audit --video ${id} --csv`);
      expect(csv.card?.title).toBe('Audit log (CSV)');
      expect(text(csv)).toContain('5 rows');
      // The rows come as a file (uploaded, attached or offered for download), never in the text.
      expect(text(csv)).not.toContain('"time","time_utc"');
      const c = csv.card?.file ?? '';
      expect(c).toContain('"time","time_utc","actor","action","video","series","credits","details"\r\n');
      for (const action of ['approval.request', 'approval.approve', 'video.publish', 'approval.reject'])
        expect(c).toContain(`,"${action}","${id}",`);
      expect(c).toMatch(/"2026-11-23 17:0\d:\d\d","2026-11-23T08:0/);

      const none = await d.run('dave', 'audit --from tomorrow');
      expect(text(none)).toContain('Nothing recorded');
    },
  },
  {
    name: 'approvers by group/role: a member decides, others are refused',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Grouped');
      await setup(d, { approvers: 'reviewers' });
      const card = await askToPublish(d, id);
      const refused = await d.click('dave', button(card, 'approval.approve'));
      expect(text(refused)).toContain('Only approvers can decide this');
      const ok = await d.click('erin', button(card, 'approval.approve'));
      expect(ok.card?.title, text(ok)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toHaveLength(1);
    },
  },
];

export const PROFILES = ['spec', 'real'] as const satisfies readonly SimulatorProfile[];

/** Registers the whole table as a vitest suite on a fresh driver per scenario, once per simulator profile. */
export function defineApprovalSuite(
  name: string,
  makeDriver: (profile: SimulatorProfile) => Promise<ScenarioDriver>,
  profiles: readonly SimulatorProfile[] = PROFILES,
): void {
  describe.each(profiles)(`approvals on ${name}, %s profile`, (profile) => {
    let d: ScenarioDriver;
    beforeEach(async () => {
      d = await makeDriver(profile);
    });
    afterEach(async () => d.close());
    for (const scenario of [
      ...APPROVAL_SCENARIOS,
      ...POLICY_SCENARIOS,
      ...INBOX_SCENARIOS,
      ...CONTENT_SCENARIOS,
      ...SERIES_SCENARIOS,
      ...ONE_SHOT_SCENARIOS,
      ...MULTI_SCENARIOS,
      ...REMINDER_SCENARIOS,
      ...STAGE_SCENARIOS,
    ]) {
      it(scenario.name, async () => {
        await scenario.run(d);
      });
    }
  });
}
