/**
 * The team's posting history on one platform, for `schedule … best`: when its posts went out joined with the
 * views the analytics report for them (GET /analytics `topPosts` of the last 90 days).
 *
 * - Posts published now from this workspace are in its audit log with the `postUrl` the service answered:
 *   joined with a top post by that URL, exactly.
 * - Scheduled posts are the `posted` entries of GET /calendar (the same 90 days). The contract gives a
 *   calendar entry and a top post no shared key (one names its video, the other its title): such a post is
 *   joined when its title is its video's name (the title the post forms start from) and exactly one post of
 *   that platform carries it (video-api/top-posts.ts). The rest are left out rather than guessed; no top
 *   post counts twice.
 *
 * Polite to the rate budget: two reads per platform, the video names paged 100 at a time and only as far as
 * needed, and the result kept per team key for half an hour.
 */
import type { CommandContext } from '../dispatch/context.js';
import { workspaceOf } from '../ports/address.js';
import { dayKey } from '../time/zone.js';
import { topPostsByTitle } from '../video-api/top-posts.js';
import { ANALYTICS_PLATFORMS, type Platform } from '../video-api/video-api.js';
import type { PastPost } from './best-time.js';

/** How far back the history reaches: the analytics' longest window. */
const RANGE_DAYS = 90;
/** The video names are read at most this many pages of 100 deep. */
const NAME_PAGES = 5;
const KEEP_MS = 30 * 60_000;
/** The audit rows read for posts published now (the store's most per query). */
const AUDIT_ROWS = 1000;

export interface PlatformHistory {
  posts: PastPost[];
  /** False when the analytics report posts but no per-post views (their older shape). */
  viewsKnown: boolean;
  /** False for a platform the analytics do not report on. */
  covered: boolean;
}

const hasAnalytics = (p: Platform): boolean => (ANALYTICS_PLATFORMS as readonly string[]).includes(p);

/** The platform's joined history, cached per team key. */
export async function readPostHistory(ctx: CommandContext, platform: Platform): Promise<PlatformHistory> {
  if (!hasAnalytics(platform)) return { posts: [], viewsKnown: false, covered: false };
  return ctx.deps.catalog.remember(
    await ctx.apiKeyId(),
    { name: `best-time:${platform}`, ttlMs: KEEP_MS },
    () => loadHistory(ctx, platform),
  );
}

async function loadHistory(ctx: CommandContext, platform: Platform): Promise<PlatformHistory> {
  const api = await ctx.api();
  const analytics = await api.analytics.get({
    platform: platform as (typeof ANALYTICS_PLATFORMS)[number],
    range: RANGE_DAYS,
  });
  const top = analytics.topPosts.filter((p) => p.platform === platform);
  // Posts counted but none listed with its views: nothing to join (the older analytics shape).
  if (top.length === 0) return { posts: [], viewsKnown: analytics.postsSynced === 0, covered: true };
  const now = ctx.now();
  const from = now - RANGE_DAYS * 86_400_000;
  const posts: PastPost[] = [];
  const byUrl = new Map(top.filter((p) => p.postUrl).map((p) => [p.postUrl, p]));
  const joined = new Set<string>();
  for (const { at, postUrl } of await publishedHere(ctx, platform, from)) {
    const views = byUrl.get(postUrl)?.views;
    if (views === undefined || joined.has(postUrl)) continue;
    posts.push({ at, views });
    joined.add(postUrl);
  }
  const entries = await api.posts.calendar({
    startDate: dayKey(from, 'UTC'),
    endDate: dayKey(now, 'UTC'),
    platform,
    status: 'posted',
  });
  const names = await videoNames(ctx, new Set(entries.map((e) => e.projectId)));
  const viewsByTitle = topPostsByTitle(top, joined);
  const postedByName = uniqueBy(entries, (e) => names.get(e.projectId)?.trim() ?? '');
  for (const [name, entry] of postedByName) {
    const views = viewsByTitle.get(name)?.views;
    const at = Date.parse(entry.scheduledTime);
    if (name !== '' && views !== undefined && Number.isFinite(at)) posts.push({ at, views });
  }
  return { posts, viewsKnown: true, covered: true };
}

/** The posts published now from this workspace on `platform` since `from`, with the URL the service gave. */
async function publishedHere(
  ctx: CommandContext,
  platform: Platform,
  from: number,
): Promise<{ at: number; postUrl: string }[]> {
  const entries = await ctx.deps.store.audit.list({
    workspacePrefix: workspaceOf(ctx.req.conversation),
    from,
    limit: AUDIT_ROWS,
  });
  return entries.flatMap((e) => {
    const { platform: p, postUrl } = e.details ?? {};
    return e.action === 'video.publish' && p === platform && typeof postUrl === 'string'
      ? [{ at: e.at, postUrl }]
      : [];
  });
}

/** Items by key, leaving out every key that more than one item shares (it could not be joined surely). */
function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T> {
  const seen = new Map<string, T | null>();
  for (const item of items) {
    const key = keyOf(item);
    seen.set(key, seen.has(key) ? null : item);
  }
  return new Map([...seen].filter((e): e is [string, T] => e[1] !== null));
}

/** The names of `ids`, reading the video list (newest first) only until all are found. */
async function videoNames(ctx: CommandContext, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const api = await ctx.api();
  for (let page = 1; page <= NAME_PAGES && names.size < ids.size; page++) {
    const { items, pagination } = await api.videos.list({ page, limit: 100 });
    for (const v of items) if (ids.has(v.id)) names.set(v.id, v.name);
    if (items.length === 0 || page * pagination.limit >= pagination.total) break;
  }
  return names;
}
