import { describe, expect, it } from 'vitest';
import { nextSlot, parseWeekday } from '../../src/simulator/cadence.js';

const utc = (...args: [number, number, number, number, number]) => Date.UTC(...args);

describe('nextSlot', () => {
  it('is later today when the time has not passed, else tomorrow', () => {
    const cadence = { autoPostTime: '09:00', timezone: 'UTC', postingDays: [] };
    expect(nextSlot(utc(2026, 0, 5, 8, 0), cadence)).toBe(utc(2026, 0, 5, 9, 0));
    expect(nextSlot(utc(2026, 0, 5, 9, 0), cadence)).toBe(utc(2026, 0, 6, 9, 0));
  });

  it('skips days that are not posting days', () => {
    const cadence = { autoPostTime: '18:30', timezone: 'UTC', postingDays: ['friday'] as const };
    expect(nextSlot(utc(2026, 0, 5, 8, 0), cadence)).toBe(utc(2026, 0, 9, 18, 30));
    expect(nextSlot(utc(2026, 0, 9, 19, 0), cadence)).toBe(utc(2026, 0, 16, 18, 30));
  });

  it('uses the local date and time of the zone, across DST changes', () => {
    const tokyo = { autoPostTime: '08:00', timezone: 'Asia/Tokyo', postingDays: ['tuesday'] as const };
    // Monday 2026-01-05 23:30 UTC is already Tuesday 08:30 in Tokyo; the slot is next Tuesday.
    expect(nextSlot(utc(2026, 0, 5, 23, 30), tokyo)).toBe(utc(2026, 0, 12, 23, 0));
    const paris = { autoPostTime: '09:00', timezone: 'Europe/Paris', postingDays: [] };
    expect(nextSlot(utc(2026, 2, 28, 12, 0), paris)).toBe(utc(2026, 2, 29, 7, 0)); // after the spring change
    expect(nextSlot(utc(2026, 2, 27, 12, 0), paris)).toBe(utc(2026, 2, 28, 8, 0));
  });
});

describe('parseWeekday', () => {
  it('accepts full names and three-letter forms in any case', () => {
    expect(parseWeekday('Monday')).toBe('monday');
    expect(parseWeekday('SUN')).toBe('sunday');
    expect(parseWeekday('mo')).toBeUndefined();
    expect(parseWeekday('funday')).toBeUndefined();
  });
});
