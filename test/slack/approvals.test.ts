/**
 * The approval scenarios through Slack: the real Bolt app over signed HTTP (slash commands, block_actions,
 * view_submission), cards read back from the Block Kit the fake Web API recorded, group approvers from the
 * workspace's user groups. Then what only Slack has: user group membership read with `usergroups.list`,
 * cached for minutes, changing under a pending approval, and a workspace without user groups.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ButtonRef, Reply } from '../core/approvals/driver.js';
import { defineApprovalSuite } from '../core/approvals/scenarios.js';
import { createSlackDriver, type SlackScenarioDriver } from './approvals-driver.js';

defineApprovalSuite('Slack (real Bolt, signed HTTP)', (profile) => createSlackDriver({ profile }));

const MINUTE = 60_000;
const text = (r: Reply): string => `${r.card?.title ?? ''}\n${r.card?.text ?? ''}`;

describe('approvers named by a Slack user group', () => {
  let d: SlackScenarioDriver;
  beforeEach(async () => {
    d = await createSlackDriver();
  });
  afterEach(() => d.close());

  /** @reviewers approve publishing in #video-team; alice asks to publish; the card's `action` button. */
  async function pending(extraApprover = '', action = 'approval.approve'): Promise<ButtonRef> {
    const id = await d.fixtures.renderedVideo('Grouped');
    for (const line of [
      `settings role admin ${d.mention('alice')}`,
      'settings approval publish',
      `settings approvers ${d.groups?.mention('reviewers')} ${extraApprover}`.trim(),
    ]) {
      const r = await d.run('alice', line);
      expect(r.card?.title, text(r)).toBe('Workspace settings updated');
    }
    const sent = await d.run('alice', `publish ${id} youtube`);
    expect(sent.card?.title, text(sent)).toBe('Sent for approval');
    expect(sent.card?.text).toContain('<!subteam^S0REVIEWERS>');
    const card = (await d.cards()).at(-1);
    const button = card?.buttons.find((b) => b.action === action);
    if (!button) throw new Error(`no ${action} on ${JSON.stringify(card)}`);
    return button;
  }

  it('reads the groups once per 5 minutes, and a membership change counts once that has passed', async () => {
    const approve = await pending();
    // Three commands so far: one usergroups.list for the workspace.
    expect(d.fake.callsOf('usergroups.list')).toHaveLength(1);
    expect(d.fake.callsOf('usergroups.list')[0]?.args).toMatchObject({ include_users: true });

    // erin leaves @reviewers and dave joins; the next lookup after the cache's 5 minutes sees it.
    const reviewers = d.fake.usergroups[0];
    reviewers?.users.splice(0, reviewers.users.length, d.ids.dave);
    await d.advance(5 * MINUTE);
    const refused = await d.click('erin', approve);
    expect(text(refused)).toContain('Only approvers can decide this: <!subteam^S0REVIEWERS>');
    expect(d.fake.callsOf('usergroups.list')).toHaveLength(2);

    const ok = await d.click('dave', approve);
    expect(ok.card?.title, text(ok)).toBe('Approved · Published to YouTube');
    expect(d.fixtures.publishedPosts()).toHaveLength(1);
    expect(d.fake.callsOf('usergroups.list')).toHaveLength(2);
  });

  it('a workspace without user groups (free plan) still works: listed approvers decide, group members are refused', async () => {
    d.fake.fail('usergroups.list', { error: 'plan_upgrade_required' }, 100);
    const approve = await pending(d.mention('bob'));
    const refused = await d.click('erin', approve);
    expect(text(refused)).toContain('Only approvers can decide this');
    const ok = await d.click('bob', approve);
    expect(ok.card?.title, text(ok)).toBe('Approved · Published to YouTube');
  });

  it('Reject when Slack refuses the trigger: “Open form” brings the reason modal and the rejection lands', async () => {
    const reject = await pending(d.mention('bob'), 'approval.reject');
    d.fake.fail('views.open', { error: 'expired_trigger_id' });
    // The driver presses the ephemeral "Open form" button the adapter offers, as a person would.
    const form = await d.click('bob', reject);
    expect(form.kind).toBe('form');
    expect(form.form?.inputs).toEqual(['reason']);
    expect(d.fake.callsOf('views.open')).toHaveLength(2);
    const done = await d.submit('bob', form.form as NonNullable<Reply['form']>, { reason: 'Wrong cut' });
    expect(done.card?.title, text(done)).toBe('Rejected');
    const card = (await d.cards()).at(-1);
    expect(card?.title).toMatch(/^Rejected: Publish “Grouped”/);
    expect(card?.text).toContain('Wrong cut');
    expect(d.fixtures.publishedPosts()).toEqual([]);
  });
});
