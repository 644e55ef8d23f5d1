import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/dispatch/context.js';
import type { Result } from '../../../src/core/dispatch/result.js';
import {
  addDays,
  dayKey,
  daysBetween,
  formatBoth,
  formatDay,
  isValidZone,
  parseDate,
  parseWhen,
  startOfDay,
} from '../../../src/core/time/index.js';

const iso = (r: Result<number>): string => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}`);
  return new Date(r.value).toISOString();
};
const code = (r: Result<unknown>): string => {
  if (r.ok) throw new Error('expected an error');
  expect(r.error).toBeInstanceOf(UserError);
  return r.error.code;
};

// Tue 2026-12-01 is a Tuesday. Wednesday 25 Nov 2026, 10:00 UTC.
const NOW = Date.parse('2026-11-25T10:00:00Z');

describe('parseWhen', () => {
  it('reads "tomorrow 9am" in the caller zone', () => {
    expect(iso(parseWhen('tomorrow 9am', 'Europe/Paris', NOW))).toBe('2026-11-26T08:00:00.000Z');
    expect(iso(parseWhen('tomorrow 9am', 'America/New_York', NOW))).toBe('2026-11-26T14:00:00.000Z');
    expect(iso(parseWhen('tomorrow 9am', 'UTC', NOW))).toBe('2026-11-26T09:00:00.000Z');
    expect(iso(parseWhen('tomorrow 9am', 'Asia/Tokyo', NOW))).toBe('2026-11-26T00:00:00.000Z');
  });

  it('uses the caller zone for "tomorrow" when the zone is already on the next day', () => {
    // 10:00 UTC is 23:00 in Auckland (UTC+13 in summer), still Wed 25 there.
    expect(iso(parseWhen('tomorrow 9am', 'Pacific/Auckland', NOW))).toBe('2026-11-25T20:00:00.000Z');
    // Two hours later it is already Thu 26 in Auckland: tomorrow is Fri 27.
    expect(iso(parseWhen('tomorrow 9am', 'Pacific/Auckland', NOW + 2 * 3600_000))).toBe(
      '2026-11-26T20:00:00.000Z',
    );
  });

  it('reads weekday + 24h time, forward', () => {
    expect(iso(parseWhen('friday 18:00', 'Europe/Paris', NOW))).toBe('2026-11-27T17:00:00.000Z');
    expect(iso(parseWhen('on friday at 18:00', 'Europe/Paris', NOW))).toBe('2026-11-27T17:00:00.000Z');
  });

  it('reads durations as elapsed time', () => {
    expect(iso(parseWhen('in 2 hours', 'Europe/Paris', NOW))).toBe('2026-11-25T12:00:00.000Z');
    expect(iso(parseWhen('in 90 minutes', 'America/Los_Angeles', NOW))).toBe('2026-11-25T11:30:00.000Z');
  });

  it('reads calendar date and time in the zone', () => {
    expect(iso(parseWhen('2026-12-01 18:00', 'Europe/Paris', NOW))).toBe('2026-12-01T17:00:00.000Z');
    expect(iso(parseWhen('2026-12-01 18:00', 'America/New_York', NOW))).toBe('2026-12-01T23:00:00.000Z');
  });

  it('reads ISO 8601 with and without an offset', () => {
    expect(iso(parseWhen('2026-12-01T18:00:00Z', 'Europe/Paris', NOW))).toBe('2026-12-01T18:00:00.000Z');
    expect(iso(parseWhen('2026-12-01T18:00:00+02:00', 'UTC', NOW))).toBe('2026-12-01T16:00:00.000Z');
    expect(iso(parseWhen('2026-12-01T18:00', 'Europe/Paris', NOW))).toBe('2026-12-01T17:00:00.000Z');
  });

  it('rolls a bare time that already passed today to tomorrow', () => {
    // 10:00 UTC = 11:00 Paris; 9am is gone today.
    expect(iso(parseWhen('9am', 'Europe/Paris', NOW))).toBe('2026-11-26T08:00:00.000Z');
    expect(iso(parseWhen('3pm', 'Europe/Paris', NOW))).toBe('2026-11-25T14:00:00.000Z');
  });

  it('keeps wall-clock time across the spring-forward change', () => {
    // Europe/Paris moves to summer time on Sun 29 Mar 2026 (02:00 → 03:00).
    const sat = Date.parse('2026-03-28T10:00:00Z');
    expect(iso(parseWhen('tomorrow 9am', 'Europe/Paris', sat))).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(parseWhen('monday 18:00', 'Europe/Paris', sat))).toBe('2026-03-30T16:00:00.000Z');
    // A duration is elapsed time, not wall clock.
    expect(iso(parseWhen('in 24 hours', 'Europe/Paris', sat))).toBe('2026-03-29T10:00:00.000Z');
  });

  it('moves a time inside the DST gap forward instead of failing', () => {
    const sat = Date.parse('2026-03-28T10:00:00Z');
    const r = parseWhen('2026-03-29 02:30', 'Europe/Paris', sat);
    expect(iso(r)).toBe('2026-03-29T01:30:00.000Z');
    expect(formatBoth(Date.parse('2026-03-29T01:30:00Z'), 'Europe/Paris')).toBe(
      'Sun 29 Mar 2026, 03:30 Europe/Paris (01:30 UTC)',
    );
  });

  it('keeps wall-clock time across the fall-back change in New York', () => {
    // US clocks go back on Sun 1 Nov 2026.
    const sat = Date.parse('2026-10-31T16:00:00Z');
    expect(iso(parseWhen('tomorrow 9am', 'America/New_York', sat))).toBe('2026-11-01T14:00:00.000Z');
    expect(iso(parseWhen('today 5pm', 'America/New_York', sat))).toBe('2026-10-31T21:00:00.000Z');
    // 01:30 happens twice that night: the first one (still EDT) is meant.
    expect(iso(parseWhen('2026-11-01 01:30', 'America/New_York', sat))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('refuses past times and echoes what it read', () => {
    const r = parseWhen('2026-11-20 18:00', 'Europe/Paris', NOW);
    expect(code(r)).toBe('past-time');
    if (!r.ok) expect(r.error.params.when).toBe('Fri 20 Nov 2026, 18:00 Europe/Paris (17:00 UTC)');
    expect(code(parseWhen('today 9am', 'Europe/Paris', NOW))).toBe('past-time');
    expect(code(parseWhen('2026-11-25T10:00:00Z', 'UTC', NOW))).toBe('past-time');
  });

  it('asks for a time of day when only a day is given', () => {
    for (const dayOnly of ['friday', 'tomorrow', '2026-12-01', 'next monday']) {
      expect(code(parseWhen(dayOnly, 'Europe/Paris', NOW)), dayOnly).toBe('when-needs-time');
    }
    expect(iso(parseWhen('friday noon', 'Europe/Paris', NOW))).toBe('2026-11-27T11:00:00.000Z');
    expect(iso(parseWhen('in 3 days', 'UTC', NOW))).toBe('2026-11-28T10:00:00.000Z');
  });

  it('refuses unreadable text, leftovers and ranges', () => {
    for (const bad of ['', '   ', 'blah', 'tomorrow 9am blah', 'next tuesdy 9am', 'friday 9am to 10am']) {
      expect(code(parseWhen(bad, 'Europe/Paris', NOW)), bad).toBe('bad-when');
    }
  });
});

describe('formatBoth', () => {
  const t = Date.parse('2026-12-01T17:00:00Z');
  it('shows the zone and UTC', () => {
    expect(formatBoth(t, 'Europe/Paris')).toBe('Tue 1 Dec 2026, 18:00 Europe/Paris (17:00 UTC)');
  });
  it('names the UTC day when it differs', () => {
    expect(formatBoth(Date.parse('2026-12-02T01:00:00Z'), 'America/New_York')).toBe(
      'Tue 1 Dec 2026, 20:00 America/New_York (Wed 2 Dec 01:00 UTC)',
    );
  });
  it('does not repeat UTC', () => {
    expect(formatBoth(t, 'UTC')).toBe('Tue 1 Dec 2026, 17:00 UTC');
  });
});

describe('parseDate', () => {
  it('accepts YYYY-MM-DD and rejects impossible dates', () => {
    expect(parseDate('2026-12-01', 'UTC', NOW)).toEqual({ ok: true, value: '2026-12-01' });
    expect(code(parseDate('2026-02-30', 'UTC', NOW))).toBe('bad-date');
    expect(code(parseDate('someday', 'UTC', NOW))).toBe('bad-date');
    expect(code(parseDate('', 'UTC', NOW))).toBe('bad-date');
  });
  it('reads relative days in the caller zone', () => {
    expect(parseDate('today', 'UTC', NOW)).toEqual({ ok: true, value: '2026-11-25' });
    // 01:00 on the 26th in Auckland two hours later, still the 25th in UTC.
    expect(parseDate('today', 'Pacific/Auckland', NOW + 2 * 3600_000)).toEqual({
      ok: true,
      value: '2026-11-26',
    });
    expect(parseDate('tomorrow', 'Pacific/Auckland', NOW + 2 * 3600_000)).toEqual({
      ok: true,
      value: '2026-11-27',
    });
    expect(parseDate('tomorrow', 'America/Los_Angeles', NOW)).toEqual({ ok: true, value: '2026-11-26' });
    expect(parseDate('next monday', 'Europe/Paris', NOW)).toEqual({ ok: true, value: '2026-11-30' });
    expect(parseDate('dec 24', 'Europe/Paris', NOW)).toEqual({ ok: true, value: '2026-12-24' });
    expect(parseDate('in 3 days', 'Europe/Paris', NOW)).toEqual({ ok: true, value: '2026-11-28' });
  });
});

describe('zones and days', () => {
  it('validates IANA names', () => {
    expect(isValidZone('Europe/Paris')).toBe(true);
    expect(isValidZone('UTC')).toBe(true);
    expect(isValidZone('Mars/Olympus')).toBe(false);
    expect(isValidZone('')).toBe(false);
    expect(isValidZone(' Europe/Paris')).toBe(false);
  });
  it('does day arithmetic', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(daysBetween('2026-11-25', '2027-02-23')).toBe(90);
    expect(dayKey(Date.parse('2026-12-01T23:30:00Z'), 'Europe/Paris')).toBe('2026-12-02');
    expect(new Date(startOfDay('2026-03-29', 'Europe/Paris')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
  });
  it('labels days', () => {
    expect(formatDay('2026-12-01')).toBe('Tue 1 Dec 2026');
    expect(formatDay('2026-12-01', '2026-12-01')).toBe('Today · Tue 1 Dec 2026');
    expect(formatDay('2026-12-02', '2026-12-01', '2026-12-02')).toBe('Tomorrow · Wed 2 Dec 2026');
  });
});

describe('parseWhen limits', () => {
  const params = (r: Result<unknown>) => {
    if (r.ok) throw new Error('expected an error');
    return r.error.params;
  };
  const suggested = (r: Result<unknown>): string => String(params(r).suggestion ?? '');

  it('refuses a time more than a year ahead, in one sentence, and takes one just within', () => {
    const far = parseWhen('in 300 years', 'Europe/Paris', NOW);
    expect(code(far)).toBe('too-far-ahead');
    expect(params(far).latest).toBe('Thu 25 Nov 2027, 11:00 Europe/Paris (10:00 UTC)');
    expect(code(parseWhen('2027-11-26 09:00', 'UTC', NOW))).toBe('too-far-ahead');
    expect(iso(parseWhen('2027-11-25 09:00', 'UTC', NOW))).toBe('2027-11-25T09:00:00.000Z');
  });

  it('suggests, for a past phrase, a time that is actually in the future', () => {
    for (const [phrase, zone] of [
      ['today 9am', 'Europe/Paris'],
      ['2026-11-20 18:00', 'Europe/Paris'],
      ['yesterday 11pm', 'UTC'],
      ['today 10am', 'UTC'],
      ['2 hours ago', 'Asia/Tokyo'],
    ] as const) {
      const r = parseWhen(phrase, zone, NOW);
      expect(code(r), phrase).toBe('past-time');
      const hint = suggested(r);
      expect(hint, phrase).not.toBe('');
      const again = parseWhen(hint, zone, NOW);
      expect(again.ok && again.value > NOW, `${phrase} → ${hint}`).toBe(true);
    }
    // 09:00 in Paris already went by today (it is 11:00 there): tomorrow's.
    expect(suggested(parseWhen('today 9am', 'Europe/Paris', NOW))).toBe('tomorrow 09:00');
    // 18:00 is still ahead today.
    expect(suggested(parseWhen('2026-11-20 18:00', 'Europe/Paris', NOW))).toBe('today 18:00');
  });

  it('never suggests a past time for a day without a time of day', () => {
    const today = parseWhen('today', 'UTC', NOW);
    expect(code(today)).toBe('when-needs-time');
    // 9am today is gone at 10:00: only 18:00 is offered.
    expect(params(today)).toMatchObject({ value: 'today', first: 'today 18:00' });
    expect(params(today).second).toBeUndefined();
    const yesterday = parseWhen('yesterday', 'UTC', NOW);
    expect(code(yesterday)).toBe('past-day');
    const hint = suggested(yesterday);
    const again = parseWhen(hint, 'UTC', NOW);
    expect(again.ok && again.value > NOW, hint).toBe(true);
  });
});
