/** Approval scenarios: the approvals inbox, withdrawing a request, expiry of publish-now and spend requests, spends confirmed first. Registered on every driver by `scenarios.ts`. */
import { expect } from 'vitest';
import type { ButtonRef, ShownCard } from './driver.js';
import {
  type ApprovalScenario,
  askToPublish,
  button,
  lastApproval,
  MINUTE,
  SCRIPT,
  setup,
  text,
} from './scenario-kit.js';

const HOUR = 60 * MINUTE;

/** Button labels; Discord numbers the buttons of several sections like the sections ("2 · Approve"). */
const labels = (card: ShownCard | undefined): string[] =>
  (card?.buttons ?? []).map((b) => b.label.replace(/^\d+ · /, ''));

/** The inbox button of `action` on the entry whose text names `summary`. */
function entryButton(inbox: ShownCard | undefined, action: string, approvalId: string): ButtonRef {
  const found = inbox?.buttons.find((b) => b.action === action && b.value.startsWith(approvalId));
  if (!found) throw new Error(`no ${action} for ${approvalId} in ${JSON.stringify(inbox)}`);
  return found;
}

/** The approval id a request card names in its footer. */
const approvalIdOf = (card: ShownCard): string => {
  const id = /ap_[A-Za-z0-9_-]{16}/.exec(card.text)?.[0];
  if (!id) throw new Error(`no approval id on ${JSON.stringify(card)}`);
  return id;
};

export const INBOX_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'withdraw from the request card: only the requester; the card says Withdrawn; nothing is sent',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Second thoughts');
      await setup(d);
      const card = await askToPublish(d, id);
      const withdraw = button(card, 'approval.withdraw');

      const refused = await d.click('bob', withdraw);
      expect(refused.visibility).toBe('ephemeral');
      expect(text(refused)).toContain('who asked for it, can withdraw');
      expect((await lastApproval(d)).title).toMatch(/^Approval needed/);

      const done = await d.click('alice', withdraw);
      expect(done.card?.title, text(done)).toBe('Withdrawn');
      const after = await lastApproval(d);
      expect(after.title).toMatch(/^Withdrawn: Publish “Second thoughts”/);
      expect(after.buttons).toEqual([]);

      const stale = await d.click('bob', button(card, 'approval.approve'));
      expect(text(stale)).toContain('Already withdrawn');
      expect(text(await d.click('alice', withdraw))).toContain('Already withdrawn');
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
  {
    name: 'the inbox lists what bob may decide and alice’s own; deciding and withdrawing from it work',
    async run(d) {
      const mine = await d.fixtures.renderedVideo('Alice cut');
      const theirs = await d.fixtures.renderedVideo('Dave cut');
      await setup(d);
      await setup(d, { channel: 'other' });
      const aliceId = approvalIdOf(await askToPublish(d, mine));
      const sent = await d.run({ user: 'dave', channel: 'other' }, `publish ${theirs} youtube`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const daveId = approvalIdOf(await lastApproval(d, 'other'));

      const bobs = (await d.run('bob', 'approvals')).card;
      expect(bobs?.title).toBe('Approvals: 2 pending');
      expect(bobs?.text).toContain('Publish “Alice cut” to YouTube');
      expect(bobs?.text).toContain('Publish “Dave cut” to YouTube');
      expect(labels(bobs)).toEqual(['Approve', 'Reject', 'Approve', 'Reject']);

      const alices = (await d.run('alice', 'approvals')).card;
      expect(alices?.title).toBe('Approvals: 1 pending');
      expect(alices?.text).not.toContain('Dave cut');
      expect(labels(alices)).toEqual(['Withdraw']);

      // Decided from main, though the request is in `other`: its card there is edited.
      const approved = await d.click('bob', entryButton(bobs, 'approval.approve', daveId));
      expect(approved.card?.title, text(approved)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: theirs, platform: 'youtube' }]);
      expect((await lastApproval(d, 'other')).title).toMatch(/^Approved: Publish “Dave cut”/);

      const withdrawn = await d.click('alice', entryButton(alices, 'approval.withdraw', aliceId));
      expect(withdrawn.card?.title, text(withdrawn)).toBe('Withdrawn');
      expect((await lastApproval(d)).title).toMatch(/^Withdrawn: Publish “Alice cut”/);

      const empty = (await d.run('bob', 'approvals')).card;
      expect(empty?.title).toBe('Approvals');
      expect(empty?.text).toContain('Nothing is waiting for you');
      expect(empty?.buttons).toEqual([]);
      // Mallory (another team, same channels) is not an approver: her inbox stays empty.
      expect((await d.run('mallory', 'approvals')).card?.text).toContain('Nothing is waiting');
    },
  },
  {
    name: 'a publish-now request expires after the request lifetime: card edited, requester told once',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Forgotten');
      await setup(d);
      const card = await askToPublish(d, id);
      expect(card.text).toContain('It expires on');

      await d.advance(23 * HOUR);
      expect((await lastApproval(d)).title).toMatch(/^Approval needed/);
      expect(await d.notices('alice')).toEqual([]);

      await d.advance(2 * HOUR);
      const expired = await lastApproval(d);
      expect(expired.title).toMatch(/^Expired: Publish “Forgotten”/);
      expect(expired.buttons).toEqual([]);
      await d.advance(HOUR);
      const notices = await d.notices('alice');
      expect(notices.map((n) => n.title)).toEqual(['Approval expired']);

      const stale = await d.click('bob', button(card, 'approval.approve'));
      expect(text(stale)).toContain('Already expired');
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
  {
    name: 'a spend request expires after the request lifetime: nothing is charged, requester told once',
    async run(d) {
      await setup(d, { policy: 'spend', threshold: 30, approvers: ['bob'] });
      const ask = await d.run('alice', `create --model motion_lite ${SCRIPT}`);
      const sent = await d.click('alice', button(ask.card, 'video.create.confirm'));
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const card = await lastApproval(d);

      await d.advance(25 * HOUR);
      expect((await lastApproval(d)).title).toMatch(/^Expired: Create “/);
      await d.advance(HOUR);
      expect((await d.notices('alice')).map((n) => n.title)).toEqual(['Approval expired']);
      const stale = await d.click('bob', button(card, 'approval.approve'));
      expect(text(stale)).toContain('Already expired');
      expect(d.fixtures.spends()).toEqual([]);
    },
  },
];
