/**
 * Publish and schedule, run again from stored arguments: for an approver (`approved`) and for a write whose
 * local record failed (`effects`). The same functions the commands use, with the stored idempotency key.
 */
import { type ApprovedRunners, approvedBy, linksOf, malformed, str } from '../../approvals/runner-port.js';
import type { CommandContext } from '../../context.js';
import { userError } from '../../context.js';
import { approvalOf, type EffectRunners } from '../../effects/reconcile.js';
import { sendMove } from '../../publishing/move-flow.js';
import { type PublishSend, sendPublish } from '../../publishing/publish-flow.js';
import { getVideo, type ScheduleSend, sendSchedule } from '../../publishing/schedule-flow.js';
import { formatBoth } from '../../time/format.js';
import { PLATFORMS, type Platform, PRIVACY, type Privacy } from '../../video-api.js';

type Args = Record<string, unknown>;
type Stored = {
  args: Args;
  idempotencyKey: string;
  approval?: { id: string; requesterName: string } | undefined;
};

const isPlatform = (v: unknown): v is Platform => (PLATFORMS as readonly unknown[]).includes(v);

/** A publish as stored by `publishArgs`, with the video read again. */
async function publishSendOf(ctx: CommandContext, stored: Stored): Promise<PublishSend> {
  const { args } = stored;
  const videoId = str(args.videoId);
  if (!videoId || !isPlatform(args.platform)) malformed();
  const authId = str(args.authId);
  const privacy = (PRIVACY as readonly unknown[]).includes(args.privacy)
    ? (args.privacy as Privacy)
    : undefined;
  return {
    video: await getVideo(ctx, videoId),
    platform: args.platform,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
    ...(authId ? { account: { authId, label: str(args.accountLabel) ?? authId } } : {}),
    ...(privacy ? { privacy } : {}),
    ...(typeof args.title === 'string' ? { title: args.title } : {}),
    ...(typeof args.description === 'string' ? { description: args.description } : {}),
  };
}

/** A schedule as stored by `scheduleArgs`, with the video read again. */
async function scheduleSendOf(ctx: CommandContext, stored: Stored): Promise<ScheduleSend> {
  const { args } = stored;
  const videoId = str(args.videoId);
  const platforms = Array.isArray(args.platforms) ? args.platforms.filter(isPlatform) : [];
  const at = typeof args.at === 'number' ? args.at : undefined;
  if (!videoId || platforms.length === 0 || at === undefined) malformed();
  return {
    video: await getVideo(ctx, videoId),
    platforms,
    at,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
    ...(args.move === true ? { move: true } : {}),
  };
}

export const approved: ApprovedRunners = {
  async publish(ctx, request) {
    const send = await publishSendOf(ctx, { ...request.approval.action, approval: approvedBy(request) });
    if (!send.video.renderedVideoUrl) throw userError('approval-not-rendered', { name: send.video.name });
    const card = await sendPublish(ctx, send);
    const links = linksOf(card);
    return { card, outcome: `${card.title}${links ? `: ${links}` : '.'}` };
  },

  async schedule(ctx, request) {
    const at = request.approval.action.args.at;
    if (typeof at === 'number' && at <= ctx.now())
      throw userError('approval-too-late', { when: formatBoth(at, await ctx.timeZone()) });
    const send = await scheduleSendOf(ctx, { ...request.approval.action, approval: approvedBy(request) });
    // One approval for a Move: the approver's click cancels and schedules again (move-flow.ts).
    const card = send.move ? await sendMove(ctx, send) : await sendSchedule(ctx, send);
    const when = formatBoth(send.at, request.model.requesterZone);
    const done = send.move ? 'Moved to' : 'Scheduled for';
    return { card, outcome: `${done} ${when}. The video card follows each platform’s post.` };
  },
};

export const effects: EffectRunners = {
  async publish(ctx, effect) {
    await sendPublish(ctx, await publishSendOf(ctx, { ...effect, approval: approvalOf(effect.args) }));
  },
  async schedule(ctx, effect) {
    await sendSchedule(ctx, await scheduleSendOf(ctx, { ...effect, approval: approvalOf(effect.args) }));
  },
};
