/**
 * Publish and schedule, run again from stored arguments: for an approver (`approved`) and for a write whose
 * local record failed (`effects`). The same functions the commands use, with the stored idempotency key.
 */
import {
  type ApprovedResult,
  type ApprovedRunners,
  approvedBy,
  linksOf,
} from '../../approvals/runner-port.js';
import type { CommandContext } from '../../dispatch/context.js';
import { userError } from '../../dispatch/context.js';
import { approvalOf, type EffectRunners } from '../../effects/reconcile.js';
import { sendMove } from '../../publishing/move-flow.js';
import {
  isPublishSet,
  publishSendOf,
  publishSetSendOf,
  type StoredPublication,
  scheduleSendOf,
  storedVideoId,
} from '../../publishing/publication.js';
import { type PublishSend, sendPublish } from '../../publishing/publish-flow.js';
import {
  publishSetId,
  publishSetKey,
  publishSetLines,
  readPublishSet,
  sendPublishSet,
} from '../../publishing/publish-set.js';
import { getVideo, type ScheduleSend, sendSchedule } from '../../publishing/schedule-flow.js';
import { md } from '../../text/text.js';
import { formatBoth } from '../../time/format.js';

/** A publish as stored, with the video read again. */
const publishSend = async (ctx: CommandContext, stored: StoredPublication): Promise<PublishSend> =>
  publishSendOf(await getVideo(ctx, storedVideoId(stored.args)), stored);

/** A schedule as stored, with the video read again. */
const scheduleSend = async (ctx: CommandContext, stored: StoredPublication): Promise<ScheduleSend> =>
  scheduleSendOf(await getVideo(ctx, storedVideoId(stored.args)), stored);

export const approved: ApprovedRunners = {
  async publish(ctx, request) {
    const stored = { ...request.approval.action, approval: approvedBy(request) };
    if (isPublishSet(stored.args)) return await approvedSet(ctx, stored);
    const send = await publishSend(ctx, stored);
    if (!send.video.renderedVideoUrl) throw userError('approval-not-rendered', { name: send.video.name });
    const card = await sendPublish(ctx, send);
    const links = linksOf(card);
    return { card, outcome: md`${card.title}${links ? md`: ${links}` : md`.`}` };
  },

  async schedule(ctx, request) {
    const at = request.approval.action.args.at;
    if (typeof at === 'number' && at <= ctx.now())
      throw userError('approval-too-late', { when: formatBoth(at, await ctx.timeZone()) });
    const send = await scheduleSend(ctx, { ...request.approval.action, approval: approvedBy(request) });
    // One approval for a Move: the approver's click cancels and schedules again (move-flow.ts).
    const card = send.move ? await sendMove(ctx, send) : await sendSchedule(ctx, send);
    const when = formatBoth(send.at, request.model.requesterZone);
    const done = send.move ? md`Moved to` : md`Scheduled for`;
    return { card, outcome: md`${done} ${when}. The video card follows each platform’s post.` };
  },
};

/** An approved publish to several platforms: every platform tried, one line each on the shared card. */
async function approvedSet(ctx: CommandContext, stored: StoredPublication): Promise<ApprovedResult> {
  const send = publishSetSendOf(await getVideo(ctx, storedVideoId(stored.args)), stored);
  if (!send.video.renderedVideoUrl && send.videoUrl === undefined)
    throw userError('approval-not-rendered', { name: send.video.name });
  const card = await sendPublishSet(ctx, send);
  const model = readPublishSet(
    (await ctx.deps.store.cards.get(publishSetKey(publishSetId(send.idempotencyKey))))?.model,
  );
  return { card, outcome: model ? publishSetLines(model) : (card.text ?? md``) };
}

export const effects: EffectRunners = {
  async publish(ctx, effect) {
    await sendPublish(ctx, await publishSend(ctx, { ...effect, approval: approvalOf(effect.args) }));
  },
  async schedule(ctx, effect) {
    await sendSchedule(ctx, await scheduleSend(ctx, { ...effect, approval: approvalOf(effect.args) }));
  },
};
