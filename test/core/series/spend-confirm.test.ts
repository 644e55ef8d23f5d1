/**
 * Every series spend is confirmed (DESIGN §5): `series create` (typed and by the form), `series resume` and a
 * model change in `series edit` show the cost and the balance first, change nothing before Confirm, charge
 * once on a double click, and Cancel charges nothing. An edit that leaves the model alone does not ask.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CREATE_FORM_ID } from '../../../src/core/commands/series/create-form.js';
import type { Response } from '../../../src/core/text/cards.js';
import { DEMO_KEY, textOf } from '../../support/harness.js';
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
beforeEach(async () => {
  h = await seriesHarness();
});
afterEach(() => h.close());

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);
const field = (r: Response, label: string) => card(r).fields?.find((f) => f.label === label)?.value;

/**
 * Both clicks at once share one outcome, which replaces the card; a third later (a stale copy of the card)
 * hears who did it, and acts no more.
 */
async function doubleClick(ask: Response): Promise<Response[]> {
  const { action, value } = confirmButton(ask);
  const both = await Promise.all([h.click(action, value), h.click(action, value)]);
  for (const r of both) expect(r.kind).toBe('update');
  const late = await h.click(action, value);
  expect(card(late).title).toBe('Already done');
  expect(textOf(late)).toMatch(/^Already done by .+ at \d{2}:\d{2}: /m);
  return both;
}

async function cancel(ask: Response, action: string): Promise<Response> {
  const cancelled = await h.click(action, button(ask, action).value);
  expect(cancelled.kind).toBe('update');
  expect(textOf(cancelled)).toContain('nothing was charged');
  return cancelled;
}

describe('series create asks first', () => {
  it('typed: shows the first charge, the price per episode and the balance; creates nothing before Confirm', async () => {
    const ask = await h.run('series create "Night Terrors" --source ai_story --model motion_lite');
    expect(ask.kind === 'message' && ask.visibility).toBe('ephemeral');
    expect(card(ask).title).toBe('Start the series “Night Terrors”?');
    expect(textOf(ask)).toContain('charged now: **50 credits** (Motion Lite)');
    expect(textOf(ask)).toContain('Your team has **500** credits');
    expect(field(ask, 'Cost')).toBe('50');
    expect(field(ask, 'Each episode')).toBe('50 credits');
    expect(field(ask, 'Balance')).toBe('500');
    expect(field(ask, 'After')).toBe('450');
    expect(confirmButton(ask)).toMatchObject({
      action: 'series.create.confirm',
      label: 'Create series (50 credits)',
    });
    // What it agrees to beyond the charge: left blank, the service posts every day to its default platform.
    expect(field(ask, 'Schedule')).toBe('Every day (service default time)');
    expect(field(ask, 'Posts to')).toBe(
      'the service’s default platform, to its default account (none chosen)',
    );
    expect(field(ask, 'Model')).toBe('Motion Lite');
    expect(field(ask, 'Each month')).toBe('about 30 episodes · 1500 credits');
    expect(field(ask, 'At this pace')).toMatch(
      /^≈1500 credits a month; at this pace your 500 credits last until \w{3} \d{1,2} \w{3} \d{4}$/,
    );
    expect(mutations(h)).toEqual([]);
    expect(await h.api.series.list()).toEqual([]);
    expect(spends()).toEqual([]);

    const outcomes = await doubleClick(ask);
    for (const r of outcomes) expect(textOf(r)).toContain('Series created: Night Terrors');
    expect(new Set(outcomes.map(idFrom)).size).toBe(1);
    expect(mutations(h)).toEqual(['series.create']);
    expect(await h.api.series.list()).toHaveLength(1);
    expect(spends().map((e) => e.credits)).toEqual([-50]);
    expect(h.chat.channelMessages.filter((p) => p.card.title === 'Night Terrors — Episode 1')).toHaveLength(
      1,
    );
  });

  it('typed: Cancel creates and charges nothing, and a later Confirm of that card does nothing', async () => {
    const ask = await h.run('series create "Night Terrors" --source ai_story');
    await cancel(ask, 'series.create.cancel');
    const late = await h.click('series.create.confirm', confirmButton(ask).value);
    expect(textOf(late)).toContain('Already done by');
    expect(textOf(late)).toContain(': Cancelled. This card no longer acts.');
    expect(mutations(h)).toEqual([]);
    expect(await h.api.series.list()).toEqual([]);
    expect(spends()).toEqual([]);
  });

  it('by the form: the submission answers the same card; Confirm creates once, Cancel nothing', async () => {
    const opened = await h.run('series create --model motion_pro');
    if (opened.kind !== 'form') throw new Error('expected the form');
    const values = { name: 'Pro', source: 'news' };
    const ask = await h.submit(CREATE_FORM_ID, opened.form.state, values);
    expect(card(ask).title).toBe('Start the series “Pro”?');
    expect(textOf(ask)).toContain('**100 credits** (Motion Pro)');
    expect(field(ask, 'Balance')).toBe('500');
    expect(mutations(h)).toEqual([]);
    expect(spends()).toEqual([]);

    // A second submit of the same form is the same request: its Confirm creates nothing more.
    const again = await h.submit(CREATE_FORM_ID, opened.form.state, values);
    await doubleClick(ask);
    const same = await confirmed(h, again);
    expect(await h.api.series.list()).toHaveLength(1);
    expect(await h.api.series.get(idFrom(same))).toMatchObject({
      brollModel: 'motion_pro',
    });
    expect(spends().map((e) => e.credits)).toEqual([-100]);

    const other = await h.run('series create');
    if (other.kind !== 'form') throw new Error('expected the form');
    const declined = await h.submit(CREATE_FORM_ID, other.form.state, { name: 'Later', source: 'news' });
    await cancel(declined, 'series.create.cancel');
    expect(await h.api.series.list()).toHaveLength(1);
    expect(spends()).toHaveLength(1);
  });

  it('only the person who asked can confirm', async () => {
    const ask = await h.run('series create Mine --source ai_story');
    const bob = await h.user('bob');
    const refused = await h.click('series.create.confirm', confirmButton(ask).value, bob);
    expect(textOf(refused)).toContain('Only alice can answer this confirmation');
    expect(await h.api.series.list()).toEqual([]);
  });
});

describe('series resume asks first', () => {
  let id: string;
  beforeEach(async () => {
    id = idFrom(await confirmed(h, h.run('series create Night --source ai_story --model motion_lite')));
    await h.api.series.update(id, { paused: true });
    h.calls.length = 0;
  });

  it('shows the price per episode and the balance, resumes on Confirm once, a double click included', async () => {
    const ask = await h.run(`series resume ${id}`);
    expect(card(ask).title).toBe('Resume “Night”?');
    expect(textOf(ask)).toContain('each charged when generated: **50 credits** (Motion Lite)');
    expect(textOf(ask)).toContain('Nothing is charged now');
    expect(textOf(ask)).toContain('Your team has **450** credits');
    expect(field(ask, 'Each episode')).toBe('50 credits');
    expect(field(ask, 'Cost')).toBeUndefined();
    expect(confirmButton(ask)).toMatchObject({ action: 'series.resume.confirm', label: 'Resume' });
    expect(mutations(h)).toEqual([]);
    expect((await h.api.series.get(id)).paused).toBe(true);

    const outcomes = await doubleClick(ask);
    for (const r of outcomes) expect(textOf(r)).toContain('▶️ Resumed “Night”');
    expect(mutations(h)).toEqual(['series.update']);
    expect((await h.api.series.get(id)).paused).toBe(false);
    expect(
      (await h.store.audit.list({ workspacePrefix: 'playground:W1' })).filter(
        (e) => e.action === 'series.resume',
      ),
    ).toHaveLength(1);
    expect(spends()).toHaveLength(1);
  });

  it('opens the same card from the Resume button; Cancel leaves it paused', async () => {
    const paused = await h.run(`series pause ${id}`);
    h.calls.length = 0;
    const ask = await h.click('series.resume', button(paused, 'series.resume').value);
    expect(card(ask).title).toBe('Resume “Night”?');
    await cancel(ask, 'series.resume.cancel');
    expect(mutations(h)).toEqual([]);
    expect((await h.api.series.get(id)).paused).toBe(true);
  });
});

describe('series edit asks first when the model changes', () => {
  let id: string;
  beforeEach(async () => {
    id = idFrom(await confirmed(h, h.run('series create Night --source ai_story')));
    h.calls.length = 0;
  });

  it('shows the old and new price per episode and the balance; applies once on Confirm', async () => {
    const ask = await h.run(`series edit ${id} --model motion_pro --tone eerie`);
    expect(card(ask).title).toBe('Change “Night”?');
    expect(textOf(ask)).toContain(
      'Each episode will cost **100 credits** (Motion Pro) instead of **20 credits** (Storyboard)',
    );
    expect(textOf(ask)).toContain('Nothing is charged now');
    expect(textOf(ask)).toContain('Your team has **480** credits');
    expect(textOf(ask)).toContain('Also changes: tone');
    expect(field(ask, 'Each episode')).toBe('100 credits');
    expect(confirmButton(ask)).toMatchObject({ action: 'series.edit.confirm', label: 'Apply change' });
    expect(mutations(h)).toEqual([]);
    expect((await h.api.series.get(id)).brollModel).toBe('storyboard');

    const outcomes = await doubleClick(ask);
    for (const r of outcomes) expect(textOf(r)).toContain('Updated “Night”');
    expect(mutations(h)).toEqual(['series.update']);
    expect(await h.api.series.get(id)).toMatchObject({ brollModel: 'motion_pro', tone: 'eerie' });
    expect(spends()).toHaveLength(1);
  });

  it('Cancel changes nothing', async () => {
    const ask = await h.run(`series edit ${id} --model motion_lite`);
    await cancel(ask, 'series.edit.cancel');
    expect(mutations(h)).toEqual([]);
    expect((await h.api.series.get(id)).brollModel ?? 'storyboard').toBe('storyboard');
  });

  it('does not ask when the model stays the same or is not given', async () => {
    const same = await h.run(`series edit ${id} --model storyboard --tone eerie`);
    expect(card(same).title).toBe('Updated “Night”');
    const free = await h.run(`series edit ${id} --time 18:00`);
    expect(free.kind === 'message' && free.visibility).toBe('channel');
    expect(card(free).title).toBe('Updated “Night”');
    expect(mutations(h)).toEqual(['series.update', 'series.update']);
    expect(await h.api.series.get(id)).toMatchObject({ tone: 'eerie', autoPostTime: '18:00' });
  });
});
