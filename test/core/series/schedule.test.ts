import { describe, expect, it } from 'vitest';
import type { Result } from '../../../src/core/dispatch/result.js';
import { nextSeriesCheckIn } from '../../../src/core/live/series-watcher.js';
import {
  type Cadence,
  canonicalZone,
  describeSchedule,
  nextPostTime,
  parseDays,
  parseSchedule,
  parseTime,
} from '../../../src/core/series/cadence.js';
import { scheduleFrom } from '../../../src/core/series/series-fields.js';

const value = <T>(r: Result<T>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code} ${JSON.stringify(r.error.params)}`);
  return r.value;
};
const code = (r: Result<unknown>): string => {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error.code;
};

// Monday 23 Nov 2026, 08:00 UTC (09:00 in Paris).
const MONDAY = Date.parse('2026-11-23T08:00:00Z');

describe('parseTime', () => {
  it.each([
    ['09:00', '09:00'],
    ['9:00', '09:00'],
    ['18:30', '18:30'],
    ['9am', '09:00'],
    ['6:30pm', '18:30'],
    ['12am', '00:00'],
    ['12pm', '12:00'],
    ['18h', '18:00'],
    ['18h30', '18:30'],
    ['23:59', '23:59'],
  ])('reads %s as %s', (input, expected) => {
    expect(value(parseTime(input))).toBe(expected);
  });

  it.each(['25:00', '12:60', '9', 'noon', '13pm', '0am', ''])('rejects %s', (input) => {
    expect(code(parseTime(input))).toBe('series-bad-time');
  });
});

describe('parseDays', () => {
  it('reads lists, ranges and words in week order', () => {
    expect(value(parseDays('mon,wed,fri'))).toEqual(['monday', 'wednesday', 'friday']);
    expect(value(parseDays('Fri, Mon'))).toEqual(['monday', 'friday']);
    expect(value(parseDays('tues thurs'))).toEqual(['tuesday', 'thursday']);
    expect(value(parseDays('mon-fri'))).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
    expect(value(parseDays('fri-mon'))).toEqual(['monday', 'friday', 'saturday', 'sunday']);
    expect(value(parseDays('weekdays'))).toHaveLength(5);
    expect(value(parseDays('weekends'))).toEqual(['saturday', 'sunday']);
    expect(value(parseDays('Sundays'))).toEqual(['sunday']);
  });

  it('reads every-day words as an empty list (the API: omitted = every day)', () => {
    expect(value(parseDays('daily'))).toEqual([]);
    expect(value(parseDays('every day'))).toEqual([]);
  });

  it('names the word it could not read', () => {
    const r = parseDays('mon,funday');
    expect(code(r)).toBe('series-bad-days');
    expect(r.ok ? '' : r.error.params.value).toBe('funday');
    expect(code(parseDays(''))).toBe('series-bad-days');
    expect(code(parseDays('x-fri'))).toBe('series-bad-days');
  });
});

describe('parseSchedule', () => {
  it('reads the phrases people type', () => {
    expect(value(parseSchedule('daily 09:00 Europe/Paris'))).toEqual({
      autoPostTime: '09:00',
      postingDays: [],
      timezone: 'Europe/Paris',
    });
    expect(value(parseSchedule('mon,wed,fri 18:00'))).toEqual({
      autoPostTime: '18:00',
      postingDays: ['monday', 'wednesday', 'friday'],
    });
    expect(value(parseSchedule('every day at 9 am'))).toEqual({ autoPostTime: '09:00', postingDays: [] });
    expect(value(parseSchedule('weekdays 6:30pm america/new_york'))).toEqual({
      autoPostTime: '18:30',
      postingDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
      timezone: 'America/New_York',
    });
    expect(value(parseSchedule('on mon and thu at 07:15 UTC'))).toEqual({
      autoPostTime: '07:15',
      postingDays: ['monday', 'thursday'],
      timezone: 'UTC',
    });
    expect(value(parseSchedule('18:00'))).toEqual({ autoPostTime: '18:00' });
  });

  it('rejects what it cannot read', () => {
    expect(code(parseSchedule('whenever'))).toBe('series-bad-schedule');
    expect(code(parseSchedule('funday 09:00'))).toBe('series-bad-days');
    expect(code(parseSchedule('daily 25:00'))).toBe('series-bad-schedule');
    expect(code(parseSchedule('daily 9:00 10:00'))).toBe('series-bad-schedule');
    expect(code(parseSchedule('daily 09:00 Mars/Olympus'))).toBe('bad-timezone');
    expect(code(parseSchedule('   '))).toBe('series-bad-schedule');
  });
});

describe('canonicalZone', () => {
  it('accepts IANA names in any case and refuses the rest', () => {
    expect(canonicalZone('Europe/Paris')).toBe('Europe/Paris');
    expect(canonicalZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalZone('UTC')).toBe('UTC');
    expect(canonicalZone('Mars/Olympus')).toBeUndefined();
    expect(canonicalZone('Europe Paris')).toBeUndefined();
    expect(canonicalZone('')).toBeUndefined();
  });
});

describe('scheduleFrom (flags)', () => {
  it('lets --time/--days/--timezone override pieces of --schedule', () => {
    expect(scheduleFrom({ schedule: 'daily 09:00 Europe/Paris', time: '10:30' }, 'create', 'UTC')).toEqual({
      autoPostTime: '10:30',
      postingDays: [],
      timezone: 'Europe/Paris',
    });
  });

  it("puts a bare time in the caller's zone on create, and leaves the zone alone on edit", () => {
    expect(scheduleFrom({ time: '09:00' }, 'create', 'Asia/Tokyo')).toEqual({
      autoPostTime: '09:00',
      timezone: 'Asia/Tokyo',
    });
    expect(scheduleFrom({ time: '09:00' }, 'edit', 'Asia/Tokyo')).toEqual({ autoPostTime: '09:00' });
  });

  it('sends every day as all seven days on edit (omitting would keep the old days)', () => {
    expect(scheduleFrom({ days: 'daily' }, 'edit', 'UTC').postingDays).toHaveLength(7);
    expect(scheduleFrom({ days: 'mon-sun' }, 'create', 'UTC').postingDays).toEqual([]);
  });

  it('throws the user error for bad pieces', () => {
    expect(() => scheduleFrom({ timezone: 'Nowhere/Land' }, 'create', 'UTC')).toThrow('bad-timezone');
    expect(() => scheduleFrom({ time: '24:00' }, 'create', 'UTC')).toThrow('series-bad-time');
    expect(() => scheduleFrom({ days: 'someday' }, 'create', 'UTC')).toThrow('series-bad-days');
  });
});

describe('describeSchedule', () => {
  it('says the schedule in words', () => {
    expect(describeSchedule({ autoPostTime: '09:00', postingDays: [], timezone: 'Europe/Paris' })).toBe(
      'Every day at 09:00 (Europe/Paris)',
    );
    expect(describeSchedule({ autoPostTime: '18:00', postingDays: ['friday', 'monday', 'wednesday'] })).toBe(
      'Mon, Wed, Fri at 18:00',
    );
    expect(
      describeSchedule({
        autoPostTime: '07:00',
        postingDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
        timezone: 'UTC',
      }),
    ).toBe('Weekdays at 07:00 (UTC)');
    expect(describeSchedule({ postingDays: ['saturday', 'sunday'] })).toBe('Weekends (service default time)');
  });
});

describe('nextPostTime', () => {
  it('finds the next slot in the series zone', () => {
    // 09:00 Paris on Monday is exactly now: the next slot is Tuesday.
    expect(
      new Date(nextPostTime({ autoPostTime: '09:00', timezone: 'Europe/Paris' }, MONDAY) ?? 0).toISOString(),
    ).toBe('2026-11-24T08:00:00.000Z');
    expect(
      new Date(nextPostTime({ autoPostTime: '09:30', timezone: 'Europe/Paris' }, MONDAY) ?? 0).toISOString(),
    ).toBe('2026-11-23T08:30:00.000Z');
    const fridays: Cadence = { autoPostTime: '18:00', postingDays: ['friday'], timezone: 'America/New_York' };
    expect(new Date(nextPostTime(fridays, MONDAY) ?? 0).toISOString()).toBe('2026-11-27T23:00:00.000Z');
  });

  it('follows daylight saving time', () => {
    // Paris moves to summer time on Sunday 29 March 2026: 09:00 is 08:00 UTC before, 07:00 UTC after.
    const saturday = Date.parse('2026-03-28T12:00:00Z');
    expect(
      new Date(
        nextPostTime({ autoPostTime: '09:00', timezone: 'Europe/Paris' }, saturday) ?? 0,
      ).toISOString(),
    ).toBe('2026-03-29T07:00:00.000Z');
  });

  it('is unknown without a time', () => {
    expect(nextPostTime({ postingDays: ['monday'] }, MONDAY)).toBeUndefined();
  });
});

describe('nextSeriesCheckIn', () => {
  const cadence: Cadence = { autoPostTime: '09:00', timezone: 'UTC', postingDays: [] };

  it('looks every few minutes far from a slot', () => {
    expect(nextSeriesCheckIn({ cadence }, Date.parse('2026-11-23T03:00:00Z'))).toBe(5 * 60_000);
    expect(nextSeriesCheckIn({}, MONDAY)).toBe(5 * 60_000);
  });

  it('looks just after the slot when it is near', () => {
    expect(nextSeriesCheckIn({ cadence }, Date.parse('2026-11-23T08:57:00Z'))).toBe(3 * 60_000 + 30_000);
    // Never sooner than the lower bound.
    expect(nextSeriesCheckIn({ cadence }, Date.parse('2026-11-23T08:59:50Z'))).toBe(60_000);
  });

  it('slows down while paused', () => {
    expect(nextSeriesCheckIn({ cadence, paused: true }, Date.parse('2026-11-23T08:57:00Z'))).toBe(
      15 * 60_000,
    );
  });
});
