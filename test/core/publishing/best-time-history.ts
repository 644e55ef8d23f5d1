/**
 * A team's past YouTube posts for the best-time tests: week after week, a post on Tuesday at 18:00 in `zone`
 * that draws about ten times the views of the posts at the other hours (Monday 09:00, Wednesday 12:00,
 * Thursday 20:00, Friday 17:00, Saturday 10:00), all within the last 90 days before Monday 23 Nov 2026.
 */
import { fromWallClock } from '../../../src/core/time/zone.js';

type PastPost = { platform: 'youtube'; at: number; views: number; title: string };

/** [weekday offset from Monday, hour in Paris], Tuesday 18:00 first. */
const SLOTS: readonly [number, number][] = [
  [1, 18],
  [0, 9],
  [2, 12],
  [3, 20],
  [4, 17],
  [5, 10],
];

/** `count` past posts, hours in `zone`, the week of Monday 16 Nov 2026 first, then earlier weeks. */
export function pastPosts(count: number, zone = 'Europe/Paris'): PastPost[] {
  const posts: PastPost[] = [];
  for (let week = 0; posts.length < count; week++) {
    for (const [offset, hour] of SLOTS) {
      if (posts.length === count) break;
      const day = new Date(Date.UTC(2026, 10, 16 - 7 * week + offset));
      const at = fromWallClock(
        { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute: 0 },
        zone,
      );
      const tuesday = offset === 1;
      const views = tuesday ? 9_000 + 37 * week : 800 + ((week * 7 + offset * 13) % 10) * 150;
      posts.push({ platform: 'youtube', at, views, title: `Past post ${posts.length + 1}` });
    }
  }
  return posts;
}
