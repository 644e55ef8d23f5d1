/**
 * Series writes, run again from stored arguments: for an approver (create, generate, resume, edit) and, for
 * generate, a charge whose local record failed. The same functions the commands use.
 */
import { type ApprovedRunners, approvedBy, malformed, str } from '../../approvals/runner-port.js';
import { userError } from '../../dispatch/context.js';
import { approvalOf, type EffectRunners } from '../../effects/reconcile.js';
import { getSeriesById } from '../../series/series-common.js';
import { md } from '../../text/text.js';
import type { SeriesInput, SeriesPatch } from '../../video-api/video-api.js';
import { createSeries } from './create.js';
import { applySeriesEdit } from './edit.js';
import { generateEpisode } from './generate.js';
import { setPaused } from './set-paused.js';

export const approved: ApprovedRunners = {
  async 'series.generate'(ctx, request) {
    const { action } = request.approval;
    const seriesId = str(action.args.seriesId);
    if (!seriesId) malformed();
    const { charged, card } = await generateEpisode(ctx, {
      seriesId,
      idempotencyKey: action.idempotencyKey,
      approval: approvedBy(request),
    });
    // A 402 comes back as words, not an error: the approval did not go through.
    if (!charged) throw userError('approval-not-charged', { reason: card.text ?? '' });
    return { card, outcome: md`${card.title}. Its status card is posted in this channel.` };
  },

  async 'series.create'(ctx, request) {
    const { action } = request.approval;
    const input = action.args.input as SeriesInput | undefined;
    if (!input || typeof input !== 'object' || !str(input.name) || !str(input.source)) malformed();
    const response = await createSeries(ctx, input, {
      approved: { ...approvedBy(request), idempotencyKey: action.idempotencyKey },
    });
    if (response.kind !== 'message') malformed();
    return { card: response.card, outcome: md`${response.card.title}.` };
  },

  async 'series.resume'(ctx, { approval }) {
    const seriesId = str(approval.action.args.seriesId);
    if (!seriesId) malformed();
    const series = await getSeriesById(ctx, seriesId);
    const response = await setPaused(
      ctx,
      { id: series.id, name: series.name },
      {
        paused: false,
        approved: { id: approval.id },
      },
    );
    if (response.kind !== 'message') malformed();
    return { card: response.card, outcome: md`${response.card.title}.` };
  },

  async 'series.edit'(ctx, { approval }) {
    const seriesId = str(approval.action.args.seriesId);
    const patch = approval.action.args.patch as SeriesPatch | undefined;
    if (!seriesId || !patch || typeof patch !== 'object' || Array.isArray(patch)) malformed();
    const series = await getSeriesById(ctx, seriesId);
    const response = await applySeriesEdit(ctx, {
      ref: { id: series.id, name: series.name },
      patch,
      approved: { id: approval.id },
    });
    if (response.kind !== 'message') malformed();
    return { card: response.card, outcome: md`${response.card.title}.` };
  },
};

export const effects: EffectRunners = {
  async 'series.generate'(ctx, effect) {
    const seriesId = str(effect.args.seriesId);
    if (!seriesId) malformed();
    const approval = approvalOf(effect.args);
    await generateEpisode(ctx, {
      seriesId,
      idempotencyKey: effect.idempotencyKey,
      ...(approval ? { approval } : {}),
    });
  },
};
