import { z } from 'zod';
import { viewsAt } from '../jobs/posting.js';
import type { PublishedRec } from '../records.js';
import type { Route } from '../router.js';
import { ANALYTICS_PLATFORMS, ANALYTICS_RANGES, type AnalyticsPlatform, DAY } from '../vocabulary.js';
import { defineRoute, ok } from './define.js';

const analyticsQuery = z.strictObject({
  platform: z.enum(ANALYTICS_PLATFORMS).optional(),
  authId: z.string().min(1).optional(),
  range: z
    .enum(ANALYTICS_RANGES.map(String) as [string, ...string[]])
    .transform(Number)
    .default(28),
});

/**
 * How many posts `topPosts` lists, most viewed first. The spec leaves the length open; a generous cap lets a
 * client that joins them with the calendar (reelbot's best time) see a team's whole recent history.
 */
const TOP_POSTS = 100;

const isAnalyticsPlatform = (p: string): p is AnalyticsPlatform =>
  (ANALYTICS_PLATFORMS as readonly string[]).includes(p);

/** Views gained by `posts` over the trailing window of `days`. */
function gained(posts: readonly PublishedRec[], now: number, days: number): number {
  const from = now - days * DAY;
  return posts.reduce((sum, p) => sum + viewsAt(p, now) - viewsAt(p, from), 0);
}

const total = (posts: readonly PublishedRec[], now: number): number =>
  posts.reduce((s, p) => s + viewsAt(p, now), 0);

/** GET /analytics in the newer shape of spec §4, computed from the posts the simulator published. */
export const analyticsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    pattern: '/analytics',
    scope: 'analytics:read',
    query: analyticsQuery,
    handle: ({ engine, team, now }, { query }) => {
      const posts = engine.store.published.filter(
        (p) =>
          p.teamId === team.id &&
          isAnalyticsPlatform(p.platform) &&
          (query.platform === undefined || p.platform === query.platform) &&
          (query.authId === undefined || p.authId === query.authId),
      );
      const rangeDays = query.range;
      const byPlatform: Record<string, { totalViews: number; postsSynced: number; viewsGained28d: number }> =
        {};
      for (const platform of ANALYTICS_PLATFORMS) {
        if (query.platform !== undefined && platform !== query.platform) continue;
        const mine = posts.filter((p) => p.platform === platform);
        byPlatform[platform] = {
          totalViews: total(mine, now),
          postsSynced: mine.length,
          viewsGained28d: gained(mine, now, 28),
        };
      }
      const topPosts = posts
        .map((p) => ({ platform: p.platform, title: p.title, views: viewsAt(p, now), postUrl: p.postUrl }))
        .sort((a, b) => b.views - a.views)
        .slice(0, TOP_POSTS);
      const totalViews = total(posts, now);
      return ok({
        rangeDays,
        rollup: {
          rangeDays,
          viewsGained: gained(posts, now, rangeDays),
          totalViews,
          postsSynced: posts.length,
          ready: true,
        },
        windows: {
          d7: { viewsGained: gained(posts, now, 7), ready: true },
          d28: { viewsGained: gained(posts, now, 28), ready: true },
        },
        byPlatform,
        topPosts,
        totals: {
          totalViews,
          postsSynced: posts.length,
          posts7d: posts.filter((p) => p.at > now - 7 * DAY).length,
        },
        timeseriesReady: true,
      });
    },
  }),
];
