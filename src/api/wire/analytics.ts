import { z } from 'zod';
import type { Analytics } from '../../core/video-api.js';
import { compact, opt } from './common.js';

const Window = z.object({ viewsGained: opt(z.number()), ready: opt(z.boolean()) });

/** `{ rollup, windows, byPlatform, topPosts, totals, timeseriesReady }` (spec §4). */
const NewerAnalyticsWire = z
  .object({
    rangeDays: opt(z.number()),
    rollup: opt(
      z.object({
        rangeDays: opt(z.number()),
        viewsGained: opt(z.number()),
        totalViews: opt(z.number()),
        postsSynced: opt(z.number()),
        ready: opt(z.boolean()),
      }),
    ),
    windows: opt(z.object({ d7: opt(Window), d28: opt(Window) })),
    byPlatform: opt(
      z.record(
        z.string(),
        z.object({ totalViews: z.number(), postsSynced: z.number(), viewsGained28d: opt(z.number()) }),
      ),
    ),
    topPosts: opt(
      z.array(
        z.object({ platform: z.string(), title: z.string(), views: z.number(), postUrl: opt(z.string()) }),
      ),
    ),
    totals: opt(
      z.object({ totalViews: opt(z.number()), postsSynced: opt(z.number()), posts7d: opt(z.number()) }),
    ),
    timeseriesReady: opt(z.boolean()),
  })
  .refine((d) => d.rollup !== undefined || d.totals?.totalViews !== undefined, {
    message: 'expected rollup or totals.totalViews (newer analytics shape)',
  })
  .transform((d) => ({ shape: 'newer' as const, ...d }));

/** The earlier shape: `{ totals{posts, views, likes}, platforms{<p>{posts, views}} }`. */
const OlderAnalyticsWire = z
  .object({
    rangeDays: opt(z.number()),
    totals: z.object({ posts: z.number(), views: z.number(), likes: opt(z.number()) }),
    platforms: opt(z.record(z.string(), z.object({ posts: z.number(), views: z.number() }))),
  })
  .transform((d) => ({ shape: 'older' as const, ...d }));

export const AnalyticsWire = z.union([NewerAnalyticsWire, OlderAnalyticsWire]);

/** Both shapes into the one domain type; `requestedRange` fills a missing `rangeDays`. */
export function toAnalytics(wire: z.output<typeof AnalyticsWire>, requestedRange?: number): Analytics {
  if (wire.shape === 'older') {
    const byPlatform: Analytics['byPlatform'] = {};
    for (const [platform, p] of Object.entries(wire.platforms ?? {})) {
      byPlatform[platform] = { totalViews: p.views, postsSynced: p.posts };
    }
    return compact({
      rangeDays: wire.rangeDays ?? requestedRange ?? 30,
      totalViews: wire.totals.views,
      postsSynced: wire.totals.posts,
      likes: wire.totals.likes,
      ready: true,
      byPlatform,
      topPosts: [],
    });
  }
  const rangeDays = wire.rangeDays ?? wire.rollup?.rangeDays ?? requestedRange ?? 28;
  const window = rangeDays === 7 ? wire.windows?.d7 : rangeDays === 28 ? wire.windows?.d28 : undefined;
  const byPlatform: Analytics['byPlatform'] = {};
  for (const [platform, p] of Object.entries(wire.byPlatform ?? {})) byPlatform[platform] = compact(p);
  return compact({
    rangeDays,
    totalViews: wire.totals?.totalViews ?? wire.rollup?.totalViews ?? 0,
    viewsGained: wire.rollup?.viewsGained ?? window?.viewsGained,
    postsSynced: wire.totals?.postsSynced ?? wire.rollup?.postsSynced ?? 0,
    posts7d: wire.totals?.posts7d,
    ready: wire.rollup?.ready ?? window?.ready ?? true,
    byPlatform,
    topPosts: (wire.topPosts ?? []).map((post) => compact(post)),
  });
}
