/**
 * Roles and approvals reach every series command that spends or publishes: `series resume` and edits of
 * the model or length take the spend role, edits of where episodes post and `series delete` the publish
 * role; under `approval spend` a resume or a costlier model waits for an approver, who runs it with their key.
 * `settings` changes are audited, and approvals cannot be switched on before an admin role is set.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { approvalIdOf, textOf } from '../../support/harness.js';
import {
  button,
  card,
  confirmButton,
  confirmed,
  idFrom,
  mutations,
  type SeriesHarness,
  seriesHarness,
} from './helpers.js';

let h: SeriesHarness;
let alice: RequestInfo;
let bob: RequestInfo;
let carol: RequestInfo;
beforeEach(async () => {
  h = await seriesHarness();
  alice = await h.user('alice');
  bob = await h.user('bob');
  carol = await h.user('carol');
});
afterEach(() => h.close());

async function settings(...lines: string[]): Promise<void> {
  for (const line of lines) {
    const r = await h.run(`settings ${line}`, alice);
    // Governance keys are the workspace's since the workspace policy; `--here` ones the channel's.
    expect(card(r).title, textOf(r)).toMatch(/^(Channel|Workspace) settings updated$/);
  }
}
const create = async (rest: string) =>
  idFrom(await confirmed(h, h.run(`series create ${rest}`, alice), alice));
const audited = () => h.store.audit.list({ workspacePrefix: 'playground:W1' });

describe('the spend role', () => {
  let id: string;
  beforeEach(async () => {
    id = await create('Night --source ai_story --model motion_lite');
    await h.api.series.update(id, { paused: true });
    await settings('role admin @alice', 'role spend @bob', 'approvers @carol', 'approval spend');
    h.calls.length = 0;
  });

  it('refuses resume and cost edits to others before any API call', async () => {
    for (const text of [
      `series resume ${id}`,
      `series edit ${id} --model motion_pro`,
      `series edit ${id} --duration 90`,
      `series edit ${id} --paused no`,
    ]) {
      const r = await h.run(text, alice);
      expect(textOf(r), text).toMatch(/Only \S*bob\S* may spend credits/);
    }
    const clicked = await h.click('series.resume', id, alice);
    expect(textOf(clicked)).toMatch(/Only \S*bob\S* may spend credits/);
    expect(h.calls).toEqual([]);
    expect((await h.api.series.get(id)).paused).toBe(true);
  });

  it('leaves pausing and free edits to everyone', async () => {
    await h.api.series.update(id, { paused: false });
    expect(card(await h.run(`series edit ${id} --tone eerie`, alice)).title).toBe('Updated “Night”');
    expect(card(await h.run(`series pause ${id}`, alice)).title).toBe('⏸️ Paused “Night”');
    expect(await h.api.series.get(id)).toMatchObject({ tone: 'eerie', paused: true });
  });
});

describe('the publish role', () => {
  let id: string;
  beforeEach(async () => {
    id = await create('Night --source ai_story');
    await settings('role admin @alice', 'role publish @bob');
    h.calls.length = 0;
  });

  it('refuses edits of where episodes post, and delete, before any API call', async () => {
    for (const text of [
      `series edit ${id} --destination tiktok`,
      `series edit ${id} --accounts "@demo.reels"`,
      `series edit ${id} --privacy private`,
      `series edit ${id} --hashtags "#x"`,
      `series delete ${id}`,
    ]) {
      const r = await h.run(text, alice);
      expect(textOf(r), text).toMatch(/Only \S*bob\S* may publish/);
    }
    const click = await h.click('series.delete.confirm', id, alice);
    expect(textOf(click)).toMatch(/Only \S*bob\S* may publish/);
    expect(h.calls).toEqual([]);
  });

  it('lets the role holder delete, and audits it', async () => {
    const ask = await h.run(`series delete ${id}`, bob);
    await h.click('series.delete.confirm', button(ask, 'series.delete.confirm').value, bob);
    expect(mutations(h)).toEqual(['series.delete']);
    expect((await audited()).find((e) => e.action === 'series.delete')).toMatchObject({
      actor: bob.user,
      seriesId: id,
      details: { name: 'Night' },
    });
  });
});

describe('under `approval spend`', () => {
  beforeEach(async () => {
    await settings('role admin @alice', 'approvers @carol', 'spend-threshold 50');
  });

  it('a resume whose episodes cost over the threshold waits; the approver resumes it with their key', async () => {
    const id = await create('Pro --source ai_story --model motion_pro');
    await h.api.series.update(id, { paused: true });
    await settings('approval spend');
    h.calls.length = 0;
    const ask = await h.run(`series resume ${id}`, bob);
    expect(confirmButton(ask).label).toBe('Request approval');
    const sent = await h.click(confirmButton(ask).action, confirmButton(ask).value, bob);
    expect(card(sent).title).toBe('Sent for approval');
    expect(textOf(sent)).toContain('Resume the series “Pro” (100 credits per episode)');
    expect(mutations(h)).toEqual([]);
    expect((await h.api.series.get(id)).paused).toBe(true);
    // The same card again (a stale copy) says who sent it for approval, and when.
    const late = await h.click(confirmButton(ask).action, confirmButton(ask).value, bob);
    expect(card(late).title).toBe('Already done');
    expect(textOf(late)).toContain(': Sent for approval.');

    const approved = await h.click('approval.approve', approvalIdOf(sent), carol);
    expect(card(approved).title).toBe('Approved · ▶️ Resumed “Pro”');
    expect((await h.api.series.get(id)).paused).toBe(false);
    expect((await audited()).find((e) => e.action === 'series.resume')).toMatchObject({
      actor: carol.user,
      details: { approval: approvalIdOf(sent) },
    });
  });

  it('a model change waits, over the threshold or not: the model is part of what a series posts', async () => {
    const id = await create('Cheap --source ai_story');
    await settings('approval spend');
    h.calls.length = 0;
    const sent = await confirmed(h, h.run(`series edit ${id} --model motion_pro --tone eerie`, bob), bob);
    expect(card(sent).title).toBe('Sent for approval');
    expect(textOf(sent)).toContain(
      'Change the series “Cheap”: model storyboard → motion_pro (100 credits per episode)',
    );
    expect(mutations(h)).toEqual([]);

    const approved = await h.click('approval.approve', approvalIdOf(sent), carol);
    expect(card(approved).title).toBe('Approved · Updated “Cheap”');
    expect(await h.api.series.get(id)).toMatchObject({ brollModel: 'motion_pro', tone: 'eerie' });

    // Down to a model under the threshold: no spend to approve, but a change of what the series posts
    // (DESIGN §5), so it waits all the same.
    const cheaper = await h.run(`series edit ${id} --model storyboard`, bob);
    expect(confirmButton(cheaper).label).toBe('Request approval');
    const asked = await confirmed(h, cheaper, bob);
    expect(card(asked).title).toBe('Sent for approval');
    expect(textOf(asked)).toContain('Change the series “Cheap”: model motion_pro → storyboard');
    expect((await h.api.series.get(id)).brollModel).toBe('motion_pro');
    expect(card(await h.click('approval.approve', approvalIdOf(asked), carol)).title).toBe(
      'Approved · Updated “Cheap”',
    );
    expect((await h.api.series.get(id)).brollModel).toBe('storyboard');
  });

  it('a resume of a series within the threshold goes ahead at once', async () => {
    const id = await create('Small --source ai_story');
    await h.api.series.update(id, { paused: true });
    await settings('approval spend');
    expect(card(await confirmed(h, h.run(`series resume ${id}`, bob), bob)).title).toBe('▶️ Resumed “Small”');
  });
});

describe('settings', () => {
  it('only workspace admins change the team policy; approvals on need no admin role first', async () => {
    const bob = await h.user('bob', { admin: false });
    const refused = await h.run('settings approval spend', bob);
    expect(textOf(refused)).toContain('are set for the whole workspace by');
    expect(card(await h.run('settings approval spend', alice)).title).toBe('Workspace settings updated');
    expect(card(await h.run('settings approval off', alice)).title).toBe('Workspace settings updated');
  });

  it('audits every change with who, what, from and to', async () => {
    await settings('role admin @alice', 'approval publish', 'approvers @bob @carol', 'threading off');
    const rows = (await audited())
      .filter((e) => e.action === 'settings.change')
      .map((e) => ({ actor: e.actor, ...e.details }));
    expect(rows.reverse()).toEqual([
      { actor: alice.user, setting: 'role admin', from: 'everyone', to: alice.user, scope: 'workspace' },
      { actor: alice.user, setting: 'approval', from: 'off', to: 'publish', scope: 'workspace' },
      {
        actor: alice.user,
        setting: 'approvers',
        from: 'none',
        to: `${bob.user} ${carol.user}`,
        scope: 'workspace',
      },
      { actor: alice.user, setting: 'threading', from: 'on', to: 'off', scope: 'channel' },
    ]);
    const shown = textOf(await h.run('audit', alice));
    expect(shown).toContain('set `approval` to `publish` (was `off`)');
  });
});
