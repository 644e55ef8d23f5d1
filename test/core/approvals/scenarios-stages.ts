/**
 * Approval stages (DESIGN §5): a two-stage policy, brand (Any: bob) then legal (All: carol and dave). The card
 * shows the path and moves on in place; nothing reaches the video service before the last stage is approved;
 * a reject at any stage stops it; the inbox shows where each request waits.
 */
import { expect } from 'vitest';
import type { Reply, ScenarioDriver, ShownCard } from './driver.js';
import {
  type ApprovalScenario,
  approvalCards,
  askToPublish,
  button,
  lastApproval,
  setup,
  text,
} from './scenario-kit.js';

/** Card text without emphasis marks, as each surface writes them differently. */
const plain = (s: string): string => s.replace(/[*_]/g, '');

/** brand (bob, Any) then legal (carol and dave, All), set by alice through `settings`. */
export async function setupStages(d: ScenarioDriver): Promise<void> {
  await setup(d, { approvers: ['bob'] });
  for (const line of [
    'settings approval stages brand,legal',
    `settings approvers ${d.mention('carol')} ${d.mention('dave')} --stage legal`,
    'settings approval all --stage legal',
  ]) {
    const r = await d.run('alice', line);
    expect(r.card?.title, `${line}: ${r.card?.text}`).toBe('Workspace settings updated');
  }
}

/** alice asks to publish `name`; bob approves the brand stage. The card, now waiting at legal. */
async function pastBrand(d: ScenarioDriver, name: string): Promise<{ id: string; card: ShownCard }> {
  const id = await d.fixtures.renderedVideo(name);
  await setupStages(d);
  const card = await askToPublish(d, id);
  const brand = await d.click('bob', button(card, 'approval.approve'));
  expect(brand.card?.title, text(brand)).toBe('Approved at brand');
  return { id, card: await lastApproval(d) };
}

export const STAGE_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'stages: brand (Any) then legal (All of two); the post goes out only after all three approvals',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Staged launch');
      await setupStages(d);
      const card = await askToPublish(d, id);
      expect(card.title).toMatch(/^Approval needed: Publish “Staged launch”/);
      expect(plain(card.text)).toContain('⏳ brand · ◻️ legal');
      expect(plain(card.text)).toContain('It waits at brand');
      expect(card.buttons.map((b) => b.label)).toEqual(['Approve', 'Request changes', 'Reject', 'Withdraw']);

      // legal's approvers wait for brand.
      expect(text(await d.click('carol', button(card, 'approval.approve')))).toContain(
        'Only approvers can decide this',
      );
      const brand = await d.click('bob', button(card, 'approval.approve'));
      expect(brand.card?.title, text(brand)).toBe('Approved at brand');
      expect(d.fixtures.publishedPosts()).toEqual([]);

      const atLegal = await lastApproval(d);
      expect(atLegal.title).toMatch(/^Approval needed: /);
      expect(plain(atLegal.text)).toContain('brand by Bob');
      expect(plain(atLegal.text)).toContain('legal (0 of 2)');
      await d.advance(1000);
      const reached = (await d.replies(atLegal)).find((r) => r.title === 'Approval needed at legal');
      expect(reached?.text).toContain(d.mention('carol'));
      expect(reached?.text).toContain(d.mention('dave'));
      expect(text(await d.click('bob', button(atLegal, 'approval.approve')))).toContain(
        'Only approvers can decide this',
      );

      const first = await d.click('carol', button(atLegal, 'approval.approve'));
      expect(first.card?.title, text(first)).toBe('Approved at legal');
      expect(text(first)).toContain('1 of 2');
      expect(text(await d.click('carol', button(atLegal, 'approval.approve')))).toContain(
        'You already approved this stage',
      );
      expect(plain((await lastApproval(d)).text)).toContain('legal (1 of 2)');
      expect(d.fixtures.publishedPosts()).toEqual([]);

      const last = await d.click('dave', button(await lastApproval(d), 'approval.approve'));
      expect(last.card?.title, text(last)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
      const done = await lastApproval(d);
      expect(done.title).toMatch(/^Approved: Publish “Staged launch”/);
      expect(plain(done.text)).toContain('legal by Carol, Dave');
      expect(done.buttons).toEqual([]);
      expect((await d.notices('alice')).map((n) => n.title)).toEqual(['Approved']);
    },
  },
  {
    name: 'stages: a reject at legal stops the request with its reason; nothing is sent',
    async run(d) {
      const { card } = await pastBrand(d, 'Stopped at legal');
      const form = await d.click('dave', button(card, 'approval.reject'));
      expect(form.kind, text(form)).toBe('form');
      const done = await d.submit('dave', form.form as NonNullable<Reply['form']>, {
        reason: 'The claim needs a source',
      });
      expect(done.card?.title, text(done)).toBe('Rejected');
      const after = await lastApproval(d);
      expect(after.title).toMatch(/^Rejected: Publish “Stopped at legal”/);
      expect(plain(after.text)).toContain('at legal');
      expect(after.text).toContain('The claim needs a source');
      expect(after.buttons).toEqual([]);
      expect(text(await d.click('carol', button(card, 'approval.approve')))).toContain('Already rejected');
      expect(d.fixtures.publishedPosts()).toEqual([]);
      expect((await d.notices('alice')).map((n) => n.title)).toEqual(['Request rejected']);
    },
  },
  {
    name: 'stages: Request changes sends it back with the comment in its thread; a new version re-enters at brand',
    async run(d) {
      const { id, card } = await pastBrand(d, 'Needs a date');
      const form = await d.click('carol', button(card, 'approval.changes'));
      expect(form.kind, text(form)).toBe('form');
      expect(form.form?.inputs).toEqual(['comment']);
      const empty = await d.submit('carol', form.form as NonNullable<Reply['form']>, { comment: ' ' });
      expect(empty.kind).toBe('form-errors');
      const sent = await d.submit('carol', form.form as NonNullable<Reply['form']>, {
        comment: 'Add the launch date to the title',
      });
      expect(sent.card?.title, text(sent)).toBe('Changes requested');

      const back = await lastApproval(d);
      expect(back.title).toMatch(/^Changes requested: Publish “Needs a date”/);
      expect(plain(back.text)).toContain('at legal');
      expect(back.buttons.map((b) => b.label)).toEqual(['Send new version']);
      expect(text(await d.click('dave', button(card, 'approval.approve')))).toContain('asked for changes');
      await d.advance(1000);
      const thread = await d.replies(back);
      const comment = thread.find((r) => r.title === 'Changes requested');
      expect(comment?.text).toContain('Add the launch date to the title');
      expect(comment?.text).toContain(d.mention('alice'));
      const [notice] = await d.notices('alice');
      expect(notice?.title).toBe('Changes requested');
      expect(notice?.text).toContain('Add the launch date to the title');
      expect(text(await d.click('bob', button(back, 'approval.resubmit')))).toContain(
        'can send a new version',
      );

      const again = await d.click('alice', button(notice, 'approval.resubmit'));
      expect(again.card?.title, text(again)).toBe('Sent for approval again');
      expect(text(await d.click('alice', button(notice, 'approval.resubmit')))).toContain('Still waiting');
      const reopened = await lastApproval(d);
      expect(reopened.message).toBe(back.message);
      expect(reopened.title).toMatch(/^Approval needed: /);
      expect(plain(reopened.text)).toContain('⏳ brand · ◻️ legal');
      await d.advance(1000);
      const newVersion = (await d.replies(reopened)).find((r) => r.title === 'New version');
      expect(newVersion?.text).toContain(d.mention('bob'));
      expect(d.fixtures.publishedPosts()).toEqual([]);

      // The same three approvals again, from the first stage.
      expect(text(await d.click('carol', button(reopened, 'approval.approve')))).toContain('Only approvers');
      for (const who of ['bob', 'carol'] as const)
        await d.click(who, button(await lastApproval(d), 'approval.approve'));
      expect(d.fixtures.publishedPosts()).toEqual([]);
      const done = await d.click('dave', button(await lastApproval(d), 'approval.approve'));
      expect(done.card?.title, text(done)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
    },
  },
  {
    name: 'stages: after Request changes, the same command typed again is the new version, in the same card',
    async run(d) {
      const { id, card } = await pastBrand(d, 'Typed again');
      const form = await d.click('dave', button(card, 'approval.changes'));
      await d.submit('dave', form.form as NonNullable<Reply['form']>, { comment: 'Shorter title' });
      expect((await lastApproval(d)).title).toMatch(/^Changes requested: /);

      const again = await d.run('alice', `publish ${id} youtube`);
      expect(again.card?.title, text(again)).toBe('Sent for approval again');
      const cards = await approvalCards(d);
      expect(cards).toHaveLength(1);
      expect(cards[0]?.title).toMatch(/^Approval needed: Publish “Typed again”/);
      expect(plain(cards[0]?.text ?? '')).toContain('⏳ brand · ◻️ legal');
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
  {
    name: 'stages: a series request passes brand and legal too; the series is created only after the last',
    async run(d) {
      await setupStages(d);
      const ask = await d.run(
        'alice',
        'series create "Staged Tips" --source ai_story --destination youtube --schedule "daily 09:00 Europe/Paris"',
      );
      const sent = await d.click('alice', button(ask.card, 'series.create.confirm'));
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const card = await lastApproval(d);
      expect(card.title).toMatch(/^Approval needed: Start the series “Staged Tips”/);
      await d.click('bob', button(card, 'approval.approve'));
      await d.click('carol', button(await lastApproval(d), 'approval.approve'));
      expect(d.fixtures.seriesWrites()).toEqual([]);
      const done = await d.click('dave', button(await lastApproval(d), 'approval.approve'));
      expect(done.card?.title, text(done)).toBe('Approved · Series created: Staged Tips');
      expect(d.fixtures.seriesWrites().map((w) => w.method)).toEqual(['POST']);
    },
  },
  {
    name: 'stages: a reminder mentions only the approvers of the current stage who have not approved',
    async run(d) {
      const { card } = await pastBrand(d, 'Reminded at legal');
      await d.click('carol', button(card, 'approval.approve'));
      await d.advance(12 * 60 * 60_000 + 60_000); // past half of the 24-hour lifetime
      const reminders = (await d.replies(card)).filter((r) => r.title === 'Reminder: approval needed');
      expect(reminders).toHaveLength(1);
      expect(reminders[0]?.text).toContain(d.mention('dave'));
      expect(reminders[0]?.text).not.toContain(d.mention('carol'));
      expect(reminders[0]?.text).not.toContain(d.mention('bob'));
    },
  },
  {
    name: 'stages: an All stage that lists the requester does not wait for them (no self-approval)',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Own legal');
      await setupStages(d);
      const legal = `settings approvers ${d.mention('carol')} ${d.mention('alice')} --stage legal`;
      expect((await d.run('alice', legal)).card?.title).toBe('Workspace settings updated');
      const card = await askToPublish(d, id);
      await d.click('bob', button(card, 'approval.approve'));
      const atLegal = await lastApproval(d);
      expect(plain(atLegal.text)).toContain('⏳ legal');
      expect(text(await d.click('alice', button(atLegal, 'approval.approve')))).toContain(
        'You asked for this',
      );
      const done = await d.click('carol', button(atLegal, 'approval.approve'));
      expect(done.card?.title, text(done)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
    },
  },
  {
    name: 'stages: the approvals inbox shows where a request waits, to the approvers of that stage',
    async run(d) {
      await pastBrand(d, 'Inbox stages');
      const carols = (await d.run('carol', 'approvals')).card;
      expect(carols?.title).toBe('Approvals: 1 pending');
      expect(plain(carols?.text ?? '')).toContain('brand by Bob');
      expect(plain(carols?.text ?? '')).toContain('legal (0 of 2)');
      expect(carols?.buttons.map((b) => b.label)).toEqual(['Approve', 'Reject']);
      // bob decided brand: legal is not his to decide.
      expect((await d.run('bob', 'approvals')).card?.text).toContain('Nothing is waiting for you');
    },
  },
];
