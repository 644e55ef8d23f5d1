/**
 * `audit --from/--to` read as one phrase too: a publish on Tuesday is in `this week` and in
 * `--from monday --to friday` read on Thursday (Los Angeles), not in `last week`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';

let h: Harness;
afterEach(() => h?.close());

describe('audit date ranges', () => {
  it('reads this week, last week and monday to friday in the caller zone', async () => {
    h = await createHarness();
    const bob = await h.user('bob', { timeZone: 'America/Los_Angeles' });
    const id = await completedVideo(h, 'Audited', { render: true });
    // Tuesday 24 Nov, 10:00 in Los Angeles.
    h.clock.advance(Date.parse('2026-11-24T18:00:00Z') - h.clock.now());
    await h.run(`publish ${id} tiktok`, bob);
    // Thursday 26 Nov.
    h.clock.advance(Date.parse('2026-11-26T18:00:00Z') - h.clock.now());
    const week = textOf(await h.run('audit --from "this week"', bob));
    expect(week).toContain('from Mon 23 Nov 2026 to Sun 29 Nov 2026');
    expect(week).toContain('1 entries');
    // Each row starts with its time in the caller's zone (10:00 in Los Angeles, not 18:00 UTC).
    expect(week).toMatch(/^\*\*Tue 24 Nov, 10:00\*\* · .+ · published “Audited” to TikTok/m);
    const days = textOf(await h.run('audit --from monday --to friday', bob));
    expect(days).toContain('from Mon 23 Nov 2026 to Fri 27 Nov 2026');
    expect(days).toContain('1 entries');
    const last = textOf(await h.run('audit --from "last week"', bob));
    expect(last).toContain('Nothing recorded in this channel from Mon 16 Nov 2026 to Sun 22 Nov 2026');
  });
});
