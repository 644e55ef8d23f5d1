/**
 * `series generate <s>`: one extra episode now. A cost card comes first (the episode is charged at once);
 * the Generate click POSTs with an idempotency key tied to that card, so a double click charges once, then
 * posts the episode's video status card and watches its generation.
 */

import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import { oneShot } from '../../dispatch/one-shot.js';
import { clickKey, isRequestId, newRequestId } from '../../dispatch/request-id.js';
import { type RemoteEffect, remoteEffect } from '../../effects/remote-effect.js';
import { lookSoonAtBalance } from '../../live/balance-watcher.js';
import { startEpisodeCard } from '../../live/series-watcher.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { referenceCommand } from '../../parse/reference-command.js';
import {
  balance,
  DEFAULT_SERIES_MODEL,
  episodeCost,
  getSeriesById,
  joinValue,
  splitValue,
  videoName,
} from '../../series/series-common.js';
import { cancelledCard, priceText, spendCard } from '../../series/spend-confirm.js';
import type { Card, Response } from '../../text/cards.js';
import { catalogLabel } from '../../text/labels.js';
import { code, command, literal, md } from '../../text/text.js';
import { describeApiError } from '../../video-api/api-errors.js';
import { VideoApiError } from '../../video-api/video-api.js';

export const GENERATE_CONFIRM = 'series.generate.confirm';
export const GENERATE_CANCEL = 'series.generate.cancel';

export const generateCommand = referenceCommand('series', {
  name: 'series generate',
  summary: 'Generate the next episode of a series now (charged at once)',
  examples: ['series generate "Night Terrors"', 'series generate last'],
  details: md`Shows the cost (the series model's credits) and your balance first; nothing is charged until you confirm.`,
  run: (ctx, ref) => confirmCard(ctx, ref.id),
});

/** The cost card. Its Generate button carries a request id: each card is one user action, however often clicked. */
async function confirmCard(ctx: CommandContext, seriesId: string): Promise<Response> {
  await checkRole(ctx, 'spend');
  const series = await getSeriesById(ctx, seriesId);
  const model = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const [cost, credits] = await Promise.all([episodeCost(ctx, model), balance(ctx)]);
  const approval = await needsApproval(ctx, { kind: 'spend', credits: cost });
  // Both buttons name this card: it is answered once (one-shot.ts).
  const value = joinValue(series.id, newRequestId());
  const card = await spendCard(ctx, {
    title: md`Generate an episode of “${literal(series.name)}” now?`,
    text: md`This charges ${priceText(cost, await catalogLabel(ctx, 'models', model))} now, on top of the scheduled episodes.`,
    chargedNow: cost,
    credits,
    approval,
    confirm: { action: GENERATE_CONFIRM, value, label: 'Generate' },
    cancel: { action: GENERATE_CANCEL, value },
    short: {
      advice: md`That is not enough: top up in the dashboard, or switch the series to a cheaper model with ${command('series edit', [series.id], { model: 'storyboard' })}.`,
      withholdConfirm: true,
    },
    context: md`series \`${literal(series.id)}\``,
  });
  return { kind: 'message', visibility: 'ephemeral', card };
}

/** The cost card a Generate / Cancel value belongs to; none for a Cancel of a card posted before cards had one. */
const costCard = (value: string): string | undefined => {
  const nonce = splitValue(value)[1];
  return isRequestId(nonce) ? `series.generate:${nonce}` : undefined;
};

export const generateConfirmAction: ActionSpec = oneShot({
  action: GENERATE_CONFIRM,
  card: costCard,
  async run(ctx, value) {
    const [seriesId, nonce] = splitValue(value);
    if (!seriesId || !nonce) throw userError('interaction-expired');
    await checkRole(ctx, 'spend');
    const idempotencyKey = await clickKey(ctx, GENERATE_CONFIRM, value);
    const series = await getSeriesById(ctx, seriesId);
    const model = series.brollModel ?? DEFAULT_SERIES_MODEL;
    const cost = await episodeCost(ctx, model);
    if (await needsApproval(ctx, { kind: 'spend', credits: cost })) {
      const credits = await balance(ctx);
      const sent = await requestApproval(ctx, {
        command: 'series.generate',
        args: { seriesId, ...(cost === undefined ? {} : { cost }) },
        idempotencyKey,
        summary: md`Generate an episode of “${literal(series.name)}” now${cost === undefined ? md`` : md` (${cost} credits)`}`,
        fields: [
          { label: md`Series`, value: md`${literal(series.name)} (${code(series.id)})`, short: true },
          { label: md`Model`, value: literal(await catalogLabel(ctx, 'models', model)), short: true },
          ...(cost === undefined ? [] : [{ label: md`Cost`, value: md`${cost} credits`, short: true }]),
          ...(credits === undefined
            ? []
            : [
                {
                  label: md`Balance`,
                  value: cost === undefined ? md`${credits}` : md`${credits} → ${credits - cost}`,
                  short: true,
                },
              ]),
        ],
      });
      return sent.kind === 'message' ? { kind: 'update', card: sent.card } : sent;
    }
    const outcome = await generateEpisode(ctx, { seriesId, idempotencyKey });
    return { kind: 'update', card: outcome.card };
  },
});

/**
 * Charges one episode now (POST /series/{id}/generate) with the caller's key and the action's idempotency
 * key, then posts its status card and watches it, and records the spend. Used by the Generate click and by
 * an approver's click (with the approval's stored key). `charged: false` is a 402, answered in numbers.
 */
export async function generateEpisode(
  ctx: CommandContext,
  input: { seriesId: string; idempotencyKey: string; approval?: { id: string; requesterName: string } },
): Promise<{ charged: boolean; card: Card }> {
  const api = await ctx.api();
  const series = await getSeriesById(ctx, input.seriesId);
  const model = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const cost = await episodeCost(ctx, model);
  const effect: RemoteEffect = {
    command: 'series.generate',
    args: { seriesId: series.id, ...(input.approval ? { approval: input.approval } : {}) },
    idempotencyKey: input.idempotencyKey,
    what: `the new episode of “${literal(series.name)}”`,
  };
  let episode: { projectId: string; name: string };
  try {
    episode = await remoteEffect(ctx, effect, {
      send: async () => {
        const { projectId } = await api.series.generate(series.id, { idempotencyKey: input.idempotencyKey });
        return { projectId, name: await videoName(ctx, projectId, `${series.name} — new episode`) };
      },
      commit: async (generated) => {
        await recordEpisode(ctx, { ...generated, series, model, cost, approval: input.approval });
        return generated;
      },
    });
  } catch (e) {
    if (!(e instanceof VideoApiError) || e.type !== 'insufficient_credits') throw e;
    const credits = await balance(ctx);
    return {
      charged: false,
      card: {
        title: md`Not generated: “${literal(series.name)}”`,
        tone: 'danger',
        text: describeApiError(e, {
          ...(cost === undefined ? {} : { cost }),
          ...(credits === undefined ? {} : { balance: credits }),
        }),
        context: md`Nothing was charged.`,
      },
    };
  }
  const { projectId, name } = episode;
  return {
    charged: true,
    card: {
      title: md`Generating “${literal(name)}”`,
      tone: 'success',
      text: md`${cost === undefined ? md`The episode was charged` : md`**${cost} credits** were charged`}. Its status card is posted in this channel and follows the generation.`,
      context: md`video \`${literal(projectId)}\` · series \`${literal(series.id)}\``,
    },
  };
}

/** The episode's status card, its watch, `last` and the audit entry: the local record of a generate. */
async function recordEpisode(
  ctx: CommandContext,
  r: {
    projectId: string;
    name: string;
    series: { id: string; name?: string };
    model: string;
    cost: number | undefined;
    approval: { id: string; requesterName: string } | undefined;
  },
): Promise<void> {
  const { projectId, name, series, model, cost } = r;
  const requestedBy = r.approval?.requesterName ?? ctx.req.userName;
  const { store } = ctx.deps;
  await store.users.setLast(ctx.req.user, 'video', projectId);
  const started = await startEpisodeCard(store, {
    videoId: projectId,
    name,
    conversation: ctx.req.conversation,
    owner: await ctx.keyOwner(),
    now: ctx.now(),
    model,
    ...(cost === undefined ? {} : { credits: cost }),
    ...(requestedBy ? { requestedBy } : {}),
    requester: ctx.req.user,
  });
  // A replayed click (same idempotency key) finds its card already there: the spend is recorded once.
  if (started) {
    await store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'series.generate',
      videoId: projectId,
      seriesId: series.id,
      ...(cost === undefined ? {} : { credits: cost }),
      details: {
        model,
        ...(r.series.name ? { name: r.series.name } : {}),
        ...(r.approval ? { approval: r.approval.id } : {}),
      },
    });
    await lookSoonAtBalance(store, ctx.req.conversation, ctx.now());
  }
}

export const generateCancelAction: ActionSpec = oneShot({
  action: GENERATE_CANCEL,
  card: costCard,
  run() {
    return { kind: 'update', card: cancelledCard(md`No episode was generated`) };
  },
});

/** The "Generate episode now" button on series cards: opens the same cost card. */
export const generateAction: ActionSpec = {
  action: 'series.generate',
  async run(ctx, value) {
    return await confirmCard(ctx, value);
  },
};
