/**
 * `schedule … best`: the weekday and hour to post on a platform. From the team's own history — its posts
 * that went out, each with the views the analytics report for it — once there are `HISTORY_MINIMUM` of them
 * on that platform: the hour of the week whose posts drew the most views on average. Before that, our own
 * default for the platform (docs/commands.md, "Best time", says where they come from). The time proposed is
 * the next occurrence of that weekday and hour in the zone, after now.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { addDays, dayKey, fromWallClock } from '../time/zone.js';
import type { Platform } from '../video-api/video-api.js';

/** Posts on a platform before its own history decides (DESIGN §10: "say 20"). */
export const HISTORY_MINIMUM = 20;

/** An hour of the week: weekday 1 = Monday … 7 = Sunday (ISO), hour 0–23, in some zone. */
export interface WeekHour {
  weekday: number;
  hour: number;
}

/**
 * Our defaults, one hour of the week per platform, used until a team has its own history there. They are
 * reelbot's starting points — weekday early evenings for video, office hours for LinkedIn and X — not
 * measurements of anyone's audience; docs/commands.md lists them under "Best time".
 */
export const DEFAULT_BEST: Record<Platform, WeekHour> = {
  youtube: { weekday: 5, hour: 17 },
  tiktok: { weekday: 4, hour: 19 },
  instagram: { weekday: 3, hour: 11 },
  x: { weekday: 3, hour: 9 },
  facebook: { weekday: 3, hour: 13 },
  linkedin: { weekday: 2, hour: 10 },
  threads: { weekday: 2, hour: 12 },
};

/** One past post with the views the analytics report for it. */
export interface PastPost {
  /** When it went out (epoch ms). */
  at: number;
  views: number;
}

/** What decided a platform's hour: its own posts, or our default (with how many posts were known). */
export type BestBasis =
  | { kind: 'history'; posts: number; averageViews: number }
  | { kind: 'default'; posts: number; reason: 'few-posts' | 'no-views' | 'not-covered' };

export interface BestHour extends WeekHour {
  basis: BestBasis;
}

/** The hour of the week `at` falls on in `zone`. */
export function weekHourOf(at: number, zone: string): WeekHour {
  const [weekday, hour] = formatInTimeZone(new Date(at), zone, 'i H').split(' ').map(Number) as [
    number,
    number,
  ];
  return { weekday, hour };
}

/**
 * The platform's best hour from `posts` (read in `zone`), or the default when there are fewer than
 * `HISTORY_MINIMUM`. The winner has the highest average views among the hours that saw at least two posts
 * (any hour when none did), a tie going to the hour with more posts, then the earlier in the week.
 * `viewsKnown` false: the analytics give no per-post views at all (the older shape); `covered` false: the
 * analytics do not report on the platform (X, LinkedIn, Threads). Either is said as such.
 */
export function bestHour(
  platform: Platform,
  history: { posts: readonly PastPost[]; viewsKnown: boolean; covered: boolean },
  zone: string,
): BestHour {
  const { posts } = history;
  if (!history.covered) {
    return { ...DEFAULT_BEST[platform], basis: { kind: 'default', posts: 0, reason: 'not-covered' } };
  }
  if (!history.viewsKnown) {
    return { ...DEFAULT_BEST[platform], basis: { kind: 'default', posts: 0, reason: 'no-views' } };
  }
  if (posts.length < HISTORY_MINIMUM) {
    return {
      ...DEFAULT_BEST[platform],
      basis: { kind: 'default', posts: posts.length, reason: 'few-posts' },
    };
  }
  const buckets = new Map<number, { hour: WeekHour; views: number; count: number }>();
  for (const post of posts) {
    const hour = weekHourOf(post.at, zone);
    const key = hour.weekday * 24 + hour.hour;
    const bucket = buckets.get(key) ?? { hour, views: 0, count: 0 };
    bucket.views += post.views;
    bucket.count += 1;
    buckets.set(key, bucket);
  }
  const all = [...buckets.entries()].map(([key, b]) => ({ key, ...b, average: b.views / b.count }));
  const repeated = all.filter((b) => b.count >= 2);
  const [best] = (repeated.length > 0 ? repeated : all).sort(
    (a, b) => b.average - a.average || b.count - a.count || a.key - b.key,
  );
  if (!best) throw new Error('a history of posts has at least one hour');
  return {
    ...best.hour,
    basis: { kind: 'history', posts: posts.length, averageViews: Math.round(best.average) },
  };
}

/** The first instant after `now` whose wall clock in `zone` reads `weekday` at `hour`:00. */
export function nextOccurrence(hour: WeekHour, zone: string, now: number): number {
  const today = dayKey(now, zone);
  for (let d = 0; d <= 7; d++) {
    const day = addDays(today, d);
    const [year, month, date] = day.split('-').map(Number) as [number, number, number];
    // A calendar day's weekday does not depend on the zone: read it at noon UTC.
    const weekday = ((new Date(Date.UTC(year, month - 1, date, 12)).getUTCDay() + 6) % 7) + 1;
    if (weekday !== hour.weekday) continue;
    const at = fromWallClock({ year, month, day: date, hour: hour.hour, minute: 0 }, zone);
    if (at > now) return at;
  }
  throw new Error('every hour of the week comes round within eight days');
}
