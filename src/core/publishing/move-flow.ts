/**
 * Scheduling again never doubles a post. Before a schedule goes out, the video's pending posts on
 * those platforms are read (pending-posts.ts); if there are any, the member is asked: Move it / Keep both /
 * Cancel. Keep both schedules as asked. Move — and `reschedule` — cancels and schedules again.
 *
 * DELETE /posts/{video} cancels EVERY pending post of the video, not one platform's, so a Move cancels them
 * all, schedules again the platforms that stay at their own times, then the moved ones at the new time: one
 * pending post per moved platform, at the new time. Each of those schedules has its own key derived from the
 * Move's (a key of its own, never the original schedule's), and a Move that already went through (a second
 * click, a retry) finds its posts where it put them and cancels nothing again.
 */

import { type CommandContext, UserError, userError } from '../dispatch/context.js';
import { writeDoneAt } from '../dispatch/request-id.js';
import { updateVideoCard } from '../live/projections.js';
import { stopScheduleWatch } from '../live/schedule-watcher.js';
import { platformName } from '../platforms/names.js';
import type { Card, Field } from '../text/cards.js';
import { command, literal, md } from '../text/text.js';
import { formatBoth, formatShortDateTime, formatTime } from '../time/format.js';
import { dayKey } from '../time/zone.js';
import { type Platform, type Video, VideoApiError } from '../video-api/video-api.js';
import { encodeSchedule, type PendingSchedule } from './action-state.js';
import { type PendingPost, readPendingPosts } from './pending-posts.js';
import { type ScheduleSend, sendSchedule } from './schedule-flow.js';

/** The buttons of the "already scheduled" question (schedule-choice.ts answers them). */
export const SCHEDULE_CHOICE = {
  move: 'schedule.move',
  keep: 'schedule.keep',
  cancel: 'schedule.cancel',
} as const;

/** A post that stays must be far enough ahead to be cancelled and scheduled again at its own time. */
const MOVE_LEAD_MS = 2 * 60_000;

/** `X at Tue 24 Nov 2026, 09:00 UTC and Tue 24 Nov 2026, 11:00 UTC; YouTube at …` */
export function describePosts(posts: readonly PendingPost[], zone: string): string {
  const byPlatform = new Map<Platform, number[]>();
  for (const p of posts) byPlatform.set(p.platform, [...(byPlatform.get(p.platform) ?? []), p.at]);
  return [...byPlatform.entries()]
    .map(
      ([platform, times]) =>
        `${platformName(platform)} at ${times.map((t) => formatBoth(t, zone)).join(' and ')}`,
    )
    .join('; ');
}

/**
 * "Octo is already scheduled on X at 09:00 — Move it to 11:00 / Keep both / Cancel". The buttons carry the
 * schedule and the request id minted for this question: Move and Keep both each key their own action on it.
 */
export function alreadyScheduledCard(
  video: Video,
  q: { pending: PendingSchedule & { requestId: string }; clashes: readonly PendingPost[]; zone: string },
): Card {
  const { pending, clashes, zone } = q;
  const first = clashes[0]?.at ?? pending.at;
  const sameDay = dayKey(first, zone) === dayKey(pending.at, zone);
  const to = sameDay ? formatTime(pending.at, zone) : formatShortDateTime(pending.at, zone);
  const value = encodeSchedule(pending);
  const one = clashes.length === 1;
  return {
    title: md`Already scheduled`,
    tone: 'warning',
    text: md`**${literal(video.name)}** is already scheduled on ${literal(describePosts(clashes, zone))}.\n**Move** cancels ${one ? md`that post` : md`those posts`} and schedules ${literal(pending.platforms.map(platformName).join(', '))} at ${literal(formatBoth(pending.at, zone))} (other platforms keep their times). **Keep both** adds the new post beside it. Scheduling is checked for approval as usual.`,
    controls: [
      { kind: 'button', action: SCHEDULE_CHOICE.move, value, label: `Move it to ${to}`, style: 'primary' },
      { kind: 'button', action: SCHEDULE_CHOICE.keep, value, label: 'Keep both' },
      { kind: 'button', action: SCHEDULE_CHOICE.cancel, value, label: 'Cancel' },
    ],
  };
}

/** Whether the pending posts of the platforms asked are exactly one each, at the time asked. */
export function isExactly(
  posts: readonly PendingPost[],
  asked: { platforms: readonly Platform[]; at: number },
) {
  return asked.platforms.every((platform) => {
    const on = posts.filter((p) => p.platform === platform);
    return on.length === 1 && on[0]?.at === asked.at;
  });
}

/** The answer when exactly the schedule asked for is already pending: nothing is sent. */
export function alreadyThereCard(
  video: Video,
  s: { platforms: readonly Platform[]; at: number; zone: string },
): Card {
  return {
    title: md`Scheduled`,
    tone: 'info',
    text: md`**${literal(video.name)}** is already scheduled on ${literal(s.platforms.map(platformName).join(', '))} at **${literal(formatBoth(s.at, s.zone))}**: nothing new was sent, so it posts once.`,
    context: md`The video card here lists every scheduled time. Cancel with ${command('unschedule', [video.name])}.`,
  };
}

/** The approval card's line for a Move: what is pending now, which the move cancels. */
export async function moveFields(ctx: CommandContext, s: ScheduleSend): Promise<Field[]> {
  const moving = (await readPendingPosts(ctx, s.video.id)).filter((p) => s.platforms.includes(p.platform));
  if (moving.length === 0) return [];
  return [{ label: md`Moves`, value: literal(describePosts(moving, await ctx.timeZone())) }];
}

/**
 * Moves the video's posts on `s.platforms` to `s.at` (see the file comment): under the caller's key, with the
 * Move's key. Nothing pending there any more: scheduled as asked.
 */
export async function sendMove(ctx: CommandContext, s: ScheduleSend): Promise<Card> {
  const { video } = s;
  const zone = await ctx.timeZone();
  const pending = await readPendingPosts(ctx, video.id);
  const moving = pending.filter((p) => s.platforms.includes(p.platform));
  const staying = pending.filter((p) => !s.platforms.includes(p.platform));
  const send: ScheduleSend = { ...s, move: false };
  const there = isExactly(moving, s);
  // Already where it was asked to be, or this Move went through before (a second click): nothing is cancelled.
  if (there || (await writeDoneAt(ctx.deps, s.idempotencyKey)) !== undefined) {
    return movedCard(video, { moving: [], staying, to: s, zone, already: true });
  }
  if (moving.length === 0) return sendSchedule(ctx, send);
  const due = staying.find((p) => p.at <= ctx.now() + MOVE_LEAD_MS);
  if (due) {
    throw userError('move-other-due', {
      name: video.name,
      platform: platformName(due.platform),
      when: formatBoth(due.at, zone),
    });
  }

  try {
    const api = await ctx.api();
    await api.posts.cancel(video.id);
  } catch (error) {
    if (error instanceof VideoApiError && error.type === 'conflict')
      throw userError('move-nothing-left', { name: video.name });
    throw error;
  }
  await recordCancel(ctx, { send: s, moving, zone });

  // The service cancelled every platform: those that stay are scheduled again at their own times first.
  const times = new Map<number, Platform[]>();
  for (const p of staying) times.set(p.at, [...(times.get(p.at) ?? []), p.platform]);
  const groups: { at: number; platforms: Platform[]; key: string }[] = [];
  for (const [at, platforms] of times) {
    const key = await ctx.deps.store.idempotency.keyFor(`${s.idempotencyKey}:stays:${at}`);
    groups.push({ at, platforms, key });
  }
  groups.push({ at: s.at, platforms: s.platforms, key: s.idempotencyKey });
  for (const [i, g] of groups.entries()) {
    try {
      await sendSchedule(ctx, { ...send, platforms: g.platforms, at: g.at, idempotencyKey: g.key });
    } catch (error) {
      // A schedule the service took but not recorded here is replayed later (effect-unsaved): the rest is lost.
      const unsaved = error instanceof UserError && error.code === 'effect-unsaved';
      const lost = groups
        .slice(unsaved ? i + 1 : i)
        .flatMap((x) => x.platforms.map((platform) => ({ platform, at: x.at })));
      ctx.deps.logger.warn({ err: error, videoId: video.id }, 'a move could not schedule everything again');
      if (lost.length === 0) throw error;
      throw userError('move-incomplete', { name: video.name, lost: describePosts(lost, zone) });
    }
  }
  return movedCard(video, { moving, staying, to: s, zone, already: false });
}

/** After the cancel: the watch stops (the schedules sent next start it again) and the audit says what moved. */
async function recordCancel(
  ctx: CommandContext,
  r: { send: ScheduleSend; moving: readonly PendingPost[]; zone: string },
): Promise<void> {
  const { send: s, moving } = r;
  const store = ctx.deps.store;
  await store.transaction(async () => {
    await stopScheduleWatch(store, s.video.id);
    await updateVideoCard(store, s.video.id, {
      patch: { schedule: undefined },
      dedupeKey: `reschedule:${s.video.id}:${s.idempotencyKey}`,
    });
    await store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'video.reschedule',
      videoId: s.video.id,
      details: {
        platforms: s.platforms,
        from: moving.map((p) => ({ platform: p.platform, scheduledTime: new Date(p.at).toISOString() })),
        scheduledTime: new Date(s.at).toISOString(),
        ...(s.approval ? { approval: s.approval.id } : {}),
      },
    });
  });
}

function movedCard(
  video: Video,
  m: {
    moving: readonly PendingPost[];
    staying: readonly PendingPost[];
    to: ScheduleSend;
    zone: string;
    already: boolean;
  },
): Card {
  const { moving, staying, to, zone } = m;
  const where = to.platforms.map(platformName).join(', ');
  const from = moving.length > 0 ? md` (was ${literal(describePosts(moving, zone))})` : md``;
  const kept = staying.length > 0 ? md`\nUnchanged: ${literal(describePosts(staying, zone))}.` : md``;
  return {
    title: m.already ? md`Already moved` : md`Moved`,
    tone: 'success',
    text: md`**${literal(video.name)}** will post to ${literal(where)} on **${literal(formatBoth(to.at, zone))}**${from}.${kept}`,
    context: md`The video card here lists every scheduled time. Cancel with ${command('unschedule', [video.name])}.`,
  };
}
