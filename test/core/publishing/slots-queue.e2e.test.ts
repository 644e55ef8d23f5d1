/**
 * The queue beyond the scenario table, on the core harness and both profiles: what `settings slots` and
 * `daily-cap` refuse, a channel's own slots winning there, the `slots` table, a series' posting times taking
 * a slot, the Schedule form's "Next free slot" and `reschedule … next`.
 *
 * The harness starts on Monday 23 Nov 2026, 08:00 UTC (09:00 in Paris); alice reads times in Paris.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { createHarness, type Harness, tableRows, textOf } from '../../support/harness.js';
import { apiOf, cardOf, completedVideo, formOf } from './helpers.js';

const scheduledTimes = (h: Harness): string[] =>
  h.sim.sim
    .received()
    .filter((r) => r.method === 'POST' && r.path === '/posts/schedule')
    .map((r) => new Date(String((r.body as { scheduledTime: string }).scheduledTime)).toISOString());

describe.each(['spec', 'real'] as const)('the publishing queue (%s profile)', (profile) => {
  let h: Harness;
  let alice: RequestInfo;

  beforeEach(async () => {
    h = await createHarness({ simulator: { profile } });
    alice = await h.user('alice', { timeZone: 'Europe/Paris' });
  });
  afterEach(async () => h.close());

  async function video(name: string): Promise<string> {
    const id = await completedVideo(h, name);
    await apiOf(h).videos.update(id, { posts: { youtube: { title: name } } });
    return id;
  }

  it('refuses slots and caps it cannot read, with an example, and changes nothing', async () => {
    const bad = await h.run('settings slots youtube "mon-fri 25:00"');
    expect(textOf(bad)).toContain("`mon-fri 25:00` isn't a set of queue slots");
    expect(textOf(bad)).toContain('e.g. `mon-fri 09:00,17:00`');
    expect(textOf(await h.run('settings slots youtube'))).toContain(
      '`slots` takes a platform, then days and times',
    );
    expect(textOf(await h.run('settings slots myspace "mon 09:00"'))).toContain('`slots` takes a platform');
    expect(textOf(await h.run('settings daily-cap youtube 0'))).toContain('the most posts a day (1 to 50)');
    expect((await h.store.policies.get('playground:W1'))?.queue).toBeUndefined();
    expect(cardOf(await h.run('slots')).title).toBe('No queue slots');
  });

  it('keeps a channel’s own slots for that channel, audits both, and shows the queue as a table', async () => {
    await h.run('settings slots youtube "mon-fri 09:00,17:00"');
    const here = await h.run('settings slots youtube "daily 12:00" --here');
    expect(cardOf(here).title).toBe('Channel settings updated');
    await h.run('settings daily-cap youtube 2');
    const other = { ...alice, conversation: 'playground:W1:C2' };

    const table = cardOf(await h.run('slots'));
    expect(table.table?.columns.map((c) => c.label)).toEqual(['Platform', 'Slots', 'Daily cap', 'Next free']);
    expect(tableRows(table)).toEqual([
      [
        'YouTube',
        'Every day at 12:00 (Europe/Paris)',
        '2 a day',
        'Today, 12:00, Tomorrow, 12:00, Wed 25 Nov, 12:00',
      ],
    ]);
    expect(tableRows(cardOf(await h.run('slots', other)))).toEqual([
      [
        'YouTube',
        'Weekdays at 09:00, 17:00 (Europe/Paris)',
        '2 a day',
        'Today, 17:00, Tomorrow, 09:00, Tomorrow, 17:00',
      ],
    ]);
    const changes = (await h.store.audit.list({ workspacePrefix: 'playground:W1' }))
      .filter((e) => e.action === 'settings.change')
      .map((e) => e.details)
      .reverse();
    expect(changes).toEqual([
      {
        setting: 'slots youtube',
        from: 'off',
        to: 'Weekdays at 09:00, 17:00 (Europe/Paris)',
        scope: 'workspace',
      },
      { setting: 'slots youtube', from: 'off', to: 'Every day at 12:00 (Europe/Paris)', scope: 'channel' },
      { setting: 'daily-cap youtube', from: 'off', to: '2', scope: 'workspace' },
    ]);
    const card = cardOf(await h.run('settings'));
    expect(card.fields?.find((f) => f.label === 'Queue')?.value).toBe(
      'YouTube: Every day at 12:00 (Europe/Paris) · at most 2 a day',
    );
    await h.run('settings slots youtube off --here');
    expect(tableRows(cardOf(await h.run('slots')))[0]?.[1]).toBe('Weekdays at 09:00, 17:00 (Europe/Paris)');
  });

  it('counts an active series’ posting times as taken', async () => {
    await h.run('settings slots youtube "mon-fri 09:00,17:00"');
    await apiOf(h).series.create(
      {
        name: 'Monday facts',
        source: 'wikipedia',
        destination: 'youtube',
        autoPostTime: '09:00',
        postingDays: ['monday'],
        timezone: 'Europe/Paris',
      },
      { idempotencyKey: 'test-series-monday' },
    );
    const id = await video('Octo facts');
    // Friday 27 Nov 2026, 18:00 in Paris: Monday 09:00 is the series' own.
    h.clock.advance(Date.parse('2026-11-27T17:00:00Z') - h.clock.now());
    // The episodes already on the calendar are cancelled: what is left taken is the series' own time.
    const episodes = await apiOf(h).posts.calendar({
      startDate: '2026-11-23',
      endDate: '2026-12-31',
      status: 'scheduled',
    });
    for (const e of episodes) await apiOf(h).posts.cancel(e.projectId);
    const r = await h.run(`schedule ${id} youtube next`);
    expect(textOf(r)).toContain('Mon 30 Nov 2026, 17:00 Europe/Paris');
    expect(scheduledTimes(h)).toEqual(['2026-11-30T16:00:00.000Z']);
  });

  it('still schedules with a key that may not read series, checked against the calendar alone', async () => {
    await h.close();
    const key = 'fl_live_poster_key_0123456789abcdef01';
    h = await createHarness({
      simulator: { profile },
      teams: [
        {
          name: 'Posters',
          keys: [
            { key, scopes: ['videos:read', 'videos:write', 'posts:read', 'posts:write', 'catalog:read'] },
          ],
        },
      ],
    });
    const poster = await h.user('pat', { key, timeZone: 'Europe/Paris', admin: true });
    await h.run('settings slots youtube "mon-fri 09:00,17:00"', poster);
    const id = await completedVideo(h, 'Octo facts', { key });
    await apiOf(h, key).videos.update(id, { posts: { youtube: { title: 'Octo' } } });
    const r = await h.run(`schedule ${id} youtube next`, poster);
    expect(textOf(r)).toContain('Mon 23 Nov 2026, 17:00 Europe/Paris');
    expect(scheduledTimes(h)).toEqual(['2026-11-23T16:00:00.000Z']);
  });

  it('offers the next free slot first in the Schedule form, and schedules there', async () => {
    await h.run('settings slots youtube "mon-fri 09:00,17:00"');
    const id = await video('Octo facts');
    const form = formOf(await h.click('video.schedule', id));
    const slot = form.inputs.find((i) => i.id === 'slot');
    expect(slot?.kind === 'select' && slot.options.map((o) => o.label)).toEqual([
      'Next free slot (Mon 17:00)',
      'At the time below',
    ]);
    expect(form.inputs.map((i) => i.id)).toEqual(['platforms', 'slot', 'when']);
    // A time typed below the choice wins over it.
    const typed = await h.submit(form.id, form.state, {
      platforms: 'youtube',
      slot: 'next',
      when: 'tomorrow 10:00',
    });
    expect(textOf(typed)).toContain('Tue 24 Nov 2026, 10:00 Europe/Paris');
    const other = await video('Squid facts');
    const again = formOf(await h.click('video.schedule', other));
    const r = await h.submit(again.id, again.state, { platforms: 'youtube', slot: 'next', when: '' });
    expect(textOf(r)).toContain('Mon 23 Nov 2026, 17:00 Europe/Paris');
    expect(scheduledTimes(h)).toEqual(['2026-11-24T09:00:00.000Z', '2026-11-23T16:00:00.000Z']);
  });

  it('warns a move into a clash, and moves it once confirmed', async () => {
    const octo = await video('Octo facts');
    const squid = await video('Squid facts');
    await h.run(`schedule ${octo} youtube tomorrow 09:00`);
    await h.run(`schedule ${squid} youtube tomorrow 12:00`);
    const warned = cardOf(await h.run(`reschedule ${squid} tomorrow 09:10`));
    expect(warned.title).toBe('Clash: check the time');
    // No slots: no next free slot to offer, and the card says how to set them.
    expect(warned.controls?.map((c) => (c.kind === 'button' ? c.label : ''))).toEqual([
      'Schedule anyway (Tue 09:10)',
      'Cancel',
    ]);
    expect(warned.context).toContain('YouTube has no queue slots');
    const anyway = warned.controls?.find((c) => c.kind === 'button' && c.action === 'schedule.anyway');
    if (anyway?.kind !== 'button') throw new Error('no Schedule anyway');
    expect(cardOf(await h.click(anyway.action, anyway.value)).title).toBe('Moved');
    const pending = await apiOf(h).posts.calendar({
      startDate: '2026-11-24',
      endDate: '2026-11-24',
      status: 'scheduled',
    });
    expect(pending.map((e) => [e.projectId === squid ? 'squid' : 'octo', e.scheduledTime])).toEqual([
      ['octo', '2026-11-24T08:00:00.000Z'],
      ['squid', '2026-11-24T08:10:00.000Z'],
    ]);
  });

  it('moves a pending post to the next free slot with `reschedule … next`', async () => {
    await h.run('settings slots youtube "mon-fri 09:00,17:00"');
    const id = await video('Octo facts');
    await h.run(`schedule ${id} youtube tomorrow 10:00`);
    const r = await h.run(`reschedule ${id} next`);
    expect(cardOf(r).title).toBe('Moved');
    expect(textOf(r)).toContain('Mon 23 Nov 2026, 17:00 Europe/Paris');
    const pending = await apiOf(h).posts.calendar({
      startDate: '2026-11-23',
      endDate: '2026-11-25',
      status: 'scheduled',
    });
    expect(pending.map((e) => e.scheduledTime)).toEqual(['2026-11-23T16:00:00.000Z']);
  });
});
