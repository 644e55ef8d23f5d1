/**
 * `settings monthly-cap N` (DESIGN §5, budgets), on both simulator profiles: a spend that would take this
 * calendar month's spending (from the credits ledger, GET /credits) past N waits for a spend approval whatever
 * the approval rule and the per-action threshold, and its confirmation says why; a spend within it does not.
 * The setting is audited like every team rule.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { approvalIdOf, DEMO_KEY, textOf } from '../../support/harness.js';
import { button, card, confirmButton, idFrom, type SeriesHarness, seriesHarness } from '../series/helpers.js';

describe.each(['spec', 'real'] as const)('monthly cap on the %s profile', (profile) => {
  let h: SeriesHarness;
  let alice: RequestInfo;
  let carol: RequestInfo;
  beforeEach(async () => {
    h = await seriesHarness({ simulator: { profile } });
    alice = await h.user('alice');
    carol = await h.user('carol');
  });
  afterEach(() => h.close());

  const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);

  it('a spend past the cap asks for approval; the confirmation says so; one within it does not', async () => {
    for (const line of ['role admin @alice', 'approvers @carol', 'monthly-cap 30']) {
      const r = await h.run(`settings ${line}`, alice);
      expect(card(r).title, textOf(r)).toBe('Workspace settings updated');
    }
    const set = await h.run('settings', alice);
    expect(textOf(set)).toContain('Monthly cap');
    expect(textOf(set)).toContain('30 credits');

    // 20 credits of 30: no approval (the approval rule is off).
    const ask = await h.run('series create "Daily" --source ai_story', alice);
    expect(confirmButton(ask).label).toBe('Create series (20 credits)');
    const created = await h.click(confirmButton(ask).action, confirmButton(ask).value, alice);
    expect(card(created).title).toBe('Series created: Daily');
    const id = idFrom(created);
    expect(spends().map((e) => e.credits)).toEqual([-20]);

    // 20 more would make 40 this month: past the cap, whatever the threshold (50).
    const more = await h.run(`series generate ${id}`, alice);
    const generate = button(more, 'series.generate.confirm');
    expect(generate.label).toBe('Request approval (20 credits)');
    expect(textOf(more)).toContain('past the team’s monthly cap of 30 credits');
    const sent = await h.click(generate.action, generate.value, alice);
    expect(card(sent).title, textOf(sent)).toBe('Sent for approval');
    expect(spends()).toHaveLength(1);

    const approved = await h.click('approval.approve', approvalIdOf(sent), carol);
    expect(card(approved).title, textOf(approved)).toMatch(/^Approved/);
    expect(spends().map((e) => e.credits)).toEqual([-20, -20]);

    const audit = await h.store.audit.list({ workspacePrefix: 'playground:W1' });
    expect(
      audit.find((e) => e.action === 'settings.change' && JSON.stringify(e.details).includes('monthly-cap')),
    ).toBeDefined();
  });

  it('`settings monthly-cap off` lifts it; a word that is no number is refused in words', async () => {
    await h.run('settings role admin @alice', alice);
    const bad = await h.run('settings monthly-cap lots', alice);
    expect(textOf(bad)).toContain('a whole number of credits a month (0 or more), or `off`');
    await h.run('settings monthly-cap 0', alice);
    const capped = await h.run('series create "Daily" --source ai_story', alice);
    expect(confirmButton(capped).label).toBe('Request approval (20 credits)');
    const off = await h.run('settings monthly-cap off', alice);
    expect(textOf(off)).toContain('No monthly cap');
    const free = await h.run('series create "Daily" --source ai_story', alice);
    expect(confirmButton(free).label).toBe('Create series (20 credits)');
  });

  it('a channel may only lower the cap (`--here`), and its lower cap holds there', async () => {
    await h.run('settings role admin @alice', alice);
    await h.run('settings monthly-cap 100', alice);
    const looser = await h.run('settings monthly-cap 200 --here', alice);
    expect(textOf(looser)).toContain('a monthly cap of 100 credits or less');
    const lifted = await h.run('settings monthly-cap off --here', alice);
    expect(textOf(lifted)).toContain('a monthly cap of 100 credits or less');
    const roomy = await h.run('series create "Daily" --source ai_story', alice);
    expect(confirmButton(roomy).label).toBe('Create series (20 credits)');
    const lower = await h.run('settings monthly-cap 10 --here', alice);
    expect(card(lower).title, textOf(lower)).toBe('Channel settings updated');
    const capped = await h.run('series create "Daily" --source ai_story', alice);
    expect(confirmButton(capped).label).toBe('Request approval (20 credits)');
    expect(textOf(capped)).toContain('monthly cap of 10 credits');
  });
});
