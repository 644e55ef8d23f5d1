import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { createHarness, type Harness, tableRows, textOf } from '../../support/harness.js';
import { apiOf, type CallLog, cardOf, completedVideo, spyCalls } from './helpers.js';

// The harness starts on Monday 23 Nov 2026, 08:00 UTC = 00:00 in Los Angeles.

describe('calendar', () => {
  let h: Harness;
  let bob: RequestInfo;
  let calls: CallLog;

  beforeEach(async () => {
    h = await createHarness();
    bob = await h.user('bob', { timeZone: 'America/Los_Angeles' });
    calls = spyCalls(h);
  });
  afterEach(async () => h.close());

  async function scheduled(name: string, platforms: ('youtube' | 'x')[], when: string) {
    const id = await completedVideo(h, name);
    await apiOf(h).videos.update(id, { posts: { youtube: { title: name }, x: { text: name } } });
    await h.store.users.setLast(bob.user, 'video', id);
    const r = await h.run(`/reel schedule last ${platforms.join(',')} ${when}`, bob);
    expect(cardOf(r).title).toBe('Scheduled');
    return id;
  }

  it('has a helpful empty state', async () => {
    const r = await h.run('/reel calendar', bob);
    expect(textOf(r)).toContain(
      'Nothing scheduled in the next 7 days. Try `/reel schedule last youtube tomorrow 9am`.',
    );
    const filtered = await h.run('/reel calendar --platform x --status failed', bob);
    expect(textOf(filtered)).toContain('No failed posts on X in the next 7 days');
  });

  it('groups by day in the caller zone, not by UTC day', async () => {
    // Tue 19:00 in LA is Wed 03:00 UTC; Wed 12:00 in LA is Wed 20:00 UTC.
    await scheduled('Evening cut', ['youtube'], '2026-11-24 19:00');
    await scheduled('Lunch cut', ['youtube', 'x'], '2026-11-25 12:00');
    const card = cardOf(await h.run('/reel calendar', bob));
    expect(card.title).toBe('Calendar · the next 7 days');
    expect(card.context).toBe('Times in America/Los_Angeles · 3 posts');
    expect(card.table?.columns.map((c) => c.label)).toEqual(['When', 'Platform', 'Status', 'Video']);
    expect(tableRows(card)).toEqual([
      ['Tomorrow, 19:00', 'YouTube', '🕒 Scheduled', 'Evening cut'],
      ['Wed 25 Nov, 12:00', 'YouTube', '🕒 Scheduled', 'Lunch cut'],
      ['Wed 25 Nov, 12:00', 'X', '🕒 Scheduled', 'Lunch cut'],
    ]);
  });

  it('reads --from/--to in natural language and filters by platform and status', async () => {
    await scheduled('Evening cut', ['youtube'], '2026-11-24 19:00');
    await scheduled('Next week', ['x'], '2026-12-02 10:00');
    const week = cardOf(await h.run('/reel calendar --from "next monday" --to "next friday"', bob));
    expect(week.title).toBe('Calendar · Mon 30 Nov 2026 – Fri 4 Dec 2026');
    expect(tableRows(week)).toEqual([['Wed 2 Dec, 10:00', 'X', '🕒 Scheduled', 'Next week']]);
    const yt = cardOf(
      await h.run('/reel calendar --from today --to 2026-12-31 --platform youtube --status scheduled', bob),
    );
    expect(tableRows(yt)).toHaveLength(1);
    expect(yt.context).toContain('scheduled on YouTube');
  });

  it('shows posted entries after time passes', async () => {
    await scheduled('Soon', ['x'], 'in 1 hour');
    h.clock.advance(2 * 3600_000);
    const card = cardOf(await h.run('/reel calendar', bob));
    expect(tableRows(card)).toEqual([[expect.stringMatching(/^Today, 01:0\d$/), 'X', '✅ Posted', 'Soon']]);
  });

  it('shows a schedule waiting for approval as a draft, with who may approve it', async () => {
    const alice = await h.user('alice');
    for (const line of [
      'settings role admin @alice',
      'settings approval publish',
      'settings approvers @alice',
    ])
      expect(cardOf(await h.run(line, alice)).title, line).toBe('Workspace settings updated');
    const id = await completedVideo(h, 'Draft cut');
    await apiOf(h).videos.update(id, { posts: { youtube: { title: 'Draft cut' } } });
    await h.store.users.setLast(bob.user, 'video', id);
    expect(textOf(await h.run('/reel schedule last youtube tomorrow 9am', bob))).toContain(
      'Sent for approval',
    );

    const card = cardOf(await h.run('/reel calendar', bob));
    expect(tableRows(card)).toEqual([
      [
        'Tomorrow, 09:00',
        'YouTube',
        expect.stringMatching(/^📝 Draft, awaiting approval by .*alice/),
        'Draft cut',
      ],
    ]);
    expect(card.context).toBe('Times in America/Los_Angeles · 0 posts · 1 draft awaiting approval');
    // Asked about posts of a status, the calendar lists the service's posts only.
    expect(textOf(await h.run('/reel calendar --status scheduled', bob))).toContain('No scheduled posts');
    // Approved, it is a post at the service, no longer a draft.
    const [request] = await h.store.approvals.pendingIn('playground:W1');
    await h.click('approval.approve', request?.id ?? '', alice);
    expect(tableRows(cardOf(await h.run('/reel calendar', bob)))).toEqual([
      ['Tomorrow, 09:00', 'YouTube', '🕒 Scheduled', 'Draft cut'],
    ]);
  });

  it('refuses bad ranges before calling the API', async () => {
    calls.all.length = 0;
    const long = await h.run('/reel calendar --from 2026-01-01 --to 2026-12-31', bob);
    expect(textOf(long)).toContain('That range covers 365 days; the calendar shows at most 90');
    expect(textOf(long)).toContain('Usage');
    const reversed = await h.run('/reel calendar --from 2026-12-10 --to 2026-12-01', bob);
    expect(textOf(reversed)).toContain('`--to` (2026-12-01) is before `--from` (2026-12-10)');
    const bad = await h.run('/reel calendar --from someday', bob);
    expect(textOf(bad)).toContain("I couldn't read `someday` as a date");
    const status = await h.run('/reel calendar --status pending', bob);
    expect(textOf(status)).toContain("`pending` isn't a valid `status`");
    expect(calls.all).toEqual([]);
  });
});
