/**
 * The best hour of the week (src/core/publishing/best-time.ts): the history's winner, its tie rules, the
 * default before 20 posts, the next occurrence in a zone across a DST change, and the defaults documented in
 * docs/commands.md being the code's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLATFORM_NAMES } from '../../../src/core/platforms/names.js';
import {
  bestHour,
  DEFAULT_BEST,
  nextOccurrence,
  type PastPost,
} from '../../../src/core/publishing/best-time.js';
import { fromWallClock } from '../../../src/core/time/zone.js';
import { PLATFORMS } from '../../../src/core/video-api/video-api.js';

/** `hour` in Paris on `day` Nov 2026 (a day before the 1st counts back into October, September…). */
const paris = (day: number, hour: number) => {
  const d = new Date(Date.UTC(2026, 10, day));
  const wall = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour, minute: 0 };
  return fromWallClock(wall, 'Europe/Paris');
};

/** `n` posts at `hour` in Paris on day `day` of Nov 2026 and the weeks before it, each with `views`. */
const at = (day: number, hour: number, views: number, n: number): PastPost[] =>
  Array.from({ length: n }, (_, i) => ({ at: paris(day - 7 * i, hour), views }));

const history = (posts: PastPost[]) => ({ posts, viewsKnown: true, covered: true });

describe('bestHour', () => {
  it('takes the default below 20 posts, saying how many there were', () => {
    expect(bestHour('youtube', history(at(17, 18, 9000, 19)), 'Europe/Paris')).toEqual({
      ...DEFAULT_BEST.youtube,
      basis: { kind: 'default', posts: 19, reason: 'few-posts' },
    });
  });

  it('picks the hour with the best average among hours posted twice or more, in the zone given', () => {
    const posts = [...at(17, 18, 5000, 10), ...at(18, 12, 1000, 10), ...at(19, 9, 50_000, 1)];
    expect(bestHour('tiktok', history(posts), 'Europe/Paris')).toEqual({
      weekday: 2,
      hour: 18,
      basis: { kind: 'history', posts: 21, averageViews: 5000 },
    });
    // The same instants read in New York are six hours earlier.
    expect(bestHour('tiktok', history(posts), 'America/New_York')).toMatchObject({ weekday: 2, hour: 12 });
  });

  it('breaks a tie by the number of posts, then the earlier hour of the week', () => {
    const posts = [...at(18, 12, 1000, 8), ...at(17, 18, 1000, 12)];
    expect(bestHour('youtube', history(posts), 'Europe/Paris')).toMatchObject({ weekday: 2, hour: 18 });
    const even = [...at(18, 12, 1000, 10), ...at(17, 18, 1000, 10)];
    expect(bestHour('youtube', history(even), 'Europe/Paris')).toMatchObject({ weekday: 2, hour: 18 });
  });

  it('says why the default is used without views or analytics', () => {
    expect(bestHour('x', { posts: [], viewsKnown: false, covered: false }, 'UTC').basis).toEqual({
      kind: 'default',
      posts: 0,
      reason: 'not-covered',
    });
    expect(bestHour('youtube', { posts: [], viewsKnown: false, covered: true }, 'UTC').basis).toMatchObject({
      reason: 'no-views',
    });
  });
});

describe('nextOccurrence', () => {
  it('is the next such weekday and hour after now, today included when still ahead', () => {
    const monday9 = paris(23, 9);
    expect(nextOccurrence({ weekday: 1, hour: 18 }, 'Europe/Paris', monday9)).toBe(paris(23, 18));
    expect(nextOccurrence({ weekday: 1, hour: 9 }, 'Europe/Paris', monday9)).toBe(paris(30, 9));
    expect(nextOccurrence({ weekday: 2, hour: 18 }, 'Europe/Paris', monday9)).toBe(
      Date.parse('2026-11-24T17:00:00Z'),
    );
  });

  it('keeps the wall-clock hour across a DST change', () => {
    // Friday 23 Oct 2026 in Paris (summer time); the clocks go back on Sunday 25 Oct.
    const friday = Date.parse('2026-10-23T10:00:00Z');
    expect(nextOccurrence({ weekday: 2, hour: 18 }, 'Europe/Paris', friday)).toBe(
      Date.parse('2026-10-27T17:00:00Z'),
    );
    expect(nextOccurrence({ weekday: 6, hour: 18 }, 'Europe/Paris', friday)).toBe(
      Date.parse('2026-10-24T16:00:00Z'),
    );
  });
});

describe('the documented defaults', () => {
  it('are the ones the code uses', () => {
    const doc = readFileSync(new URL('../../../docs/commands.md', import.meta.url), 'utf8');
    const days = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];
    for (const p of PLATFORMS) {
      const { weekday, hour } = DEFAULT_BEST[p];
      expect(doc).toContain(
        `| ${PLATFORM_NAMES[p]} | ${days[weekday - 1]} ${String(hour).padStart(2, '0')}:00 |`,
      );
    }
  });
});
