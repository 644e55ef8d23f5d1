import { describe, expect, it } from 'vitest';
import {
  nextScheduleCheck,
  readScheduleState,
  SCHEDULE_MAX_INTERVAL_MS,
  SCHEDULE_MIN_INTERVAL_MS,
  scheduleCardPart,
} from '../../../src/core/live/schedule-watcher.js';

const MINUTE = 60_000;
const due = Date.parse('2026-12-01T17:00:00Z');
const state = readScheduleState({
  platforms: ['youtube', 'tiktok'],
  scheduledTime: '2026-12-01T17:00:00.000Z',
  times: { youtube: '2026-12-01T17:00:00.000Z', tiktok: '2026-12-01T17:00:00.000Z' },
  zone: 'Europe/Paris',
  name: 'Teaser',
  outcomes: { youtube: 'posted', bogus: 'weird' },
});

describe('schedule watch timing', () => {
  it('looks at most every 30 minutes while far from due', () => {
    expect(nextScheduleCheck(state, due - 5 * 60 * MINUTE)).toBe(SCHEDULE_MAX_INTERVAL_MS);
  });
  it('lands on the due time when it is closer than that', () => {
    expect(nextScheduleCheck(state, due - 7 * MINUTE)).toBe(7 * MINUTE);
    expect(nextScheduleCheck(state, due - 2_000)).toBe(SCHEDULE_MIN_INTERVAL_MS);
  });
  it('looks every 15 s just after due, then every minute', () => {
    expect(nextScheduleCheck(state, due + MINUTE)).toBe(15_000);
    expect(nextScheduleCheck(state, due + 20 * MINUTE)).toBe(60_000);
  });
});

describe('schedule watch state', () => {
  it('reads tolerantly, keeping only known outcomes', () => {
    expect(state.posts).toEqual([
      { platform: 'youtube', at: '2026-12-01T17:00:00.000Z', outcome: 'posted' },
      { platform: 'tiktok', at: '2026-12-01T17:00:00.000Z' },
    ]);
    expect(readScheduleState({}).platforms).toEqual([]);
  });
  it('renders one time in the zone and UTC, with statuses', () => {
    expect(scheduleCardPart(state)).toEqual({
      platforms: ['youtube', 'tiktok'],
      at: 'Tue 1 Dec 2026, 18:00',
      zone: 'Europe/Paris (17:00 UTC)',
      statuses: { youtube: 'posted' },
    });
  });
  it('lists each time when platforms differ', () => {
    const mixed = readScheduleState({
      platforms: ['youtube', 'tiktok'],
      zone: 'Europe/Paris',
      times: { youtube: '2026-12-01T17:00:00.000Z', tiktok: '2026-12-02T08:00:00.000Z' },
      outcomes: {},
    });
    expect(scheduleCardPart(mixed).at).toBe(
      'Tue 1 Dec 2026, 18:00 (YouTube); Wed 2 Dec 2026, 09:00 (TikTok)',
    );
  });
  it('lists every pending time of a platform posting twice, and how each settled', () => {
    const twice = readScheduleState({
      zone: 'UTC',
      posts: [
        { platform: 'x', at: '2026-12-01T09:00:00.000Z', outcome: 'posted' },
        { platform: 'x', at: '2026-12-01T11:00:00.000Z' },
        { platform: 'youtube', at: '2026-12-01T11:00:00.000Z' },
      ],
    });
    expect(scheduleCardPart(twice)).toEqual({
      platforms: ['x', 'youtube'],
      at: 'Tue 1 Dec 2026, 09:00 (X posted); Tue 1 Dec 2026, 11:00 (X, YouTube)',
      zone: 'UTC',
      statuses: {},
    });
  });
});
