import { z } from 'zod';
import type { Analytics } from '../../core/video-api/video-api.js';
import {
  compact,
  optBoolean,
  optList,
  optNumber,
  optPart,
  optRecord,
  optText,
  optUrl,
  reqNumber,
  reqText,
  shapeOf,
} from './common.js';

const WindowWire = z.object({ viewsGained: optNumber(), ready: optBoolean() });

/** `{ rollup, windows, byPlatform, topPosts, totals }` (spec §4); total views from `totals` or `rollup`. */
const NewerAnalyticsWire = z
  .object({
    rangeDays: optNumber(),
    rollup: optPart(
      z.object({
        rangeDays: optNumber(),
        viewsGained: optNumber(),
        totalViews: optNumber(),
        postsSynced: optNumber(),
        ready: optBoolean(),
      }),
    ),
    windows: optPart(z.object({ d7: optPart(WindowWire), d28: optPart(WindowWire) })),
    byPlatform: optRecord(
      z.object({ totalViews: reqNumber(), postsSynced: optNumber(), viewsGained28d: optNumber() }),
    ),
    topPosts: optList(
      z.object({ platform: reqText(), title: optText(), views: reqNumber(), postUrl: optUrl() }),
    ),
    totals: optPart(z.object({ totalViews: optNumber(), postsSynced: optNumber(), posts7d: optNumber() })),
  })
  .refine((d) => d.totals?.totalViews !== undefined || d.rollup?.totalViews !== undefined, {
    message: 'expected totals.totalViews or rollup.totalViews',
    path: ['totals', 'totalViews'],
  })
  .transform((d) => ({ shape: 'newer' as const, ...d }));

/** The earlier shape: `{ totals{posts, views, likes}, platforms{<p>{posts, views}} }`. */
const OlderAnalyticsWire = z
  .object({
    rangeDays: optNumber(),
    totals: z.object({ posts: optNumber(), views: reqNumber(), likes: optNumber() }),
    platforms: optRecord(z.object({ posts: optNumber(), views: reqNumber() })),
  })
  .transform((d) => ({ shape: 'older' as const, ...d }));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The older shape names its totals `views`/`posts`/`likes` and has no rollup; anything else is the newer one. */
function isOlder(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { totals, platforms, rollup } = value;
  if (rollup !== undefined && rollup !== null) return false;
  if (isObject(totals))
    return !('totalViews' in totals) && ['views', 'posts', 'likes'].some((k) => k in totals);
  return platforms !== undefined && platforms !== null;
}

export const AnalyticsWire = shapeOf((value) => (isOlder(value) ? OlderAnalyticsWire : NewerAnalyticsWire));

/** Both shapes into the one domain type; `requestedRange` fills a missing `rangeDays`. */
export function toAnalytics(wire: z.output<typeof AnalyticsWire>, requestedRange?: number): Analytics {
  if (wire.shape === 'older') {
    const byPlatform: Analytics['byPlatform'] = {};
    for (const [platform, p] of Object.entries(wire.platforms ?? {})) {
      byPlatform[platform] = { totalViews: p.views, postsSynced: p.posts ?? 0 };
    }
    return compact({
      rangeDays: wire.rangeDays ?? requestedRange ?? 30,
      totalViews: wire.totals.views,
      postsSynced: wire.totals.posts ?? 0,
      likes: wire.totals.likes,
      ready: true,
      byPlatform,
      topPosts: [],
    });
  }
  const rangeDays = wire.rangeDays ?? wire.rollup?.rangeDays ?? requestedRange ?? 28;
  const window = rangeDays === 7 ? wire.windows?.d7 : rangeDays === 28 ? wire.windows?.d28 : undefined;
  const byPlatform: Analytics['byPlatform'] = {};
  for (const [platform, p] of Object.entries(wire.byPlatform ?? {})) {
    byPlatform[platform] = compact({ ...p, postsSynced: p.postsSynced ?? 0 });
  }
  return compact({
    rangeDays,
    totalViews: wire.totals?.totalViews ?? wire.rollup?.totalViews ?? 0,
    viewsGained: wire.rollup?.viewsGained ?? window?.viewsGained,
    postsSynced: wire.totals?.postsSynced ?? wire.rollup?.postsSynced ?? 0,
    posts7d: wire.totals?.posts7d,
    ready: wire.rollup?.ready ?? window?.ready ?? true,
    byPlatform,
    topPosts: (wire.topPosts ?? []).map((post) =>
      compact({ ...post, title: post.title ?? post.postUrl ?? '' }),
    ),
  });
}
