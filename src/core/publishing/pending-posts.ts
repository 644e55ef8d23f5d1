/**
 * What a video still has scheduled at the service, read from GET /calendar: the one place `schedule`,
 * `reschedule` and a Move learn which posts are pending before they add or cancel any.
 *
 * The calendar's dates are whole UTC days, inclusive: the window starts the UTC day before now (a post due a
 * moment ago may still wait for its render) and ends the UTC day after the latest time a post may be scheduled
 * for (a year ahead), so every pending post of the video is in it, whatever the caller's zone.
 */
import type { CommandContext } from '../dispatch/context.js';
import { latestSchedulable } from '../time/parse.js';
import { dayKey } from '../time/zone.js';
import { PLATFORMS, type Platform } from '../video-api/video-api.js';

const DAY = 24 * 3600_000;

/** One post waiting at the service. */
export interface PendingPost {
  platform: Platform;
  /** Scheduled instant (ms). */
  at: number;
}

const isPlatform = (v: string): v is Platform => (PLATFORMS as readonly string[]).includes(v);

/** The video's scheduled posts, soonest first (read tolerantly: an entry without a readable time is left out). */
export async function readPendingPosts(ctx: CommandContext, videoId: string): Promise<PendingPost[]> {
  const now = ctx.now();
  const api = await ctx.api();
  const entries = await api.posts.calendar({
    startDate: dayKey(now - DAY, 'UTC'),
    endDate: dayKey(latestSchedulable(now) + DAY, 'UTC'),
    status: 'scheduled',
  });
  return entries
    .filter((e) => e.projectId === videoId && e.status === 'scheduled' && isPlatform(e.platform))
    .map((e) => ({ platform: e.platform as Platform, at: Date.parse(e.scheduledTime) }))
    .filter((p) => Number.isFinite(p.at))
    .sort((a, b) => a.at - b.at);
}
