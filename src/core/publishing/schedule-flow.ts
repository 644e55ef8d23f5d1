/**
 * Scheduling once the what/where/when are known, shared by `schedule`, the Schedule button's form and the
 * metadata forms it opens: every platform needs its metadata block on the video, so a missing one opens
 * that platform's form (carrying the pending schedule) instead of failing; the last form sent continues
 * here and the schedule goes out with the key of the action that started it.
 */

import { needsApproval } from '../approvals/policy.js';
import { requestApproval } from '../approvals/request.js';
import { checkRole } from '../approvals/roles.js';
import { type CommandContext, userError } from '../dispatch/context.js';
import { actionKey, newRequestId, TYPED_RETRY_WINDOW_MS } from '../dispatch/request-id.js';
import { type RemoteEffect, remoteEffect } from '../effects/remote-effect.js';
import type { PostOrigin } from '../live/post-failure.js';
import { scheduleCardPart, watchSchedule } from '../live/schedule-watcher.js';
import { platformName } from '../platforms/post-blocks.js';
import { workspaceOf } from '../ports/address.js';
import { type Card, message, type Response } from '../text/cards.js';
import { readOrNotFound } from '../text/not-found.js';
import { command, joinText, literal, md } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import { schedulable } from '../time/parse.js';
import type { Platform, Video } from '../video-api/video-api.js';
import type { PendingSchedule } from './action-state.js';
import { syncVideoCard } from './card-sync.js';
import { metaForm } from './meta-form.js';
import { alreadyScheduledCard, alreadyThereCard, isExactly, moveFields, sendMove } from './move-flow.js';
import { readPendingPosts } from './pending-posts.js';
import { contentOf } from './post-retry.js';
import { scheduleApproval, scheduleArgs, scheduleBody } from './publication.js';
import { scheduleInSlots, slotWarning } from './slots-flow.js';

/** Reads a video by id; a vanished one is the usual not-found message. */
export const getVideo = (ctx: CommandContext, id: string): Promise<Video> =>
  readOrNotFound(async () => (await ctx.api()).videos.get(id), 'not-found-video', id);

export async function runSchedule(ctx: CommandContext, pending: PendingSchedule): Promise<Response> {
  await checkRole(ctx, 'publish');
  const video = await getVideo(ctx, pending.videoId);
  if (video.status === 'failed') throw userError('schedule-video-failed', { name: video.name });
  // A form sent late, or a reschedule: the time is checked again now (past, or more than a year ahead).
  // (`next` carries no time of its own: its slots are found once the post details are there.)
  const time = pending.next ? undefined : schedulable(pending.at, await ctx.timeZone(), ctx.now());
  if (time && !time.ok) throw time.error;

  const missing = pending.platforms.filter((p) => video.posts[p] === undefined);
  const first = missing[0];
  if (first) {
    // The metadata forms are one user action with the schedule: they carry its request id (minted now for a
    // typed command), and the schedule they lead to is sent with the key of that id.
    const carried = { ...pending, requestId: pending.requestId ?? newRequestId() };
    return { kind: 'form', form: metaForm(video, first, { pending: carried, missing }) };
  }

  // `next`: each platform's free slot, read now that its post details are there (slots-flow.ts).
  if (pending.next) return scheduleInSlots(ctx, pending, runSchedule);

  // A Move is an action of its own: its key is never the original schedule's, nor Keep both's.
  const move = pending.choice === 'move';
  const idempotencyKey = await actionKey(ctx, {
    action: move ? 'reschedule' : 'schedule',
    payload: {
      videoId: video.id,
      platforms: pending.platforms,
      at: pending.at,
      cancelledAt: await lastCancelled(ctx, video.id),
    },
    requestId: pending.requestId,
  });
  if (pending.choice === undefined) {
    // Scheduling again never adds a second post silently: Move it / Keep both / Cancel.
    const clashes = (await readPendingPosts(ctx, video.id)).filter((p) =>
      pending.platforms.includes(p.platform),
    );
    const zone = await ctx.timeZone();
    // Exactly this schedule is already there (a retry whose answer was lost, or the same command again): a
    // second identical post would be a double, so nothing is sent and the member is told.
    if (clashes.length > 0 && isExactly(clashes, pending))
      return message(alreadyThereCard(video, { platforms: pending.platforms, at: pending.at, zone }));
    if (clashes.length > 0) {
      const asked = { ...pending, requestId: pending.requestId ?? newRequestId() };
      return message(alreadyScheduledCard(video, { pending: asked, clashes, zone }));
    }
  }
  // A clash or a daily cap is warned before anything is sent, and answered explicitly (slots-flow.ts).
  const warning = pending.confirmed ? undefined : await slotWarning(ctx, video, pending);
  if (warning) return warning;
  const send: ScheduleSend = {
    video,
    platforms: pending.platforms,
    at: pending.at,
    idempotencyKey,
    ...(move ? { move } : {}),
  };
  if (await needsApproval(ctx, { kind: 'publish' })) {
    const request = scheduleApproval(send);
    // A Move asks once, its card saying what moves from when (move-flow.ts).
    if (!move) return requestApproval(ctx, request);
    return requestApproval(ctx, {
      ...request,
      fields: [...(await moveFields(ctx, send)), ...(request.fields ?? [])],
    });
  }
  return message(move ? await sendMove(ctx, send) : await sendSchedule(ctx, send));
}

/**
 * When this video's schedule was last cancelled (or its request withdrawn) here, within the typed-retry window;
 * 0 if not. It is part of the schedule's key: the same schedule typed again right after an `unschedule` is a
 * new action, never a replay of the cancelled post.
 */
async function lastCancelled(ctx: CommandContext, videoId: string): Promise<number> {
  return (
    await ctx.deps.store.audit.list({
      workspacePrefix: workspaceOf(ctx.req.conversation),
      videoId,
      from: ctx.now() - TYPED_RETRY_WINDOW_MS,
    })
  )
    .filter((e) => ['video.unschedule', 'video.reschedule', 'approval.withdraw'].includes(e.action))
    .reduce((latest, e) => Math.max(latest, e.at), 0);
}

/** A schedule ready to send: metadata present, time in the future, the key of the user action fixed. */
export interface ScheduleSend {
  video: Video;
  platforms: Platform[];
  at: number;
  idempotencyKey: string;
  /** Set when an approver runs someone else's request. */
  approval?: { id: string; requesterName: string };
  /** A Move: the pending posts on these platforms are cancelled and scheduled again (move-flow.ts). */
  move?: boolean;
}

/**
 * Sends a checked schedule (POST /posts/schedule) with the caller's key and the action's idempotency key,
 * then watches it on the video card and records it, in one transaction. Used by the commands and by an
 * approver's click (with the approval's stored key). Times on the answer are in the caller's zone.
 */
export async function sendSchedule(ctx: CommandContext, s: ScheduleSend): Promise<Card> {
  const { video } = s;
  const zone = await ctx.timeZone();
  const effect: RemoteEffect = {
    command: 'schedule',
    args: scheduleArgs(s),
    idempotencyKey: s.idempotencyKey,
    what: `the schedule of “${literal(video.name)}”`,
  };
  const at = await remoteEffect(ctx, effect, {
    send: async () => (await ctx.api()).posts.schedule(scheduleBody(s), { idempotencyKey: s.idempotencyKey }),
    commit: async (scheduled) => {
      // The service's echo is the truth (it may normalise the time).
      const echoed = Date.parse(scheduled.scheduledTime);
      const at = Number.isFinite(echoed) ? echoed : s.at;
      await recordSchedule(ctx, { send: s, at, zone });
      return at;
    },
  });
  return scheduledCard(video, { platforms: s.platforms, at, zone });
}

/** The watch, the video card, the audit entry and `last`: the local record of a schedule. */
async function recordSchedule(
  ctx: CommandContext,
  r: { send: ScheduleSend; at: number; zone: string },
): Promise<void> {
  const { send: s, at, zone } = r;
  const { video } = s;
  const requestedBy = s.approval?.requesterName ?? ctx.req.userName;
  const store = ctx.deps.store;
  const origin = await scheduleOrigin(ctx, s);
  await store.transaction(async () => {
    const { state, watch } = await watchSchedule(store, {
      videoId: video.id,
      name: video.name,
      platforms: s.platforms,
      at,
      zone,
      conversation: ctx.req.conversation,
      owner: await ctx.keyOwner(),
      cardKey: null,
      now: ctx.now(),
      origin: (platform) => ({ ...origin, content: contentOf(video, platform) }),
    });
    const cardKey = await syncVideoCard(store, {
      video,
      conversation: ctx.req.conversation,
      patch: { schedule: scheduleCardPart(state), notice: undefined },
      dedupeKey: `schedule:${watch.id}:scheduled`,
      now: ctx.now(),
      ...(requestedBy ? { requestedBy } : {}),
      requester: ctx.req.user,
    });
    await store.watches.update(watch.id, { cardKey });
    await store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'video.schedule',
      videoId: video.id,
      details: {
        platforms: s.platforms,
        scheduledTime: new Date(at).toISOString(),
        zone,
        ...(s.approval ? { approval: s.approval.id } : {}),
      },
    });
    await store.users.setLast(ctx.req.user, 'video', video.id);
  });
}

/** Who a schedule concerns if its post fails: who asked for it (where), and the approver who ran it. */
async function scheduleOrigin(ctx: CommandContext, s: ScheduleSend): Promise<PostOrigin> {
  const approval = s.approval ? await ctx.deps.store.approvals.get(s.approval.id) : undefined;
  if (!approval) return { by: ctx.req.user, where: ctx.req.conversation };
  return {
    by: approval.requester,
    where: approval.conversation,
    approval: approval.id,
    approvedBy: ctx.req.user,
  };
}

function scheduledCard(
  video: Video,
  { platforms, at, zone }: { platforms: readonly Platform[]; at: number; zone: string },
): Card {
  const where = joinText(platforms.map(platformName), ', ');
  const card: Card = {
    title: md`Scheduled`,
    tone: 'success',
    text: md`**${literal(video.name)}** will post to ${where} on **${formatBoth(at, zone)}**.`,
    context: md`The video card here shows each platform's status and I reply in its thread when it posts. Cancel with ${command('unschedule', [video.name])}.`,
  };
  if (!video.renderedVideoUrl) {
    card.fields = [
      { label: md`Render`, value: md`Not rendered yet: the service renders it before posting.` },
    ];
  }
  return card;
}
