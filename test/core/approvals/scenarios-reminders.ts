/**
 * Reminders (DESIGN §5): the approvers of a pending request are mentioned in its card's thread once at half its
 * lifetime and once an hour before it expires, never again, and the requester is told when it expires.
 */
import { expect } from 'vitest';
import {
  type ApprovalScenario,
  approvalCards,
  askToPublish,
  button,
  lastApproval,
  MINUTE,
  setup,
  text,
} from './scenario-kit.js';

export const REMINDER_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'a pending request reminds its approvers at half its lifetime and an hour before expiry, each once',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Reminded');
      await setup(d);
      const sent = await d.run('alice', `schedule ${id} youtube in 3 hours`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const card = await lastApproval(d);
      const reminders = async () =>
        (await d.replies(card)).filter((r) => r.title === 'Reminder: approval needed');

      await d.advance(80 * MINUTE);
      expect(await reminders()).toEqual([]);
      await d.advance(15 * MINUTE); // past 1 h 30: half of the 3 hours
      const first = await reminders();
      expect(first).toHaveLength(1);
      expect(first[0]?.text).toContain(d.mention('bob'));
      expect(first[0]?.text).toContain(d.mention('carol'));
      expect(first[0]?.text).toContain('Reminded');

      await d.advance(20 * MINUTE);
      expect(await reminders()).toHaveLength(1);
      await d.advance(10 * MINUTE); // past 2 h: one hour left
      const both = await reminders();
      expect(both).toHaveLength(2);
      expect(both[1]?.text).toContain(d.mention('bob'));

      await d.advance(70 * MINUTE); // past the expiry, and further
      await d.advance(60 * MINUTE);
      expect((await lastApproval(d)).title).toMatch(/^Expired: /);
      expect(await reminders()).toHaveLength(2);
      const notices = await d.notices('alice');
      expect(notices.map((n) => n.title)).toEqual(['Approval expired']);
      expect(notices[0]?.buttons.map((b) => b.label)).toEqual(['Reschedule']);
    },
  },
  {
    name: 'an expired publish request: the requester’s notice has Ask again, which asks once more, once',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Asked twice');
      await setup(d);
      await askToPublish(d, id);
      await d.advance(24 * 60 * MINUTE + MINUTE);
      expect((await lastApproval(d)).title).toMatch(/^Expired: Publish “Asked twice”/);
      const [notice] = await d.notices('alice');
      expect(notice?.title).toBe('Approval expired');
      expect(notice?.text).toContain('Ask again');
      expect(notice?.buttons.map((b) => b.label)).toEqual(['Ask again']);

      const again = await d.click('alice', button(notice, 'approval.ask-again'));
      expect(again.card?.title, text(again)).toBe('Sent for approval');
      const twice = await d.click('alice', button(notice, 'approval.ask-again'));
      expect(text(twice)).toContain('Already waiting for approval');
      const cards = await approvalCards(d);
      expect(cards.map((c) => c.title.split(':')[0])).toEqual(['Expired', 'Approval needed']);
      expect(d.fixtures.publishedPosts()).toEqual([]);

      const ok = await d.click('bob', button(cards[1], 'approval.approve'));
      expect(ok.card?.title, text(ok)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
    },
  },
];
