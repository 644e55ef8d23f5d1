/**
 * Runs an approved action: dispatch by `action.command` to the same functions the commands use, under the
 * APPROVER's key (the clicker's context, DESIGN §5) and with the request's stored idempotency key, so a
 * retry never doubles. A resource of another team is simply not found with the approver's key.
 */
import type { Card } from '../cards.js';
import { malformed, publishSendOf, scheduleSendOf, str } from '../commands/effect-runners.js';
import { sendPublish } from '../commands/publishing/publish-flow.js';
import { sendSchedule } from '../commands/publishing/schedule-flow.js';
import { createSeries } from '../commands/series/create.js';
import { applySeriesEdit } from '../commands/series/edit.js';
import { generateEpisode } from '../commands/series/generate.js';
import { getSeriesById } from '../commands/series/series-common.js';
import { setPaused } from '../commands/series/set-paused.js';
import { approveCreate } from '../commands/videos/create-confirm.js';
import { type CommandContext, userError } from '../context.js';
import type { Approval } from '../ports.js';
import { link } from '../text.js';
import { formatBoth } from '../time/format.js';
import type { SeriesInput, SeriesPatch } from '../video-api.js';
import type { ApprovalCardModel, ApprovedCommand } from './model.js';

export interface ApprovedResult {
  /** What the original command would have answered, in the approver's zone (their private confirmation). */
  card: Card;
  /** Neutral words for the shared approval card. */
  outcome: string;
}

type Runner = (ctx: CommandContext, approval: Approval, model: ApprovalCardModel) => Promise<ApprovedResult>;

const approvedBy = (approval: Approval, model: ApprovalCardModel) => ({
  id: approval.id,
  requesterName: model.requesterName,
});

/** The links of a result card, as markdown for the shared card. */
const linksOf = (card: Card): string =>
  (card.controls ?? []).flatMap((c) => (c.kind === 'link' ? [link(c.label, c.url)] : [])).join(' · ');

const RUNNERS: Record<ApprovedCommand, Runner> = {
  async publish(ctx, approval, model) {
    const send = await publishSendOf(ctx, { ...approval.action, approval: approvedBy(approval, model) });
    if (!send.video.renderedVideoUrl) throw userError('approval-not-rendered', { name: send.video.name });
    const card = await sendPublish(ctx, send);
    const links = linksOf(card);
    return { card, outcome: `${card.title}${links ? `: ${links}` : '.'}` };
  },

  async schedule(ctx, approval, model) {
    const at = approval.action.args.at;
    if (typeof at === 'number' && at <= ctx.now())
      throw userError('approval-too-late', { when: formatBoth(at, ctx.timeZone()) });
    const send = await scheduleSendOf(ctx, { ...approval.action, approval: approvedBy(approval, model) });
    const card = await sendSchedule(ctx, send);
    return {
      card,
      outcome: `Scheduled for ${formatBoth(send.at, model.requesterZone)}. The video card follows each platform’s post.`,
    };
  },

  async create(ctx, approval) {
    const requestId = str(approval.action.args.requestId);
    if (!requestId) malformed();
    const card = await approveCreate(ctx, requestId, approval.action.idempotencyKey);
    return { card, outcome: `${card.title} Its status card is posted in this channel.` };
  },

  async 'series.generate'(ctx, approval, model) {
    const seriesId = str(approval.action.args.seriesId);
    if (!seriesId) malformed();
    const { charged, card } = await generateEpisode(ctx, {
      seriesId,
      idempotencyKey: approval.action.idempotencyKey,
      approval: { id: approval.id, requesterName: model.requesterName },
    });
    // A 402 comes back as words, not an error: the approval did not go through.
    if (!charged) throw userError('approval-not-charged', { reason: card.text ?? '' });
    return { card, outcome: `${card.title}. Its status card is posted in this channel.` };
  },

  async 'series.create'(ctx, approval, model) {
    const input = approval.action.args.input as SeriesInput | undefined;
    if (!input || typeof input !== 'object' || !str(input.name) || !str(input.source)) malformed();
    const response = await createSeries(ctx, input, {
      approved: {
        id: approval.id,
        idempotencyKey: approval.action.idempotencyKey,
        requesterName: model.requesterName,
      },
    });
    if (response.kind !== 'message') malformed();
    return { card: response.card, outcome: `${response.card.title}.` };
  },

  async 'series.resume'(ctx, approval) {
    const seriesId = str(approval.action.args.seriesId);
    if (!seriesId) malformed();
    const series = await getSeriesById(ctx, seriesId);
    const response = await setPaused(ctx, { id: series.id, name: series.name }, false, {
      approved: { id: approval.id },
    });
    if (response.kind !== 'message') malformed();
    return { card: response.card, outcome: `${response.card.title}.` };
  },

  async 'series.edit'(ctx, approval) {
    const seriesId = str(approval.action.args.seriesId);
    const patch = approval.action.args.patch as SeriesPatch | undefined;
    if (!seriesId || !patch || typeof patch !== 'object' || Array.isArray(patch)) malformed();
    const series = await getSeriesById(ctx, seriesId);
    const response = await applySeriesEdit(ctx, { id: series.id, name: series.name }, patch, {
      id: approval.id,
    });
    if (response.kind !== 'message') malformed();
    return { card: response.card, outcome: `${response.card.title}.` };
  },
};

export function runApproved(
  ctx: CommandContext,
  approval: Approval,
  model: ApprovalCardModel,
): Promise<ApprovedResult> {
  const runner = RUNNERS[approval.action.command as ApprovedCommand];
  if (!runner) malformed();
  return runner(ctx, approval, model);
}
