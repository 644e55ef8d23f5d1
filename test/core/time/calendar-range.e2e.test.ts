/**
 * `calendar --from monday --to friday` (help's own example) end to end: the real core, client and simulator
 * over HTTP, on both simulator profiles, in Paris and Los Angeles. From Tuesday to Friday it is this week's
 * Monday to Friday (it was a reversed range before: each end was dated forward on its own); on Saturday it is
 * the coming week. The GET /calendar query the simulator receives covers exactly the UTC days of the range.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness, tableRows, textOf } from '../../support/harness.js';
import { apiOf, cardOf, completedVideo } from '../publishing/helpers.js';

let h: Harness;
afterEach(() => h?.close());

const CASES = [
  // Monday 23 Nov 00:00 in Paris is Sunday 23:00 UTC; Friday 27 ends at 22:59:59.999 UTC.
  { zone: 'Europe/Paris', week: ['2026-11-22', '2026-11-27'], next: ['2026-11-29', '2026-12-04'] },
  // Monday 23 Nov 00:00 in LA is 08:00 UTC; Friday 27 ends at Saturday 07:59:59.999 UTC.
  { zone: 'America/Los_Angeles', week: ['2026-11-23', '2026-11-28'], next: ['2026-11-30', '2026-12-05'] },
] as const;

/** The startDate/endDate of the last GET /calendar the simulator received. */
function lastCalendarQuery(): [string | null, string | null] {
  const call = h.proxy?.calls.filter((c) => c.method === 'GET' && c.path === '/calendar').at(-1);
  const q = new URLSearchParams(call?.query ?? '');
  return [q.get('startDate'), q.get('endDate')];
}

/** `day` at `hh:mm` in `zone`, as the ISO instant the API takes. */
function localIso(day: string, time: string, zone: string): string {
  const guess = Date.parse(`${day}T${time}:00Z`);
  const shown = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  // One correction is enough away from a DST change (these days are in late November).
  const [hh, mm] = shown.format(guess).split(':').map(Number) as [number, number];
  const [th, tm] = time.split(':').map(Number) as [number, number];
  let diff = (th - hh) * 60 + (tm - mm);
  if (diff > 720) diff -= 1440;
  if (diff < -720) diff += 1440;
  return new Date(guess + diff * 60_000).toISOString();
}

describe.each(['spec', 'real'] as const)('calendar --from monday --to friday (%s profile)', (profile) => {
  it.each(CASES)(
    'in $zone: this week from Tuesday to Friday, the coming week on Saturday',
    async ({ zone, week, next }) => {
      h = await createHarness({ simulator: { profile }, proxy: true });
      const bob = await h.user('bob', { timeZone: zone });
      const id = await completedVideo(h, 'Weekly cut');
      const api = apiOf(h);
      await api.videos.update(id, { posts: { youtube: { title: 'Weekly cut' } } });
      // Monday evening and Friday evening are in the range; Saturday morning is not.
      for (const [day, n] of [
        ['2026-11-23', 1],
        ['2026-11-27', 2],
        ['2026-11-28', 3],
      ] as const) {
        await api.posts.schedule(
          {
            videoId: id,
            platforms: ['youtube'],
            scheduledTime: localIso(day, day === '2026-11-28' ? '10:00' : '19:00', zone),
          },
          { idempotencyKey: `calendar-range-${n}` },
        );
      }

      // Monday's and Friday's posts, named as the reader's day sees them.
      const seen: Record<string, [string, string]> = {
        Tue: ['Yesterday, 19:00', 'Fri 27 Nov, 19:00'],
        Wed: ['Mon 23 Nov, 19:00', 'Fri 27 Nov, 19:00'],
        Thu: ['Mon 23 Nov, 19:00', 'Tomorrow, 19:00'],
        Fri: ['Mon 23 Nov, 19:00', 'Today, 19:00'],
      };
      for (const [i, dayName] of ['Tue', 'Wed', 'Thu', 'Fri'].entries()) {
        // Noon UTC: Tuesday..Friday in both zones.
        h.clock.advance(Date.parse(`2026-11-${24 + i}T12:00:00Z`) - h.clock.now());
        await h.advance(0);
        const card = cardOf(await h.run('/reel calendar --from monday --to friday', bob));
        expect(card.title, dayName).toBe('Calendar · Mon 23 Nov 2026 – Fri 27 Nov 2026');
        expect(lastCalendarQuery(), dayName).toEqual(week);
        expect(
          tableRows(card).map(([when]) => when),
          dayName,
        ).toEqual(seen[dayName]);
        // The same range as one phrase in --from.
        const phrase = cardOf(await h.run('/reel calendar --from "monday to friday"', bob));
        expect(phrase.title, dayName).toBe(card.title);
      }

      // Saturday: this week's working days are over, so it is the coming week.
      h.clock.advance(Date.parse('2026-11-28T12:00:00Z') - h.clock.now());
      await h.advance(0);
      const saturday = await h.run('/reel calendar --from monday --to friday', bob);
      expect(textOf(saturday)).toContain('Nothing scheduled in Mon 30 Nov 2026 – Fri 4 Dec 2026');
      expect(lastCalendarQuery()).toEqual(next);

      // `this week` alone, and `last week` on the following Monday, cover Monday to Sunday.
      const thisWeek = cardOf(await h.run('/reel calendar --from "this week"', bob));
      expect(thisWeek.title).toBe('Calendar · Mon 23 Nov 2026 – Sun 29 Nov 2026');
      expect(tableRows(thisWeek)).toHaveLength(3);
    },
  );

  it('refuses explicit dates in the wrong order, and says how to fix it', async () => {
    h = await createHarness({ simulator: { profile }, proxy: true });
    const bob = await h.user('bob', { timeZone: 'Europe/Paris' });
    const r = await h.run('/reel calendar --from 2026-12-05 --to 2026-12-01', bob);
    expect(textOf(r)).toContain(
      '`--to` (2026-12-01) is before `--from` (2026-12-05): a range goes from the earlier day to the later one. Try `--from 2026-12-01 --to 2026-12-05`.',
    );
    expect(h.proxy?.calls.filter((c) => c.path === '/calendar')).toEqual([]);
    // Relative words are never "reversed".
    const words = await h.run('/reel calendar --from tomorrow --to yesterday', bob);
    expect(textOf(words)).toContain('Nothing scheduled in Sun 22 Nov 2026 – Tue 24 Nov 2026');
  });
});
