/**
 * Day ranges read as one phrase (src/core/time/range.ts): every weekday as "today", in Paris and Los Angeles,
 * in ordinary weeks and in the weeks of both zones' DST changes, early and late in the local day. The
 * expected days are written out per weekday; the expected instants come from date-fns-tz's own
 * wall-clock conversion (plus literal instants around the DST changes), never from the code under test.
 */
import { fromZonedTime } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { parseRange, parseRangeOptions } from '../../../src/core/time/range.js';

const ZONES = ['Europe/Paris', 'America/Los_Angeles'] as const;
/** Mondays: US spring-forward week (Sun 8 Mar), EU spring (Sun 29 Mar), EU fall (Sun 25 Oct), US fall (Sun 1 Nov), ordinary. */
const WEEKS = ['2026-03-02', '2026-03-23', '2026-10-19', '2026-10-26', '2026-11-23'] as const;
const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function plus(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** First and last day of the month `shift` months from `day`'s. */
function month(day: string, shift: number): [string, string] {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 + shift, 1)).toISOString().slice(0, 10);
  const last = new Date(Date.UTC(y, m + shift, 0)).toISOString().slice(0, 10);
  return [first, last];
}

/** The instants of days `from`..`to` in `zone`, by date-fns-tz. */
const instants = (zone: string, [from, to]: [string, string]): [number, number] => [
  fromZonedTime(`${from}T00:00:00`, zone).getTime(),
  fromZonedTime(`${plus(to, 1)}T00:00:00`, zone).getTime() - 1,
];

/** Each phrase's days, given the week's Monday and today's index in it (0 = Monday … 6 = Sunday). */
const PHRASES: Record<string, (monday: string, i: number) => [string, string]> = {
  today: (w, i) => [plus(w, i), plus(w, i)],
  tomorrow: (w, i) => [plus(w, i + 1), plus(w, i + 1)],
  yesterday: (w, i) => [plus(w, i - 1), plus(w, i - 1)],
  'this week': (w) => [w, plus(w, 6)],
  'next week': (w) => [plus(w, 7), plus(w, 13)],
  'last week': (w) => [plus(w, -7), plus(w, -1)],
  // This week's working days, Monday even if today is later; on the weekend, the coming week's.
  'monday to friday': (w, i) => (i <= 4 ? [w, plus(w, 4)] : [plus(w, 7), plus(w, 11)]),
  'Mon - Fri': (w, i) => (i <= 4 ? [w, plus(w, 4)] : [plus(w, 7), plus(w, 11)]),
  'this month': (w, i) => month(plus(w, i), 0),
  'last month': (w, i) => month(plus(w, i), -1),
  'last 7 days': (w, i) => [plus(w, i - 6), plus(w, i)],
  'past 30 days': (w, i) => [plus(w, i - 29), plus(w, i)],
  'next 7 days': (w, i) => [plus(w, i), plus(w, i + 6)],
  friday: (w, i) => (i <= 4 ? [plus(w, 4), plus(w, 4)] : [plus(w, 11), plus(w, 11)]),
  'today to friday': (w, i) => (i <= 4 ? [plus(w, i), plus(w, 4)] : [plus(w, i), plus(w, 11)]),
};

/** "now" at a local wall-clock time: just after midnight and late in the evening (a different UTC day). */
const nowAt = (zone: string, day: string, time: string): number =>
  fromZonedTime(`${day}T${time}:00`, zone).getTime();

describe('day ranges as one phrase', () => {
  for (const zone of ZONES) {
    for (const week of WEEKS) {
      describe(`${zone}, week of ${week}`, () => {
        for (let i = 0; i < 7; i++) {
          const today = plus(week, i);
          it(`on ${DAY_NAMES[i]} ${today}`, () => {
            for (const time of ['00:30', '23:30']) {
              const now = nowAt(zone, today, time);
              for (const [phrase, days] of Object.entries(PHRASES)) {
                const r = parseRange(phrase, { zone, now });
                expect(r.ok, `${phrase} at ${time}`).toBe(true);
                if (!r.ok) continue;
                const expected = days(week, i);
                expect([r.value.from, r.value.to], `${phrase} at ${time}`).toEqual(expected);
                expect([r.value.start, r.value.end], `${phrase} at ${time}`).toEqual(
                  instants(zone, expected),
                );
              }
              // `--from monday --to friday` is the phrase "monday to friday".
              const pair = parseRangeOptions({ from: 'monday', to: 'friday' }, { zone, now });
              expect(pair).toEqual({
                ok: true,
                value: {
                  from: PHRASES['monday to friday']?.(week, i)[0],
                  to: PHRASES['monday to friday']?.(week, i)[1],
                },
              });
              // `--from "this week"` alone is the whole week; `--from today` alone leaves the end to the command.
              expect(parseRangeOptions({ from: 'this week' }, { zone, now })).toEqual({
                ok: true,
                value: { from: week, to: plus(week, 6) },
              });
              expect(parseRangeOptions({ from: 'today' }, { zone, now })).toEqual({
                ok: true,
                value: { from: today },
              });
            }
          });
        }
      });
    }
  }

  it('counts the DST days as the zone does (literal instants)', () => {
    // Paris springs forward on Sun 29 Mar 2026: the week starts at +01:00 and ends at +02:00.
    const paris = parseRange('this week', { zone: 'Europe/Paris', now: Date.parse('2026-03-25T12:00:00Z') });
    expect(
      paris.ok && [new Date(paris.value.start).toISOString(), new Date(paris.value.end).toISOString()],
    ).toEqual(['2026-03-22T23:00:00.000Z', '2026-03-29T21:59:59.999Z']);
    // Los Angeles falls back on Sun 1 Nov 2026: Monday 26 Oct starts at -07:00, Sunday ends at -08:00.
    const la = parseRange('this week', {
      zone: 'America/Los_Angeles',
      now: Date.parse('2026-10-28T20:00:00Z'),
    });
    expect(la.ok && [new Date(la.value.start).toISOString(), new Date(la.value.end).toISOString()]).toEqual([
      '2026-10-26T07:00:00.000Z',
      '2026-11-02T07:59:59.999Z',
    ]);
    // The spring-forward Sunday itself is 23 hours long in Paris, 25 in LA on the fall-back one.
    const sunday = parseRange('2026-03-29', {
      zone: 'Europe/Paris',
      now: Date.parse('2026-03-25T12:00:00Z'),
    });
    expect(sunday.ok && sunday.value.end + 1 - sunday.value.start).toBe(23 * 3600_000);
    const fallBack = parseRange('2026-11-01', {
      zone: 'America/Los_Angeles',
      now: Date.parse('2026-10-28T20:00:00Z'),
    });
    expect(fallBack.ok && fallBack.value.end + 1 - fallBack.value.start).toBe(25 * 3600_000);
  });

  it('refuses reversed explicit dates, and only those', () => {
    const at = { zone: 'Europe/Paris', now: Date.parse('2026-11-24T10:00:00Z') };
    const reversed = parseRangeOptions({ from: '2026-12-05', to: '2026-12-01' }, at);
    expect(reversed.ok).toBe(false);
    if (!reversed.ok) {
      expect(reversed.error).toMatchObject({
        code: 'date-range-reversed',
        params: { from: '2026-12-05', to: '2026-12-01' },
      });
    }
    expect(parseRange('2026-12-05 to 2026-12-01', at).ok).toBe(false);
    // Relative words are put in order instead.
    expect(parseRangeOptions({ from: 'tomorrow', to: 'yesterday' }, at)).toEqual({
      ok: true,
      value: { from: '2026-11-23', to: '2026-11-25' },
    });
    expect(parseRangeOptions({ from: 'friday', to: 'monday' }, at)).toEqual({
      ok: true,
      value: { from: '2026-11-27', to: '2026-11-30' },
    });
    expect(parseRange('2026-12-01 to 2026-12-05', at)).toMatchObject({
      ok: true,
      value: { from: '2026-12-01', to: '2026-12-05' },
    });
    expect(parseRange('between dec 1 and dec 3', at)).toMatchObject({
      ok: true,
      value: { from: '2026-12-01', to: '2026-12-03' },
    });
  });

  it('says which part it could not read', () => {
    const at = { zone: 'Europe/Paris', now: Date.parse('2026-11-24T10:00:00Z') };
    const r = parseRangeOptions({ from: 'monday', to: 'someday' }, at);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'bad-date', params: { value: 'someday' } });
    expect(parseRange('last 0 days', at).ok).toBe(false);
    expect(parseRange('', at).ok).toBe(false);
  });
});
