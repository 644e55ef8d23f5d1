/** Approval scenarios: the workspace policy: inheritance by every conversation (DMs, channels without settings), tightening only, approvers verified fresh. Registered on every driver by `scenarios.ts`. */
import { expect } from 'vitest';
import {
  type ApprovalScenario,
  approvalCards,
  askToPublish,
  button,
  lastApproval,
  setup,
  text,
} from './scenario-kit.js';

export const POLICY_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'policy: a DM and a channel without settings inherit the workspace policy; publish waits for approval',
    async run(d) {
      const fromDm = await d.fixtures.renderedVideo('From a DM');
      const fromOther = await d.fixtures.renderedVideo('From elsewhere');
      // Set once, in #main: it is the workspace's policy.
      await setup(d, { approvers: ['bob'] });
      const dm = await d.run({ user: 'alice', channel: 'dm' }, `publish ${fromDm} youtube`);
      expect(dm.card?.title, text(dm)).toBe('Sent for approval');
      const other = await d.run({ user: 'dave', channel: 'other' }, `publish ${fromOther} youtube`);
      expect(other.card?.title, text(other)).toBe('Sent for approval');
      expect(d.fixtures.publishedPosts()).toEqual([]);
      // The DM shows the policy it inherits.
      const shown = await d.run({ user: 'alice', channel: 'dm' }, 'settings');
      expect(text(shown)).toMatch(/publish — publishing and scheduling need an approver · from the/);
    },
  },
  {
    name: 'policy: a channel cannot loosen the workspace policy, but can tighten it',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Tightened');
      await setup(d, { approvers: ['bob', 'carol'] });
      const off = await d.run('alice', 'settings approval off --here');
      expect(text(off)).toContain('The workspace policy requires approval');
      expect(text(off)).toContain('a channel can only make it stricter');
      const stranger = await d.run('alice', `settings approvers ${d.mention('dave')} --here`);
      expect(text(stranger)).toContain('The workspace policy requires approvers among');
      // A member who is no workspace admin cannot change the workspace's rules at all.
      const dave = await d.run('dave', 'settings approval off');
      expect(text(dave)).toContain('are set for the whole workspace by');

      const fewer = await d.run('alice', `settings approvers ${d.mention('bob')} --here`);
      expect(fewer.card?.title, text(fewer)).toBe('Channel settings updated');
      const card = await askToPublish(d, id);
      const carol = await d.click('carol', button(card, 'approval.approve'));
      expect(text(carol)).toContain(`Only approvers can decide this: ${d.mention('bob')}`);
      const bob = await d.click('bob', button(card, 'approval.approve'));
      expect(bob.card?.title, text(bob)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
    },
  },
  {
    name: 'policy: an approver whose group membership cannot be verified now is refused',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Unverified');
      await setup(d, { approvers: 'reviewers' });
      const card = await askToPublish(d, id);
      await d.groups.breakLookup();
      const refused = await d.click('erin', button(card, 'approval.approve'));
      expect(text(refused)).toContain("can't verify that you are an approver right now");
      expect(d.fixtures.publishedPosts()).toEqual([]);
      expect((await lastApproval(d)).title).toMatch(/^Approval needed/);
    },
  },
  {
    name: 'policy: settings shows the effective policy and where each rule comes from',
    async run(d) {
      await setup(d, { approvers: ['bob', 'carol'] });
      const tighter = await d.run('alice', 'settings spend-threshold 20 --here');
      expect(tighter.card?.title, text(tighter)).toBe('Channel settings updated');
      const shown = await d.run('dave', 'settings');
      expect(shown.card?.title).toBe('Channel settings');
      const t = text(shown);
      expect(t).toContain('publish — publishing and scheduling need an approver · from the workspace policy');
      expect(t).toContain('20 credits · from this channel');
      // The other channel keeps the workspace's threshold.
      const other = text(await d.run({ user: 'dave', channel: 'other' }, 'settings'));
      expect(other).toContain('50 credits · from the workspace policy');
    },
  },
  {
    name: 'policy: policy changes and refusals appear in audit --workspace, for admins only',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Audited policy');
      await setup(d, { approvers: ['bob'] });
      const card = await askToPublish(d, id);
      await d.click('dave', button(card, 'approval.approve'));
      await d.run('alice', 'settings approval off --here');
      await d.run({ user: 'alice', channel: 'other' }, 'settings threading off');

      const denied = await d.run('dave', 'audit --workspace');
      expect(text(denied)).toContain('admins can see the whole workspace');
      const log = await d.run('alice', 'audit --workspace');
      const t = text(log);
      expect(t).toContain('in this workspace');
      expect(t).toMatch(/set `?approval`? to `?publish`? \(was `?off`?\) for the workspace/);
      expect(t).toContain('was refused: not an approver');
      expect(t).toContain('was refused: a channel rule looser than the workspace policy');
      expect(t).toMatch(/set `?threading`? to `?off`?/);
      // The channel's own audit does not show the other channel's change.
      expect(text(await d.run('alice', 'audit'))).not.toMatch(/threading/);
    },
  },
  {
    name: 'policy: a workspace rule changed after a channel tightened it leaves nobody there, never everyone',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Nobody in common');
      await setup(d, { approvers: ['carol'] });
      const tightened = await d.run('alice', `settings role publish ${d.mention('dave')} --here`);
      expect(tightened.card?.title, text(tightened)).toBe('Channel settings updated');
      // Later, from another channel, the workspace names other publishers: #main's list meets it in nobody.
      const changed = await d.run(
        { user: 'alice', channel: 'other' },
        `settings role publish ${d.mention('bob')}`,
      );
      expect(changed.card?.title, text(changed)).toBe('Workspace settings updated');
      const warned = text(changed).match(
        /Nobody may \W*publish\W* in [^:]+: its own list and the workspace's/g,
      );
      expect(warned, text(changed)).toHaveLength(1);
      // The fix, as the platform types it (`… role publish everyone --here`, `… value:publish everyone here:True`).
      expect(text(changed)).toMatch(/settings.+role.+publish everyone.+here/);

      // Nobody publishes in #main: not the channel's publisher, not the workspace's.
      for (const who of ['dave', 'bob'] as const) {
        const refused = await d.run(who, `publish ${id} youtube`);
        expect(text(refused)).toContain('Nobody may publish, schedule, unschedule or delete videos');
      }
      expect(await approvalCards(d)).toEqual([]);
      expect(d.fixtures.publishedPosts()).toEqual([]);
      const shown = text(await d.run('dave', 'settings'));
      expect(shown).toMatch(/publish: nobody · from this channel/);
      expect(shown).toMatch(/Nobody may \W*publish\W* in this channel/);
      // The other channel follows the workspace: bob asks there.
      const elsewhere = await d.fixtures.renderedVideo('Published elsewhere');
      const other = await d.run({ user: 'bob', channel: 'other' }, `publish ${elsewhere} youtube`);
      expect(other.card?.title, text(other)).toBe('Sent for approval');
      expect(text(await d.run('alice', 'audit'))).toMatch(
        /leaves nobody for `?role publish`? in this channel/,
      );

      // The fix the answer gave: follow the workspace's list again.
      const fixed = await d.run('alice', 'settings role publish everyone --here');
      expect(fixed.card?.title, text(fixed)).toBe('Channel settings updated');
      expect(text(fixed)).not.toMatch(/Nobody may/);
      expect((await d.run('bob', `publish ${id} youtube`)).card?.title).toBe('Sent for approval');
    },
  },
  {
    name: "policy: a channel's own approvers and approvers the workspace names later, with nobody in common: nobody approves",
    async run(d) {
      const id = await d.fixtures.renderedVideo('No approver left');
      await d.run('alice', `settings role admin ${d.mention('alice')}`);
      // The workspace has no approval and names no approvers: #main names its own.
      await setup(d, { approvers: ['carol'], here: true });
      const changed = await d.run(
        { user: 'alice', channel: 'other' },
        `settings approvers ${d.mention('bob')}`,
      );
      expect(changed.card?.title, text(changed)).toBe('Workspace settings updated');
      expect(text(changed)).toMatch(
        /Nobody can approve requests in [^:]+: its own approvers and the workspace's/,
      );
      expect(text(await d.run('dave', 'settings'))).toMatch(/Nobody can approve requests in this channel/);
      const asked = await d.run('alice', `publish ${id} youtube`);
      expect(asked.card?.title, text(asked)).not.toBe('Sent for approval');
      expect(text(asked)).toContain('nobody is one yet');
      expect(text(asked)).toContain('Nothing was sent');
      expect(await approvalCards(d)).toEqual([]);
      expect(d.fixtures.publishedPosts()).toEqual([]);
    },
  },
];
