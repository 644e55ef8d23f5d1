/**
 * The queue as the service and the settings hold it: each platform's slots and daily cap (the channel's own,
 * set with `--here`, else the workspace's), and what is taken — the team's posts on the calendar (GET
 * /calendar) and the posting times of its active series (GET /series, /series/{id}).
 *
 * The calendar names no account, and POST /posts/schedule takes none: a scheduled post goes to the platform's
 * default account, so every calendar entry of a platform is counted as that account's. A series names its
 * accounts (`destinationAccounts`); it occupies its times when it posts to the platform's default account (or
 * names none, which is the default).
 */

import { storedPolicy } from '../approvals/workspace-policy.js';
import type { CommandContext } from '../dispatch/context.js';
import { userError } from '../dispatch/context.js';
import { PLATFORM_NAMES } from '../platforms/names.js';
import { workspaceOf } from '../ports/address.js';
import type { QueueSettings, SlotRule } from '../ports/index.js';
import { daysOf } from '../series/cadence.js';
import { dayKey } from '../time/zone.js';
import { type Platform, VideoApiError } from '../video-api/video-api.js';
import {
  type Conflict,
  conflictAt,
  nextFreeSlot,
  type Occupancy,
  SLOT_HORIZON_DAYS,
  SLOTS_EXAMPLE,
  slotInstants,
} from './slots.js';

const nameOf = (p: Platform): string => PLATFORM_NAMES[p] ?? p;

const DAY = 24 * 3600_000;
/** Series read for their posting times, at most (each one GET). */
const MAX_SERIES = 10;

/** The queue this conversation follows: per platform, its own slots and cap where set, else the workspace's. */
export async function queueHere(ctx: CommandContext): Promise<Required<QueueSettings>> {
  const { store } = ctx.deps;
  const ws = (await storedPolicy(store, workspaceOf(ctx.req.conversation))).queue ?? {};
  const own = (await store.settings.get(ctx.req.conversation)).ownQueue ?? {};
  return {
    slots: { ...ws.slots, ...own.slots },
    dailyCaps: { ...ws.dailyCaps, ...own.dailyCaps },
  };
}

/** Instants taken per platform from `from` on, leaving out the posts of `exceptVideo` (it is the one moving). */
export async function readTaken(
  ctx: CommandContext,
  q: { platforms: readonly Platform[]; from: number; exceptVideo?: string },
): Promise<Map<Platform, number[]>> {
  const api = await ctx.api();
  const entries = await api.posts.calendar({
    startDate: dayKey(q.from - DAY, 'UTC'),
    endDate: dayKey(q.from + (SLOT_HORIZON_DAYS + 2) * DAY, 'UTC'),
  });
  const taken = new Map<Platform, number[]>(q.platforms.map((p) => [p, []]));
  for (const e of entries) {
    const at = Date.parse(e.scheduledTime);
    // A failed post went nowhere; a cancelled one is not listed.
    if (e.projectId === q.exceptVideo || e.status === 'failed' || !Number.isFinite(at)) continue;
    taken.get(e.platform as Platform)?.push(at);
  }
  for (const [platform, times] of await readableSeriesTimes(ctx, q.platforms, q.from)) {
    const list = taken.get(platform) ?? [];
    // An episode already on the calendar is the same post as the series time it came from.
    for (const t of times) if (!list.some((x) => Math.abs(x - t) < 60_000)) list.push(t);
  }
  for (const list of taken.values()) list.sort((a, b) => a - b);
  return taken;
}

/**
 * `seriesTimes`, or none when the key may not read series (or accounts): a key made for posting alone still
 * schedules, its clashes checked against the calendar only.
 */
async function readableSeriesTimes(
  ctx: CommandContext,
  platforms: readonly Platform[],
  from: number,
): Promise<Map<Platform, number[]>> {
  try {
    return await seriesTimes(ctx, platforms, from);
  } catch (error) {
    if (!(error instanceof VideoApiError && error.type === 'forbidden_scope')) throw error;
    ctx.deps.logger.info({ type: error.type }, 'series unreadable for the queue; the calendar alone counts');
    return new Map();
  }
}

/** The posting times of the team's active series that post to one of `platforms` (its default account). */
async function seriesTimes(
  ctx: CommandContext,
  platforms: readonly Platform[],
  from: number,
): Promise<Map<Platform, number[]>> {
  const api = await ctx.api();
  const active = (await api.series.list()).filter((s) => s.paused !== true).slice(0, MAX_SERIES);
  const out = new Map<Platform, number[]>();
  let defaults: Map<string, string | undefined> | undefined;
  for (const summary of active) {
    const s = await api.series.get(summary.id);
    const platform = s.destination as Platform | undefined;
    if (s.paused || !s.autoPostTime || !platform || !platforms.includes(platform)) continue;
    if (s.destinationAccounts && s.destinationAccounts.length > 0) {
      defaults ??= new Map(
        Object.entries(await api.accounts.list()).map(([p, list]) => [
          p,
          list.find((a) => a.isDefault)?.authId,
        ]),
      );
      const def = defaults.get(platform);
      if (def !== undefined && !s.destinationAccounts.includes(def)) continue;
    }
    const rule: SlotRule = {
      days: daysOf(s.postingDays),
      times: [s.autoPostTime],
      zone: s.timezone ?? 'UTC',
    };
    out.set(platform, [...(out.get(platform) ?? []), ...slotInstants(rule, from).filter((t) => t > from)]);
  }
  return out;
}

/** One platform's queue and what is taken on it. */
export interface PlatformQueue {
  platform: Platform;
  rule?: SlotRule | undefined;
  occupancy: Occupancy;
}

/** The queue of each of `platforms`: slots, cap, and what is taken (one calendar read for all). */
export async function readQueues(
  ctx: CommandContext,
  q: { platforms: readonly Platform[]; exceptVideo?: string },
): Promise<PlatformQueue[]> {
  const queue = await queueHere(ctx);
  const taken = await readTaken(ctx, { ...q, from: ctx.now() });
  const zone = await ctx.timeZone();
  return q.platforms.map((platform) => {
    const rule = queue.slots[platform];
    return {
      platform,
      rule,
      occupancy: {
        taken: taken.get(platform) ?? [],
        cap: queue.dailyCaps[platform],
        zone: rule?.zone ?? zone,
      },
    };
  });
}

/**
 * Each platform's next free slot, for `schedule … next`: a platform with no slots is refused with how to set
 * them, one with no free slot within the horizon too.
 */
export async function nextSlots(
  ctx: CommandContext,
  q: { platforms: readonly Platform[]; videoId: string },
): Promise<Map<Platform, number>> {
  const queue = await queueHere(ctx);
  const unset = q.platforms.find((p) => queue.slots[p] === undefined);
  if (unset)
    throw userError('slots-not-set', { platform: nameOf(unset), value: unset, example: SLOTS_EXAMPLE });
  const out = new Map<Platform, number>();
  for (const { platform, rule, occupancy } of await readQueues(ctx, { ...q, exceptVideo: q.videoId })) {
    const at = rule ? nextFreeSlot(rule, occupancy, ctx.now()) : undefined;
    if (at === undefined)
      throw userError('slots-full', { platform: nameOf(platform), value: platform, days: SLOT_HORIZON_DAYS });
    out.set(platform, at);
  }
  return out;
}

/** The clashes and caps a schedule at `at` would meet, per platform (none: an empty list). */
export async function conflictsOf(
  ctx: CommandContext,
  q: { platforms: readonly Platform[]; videoId: string; at: number },
): Promise<{ platform: Platform; conflict: Conflict; next?: number | undefined }[]> {
  const queues = await readQueues(ctx, { platforms: q.platforms, exceptVideo: q.videoId });
  return queues.flatMap(({ platform, rule, occupancy }) => {
    const conflict = conflictAt(q.at, occupancy);
    if (!conflict) return [];
    return [{ platform, conflict, next: rule ? nextFreeSlot(rule, occupancy, ctx.now()) : undefined }];
  });
}
