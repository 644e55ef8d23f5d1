/**
 * Pausing and resuming (PATCH paused), shared by `series pause|resume` and their buttons. The reply goes to
 * the channel: the whole team's series stops or restarts, so everyone should see who did it.
 *
 * Resuming commits the team to a charge per episode again: it takes the `spend` role, shows the cost per
 * episode and the balance first (Confirm / Cancel, ./spend-confirm.ts), and under `settings approval spend`
 * Confirm asks an approver when an episode costs more than the threshold (like `series generate`). Pausing
 * only stops spending, so anyone may at once (a runaway series must be stoppable).
 */

import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import { actionKey, isRequestId, newRequestId } from '../../dispatch/request-id.js';
import { refreshSeriesWatches } from '../../live/series-watcher.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { describeSchedule } from '../../series/cadence.js';
import { budgetField } from '../../series/pace.js';
import {
  balance,
  cadenceOf,
  DEFAULT_SERIES_MODEL,
  episodeCost,
  getSeriesById,
  joinValue,
  nextPostText,
  splitValue,
} from '../../series/series-common.js';
import { priceText, spendCard } from '../../series/spend-confirm.js';
import type { Response } from '../../text/cards.js';
import { catalogLabel } from '../../text/labels.js';
import { readOrNotFound } from '../../text/not-found.js';
import { literal, md } from '../../text/text.js';
import type { Ref } from '../../video-api/references.js';
import { cancelAction, confirmAction, savePendingSpend, spendActions } from './spend-request.js';

export interface SetPausedOptions {
  /** Pause (true) or resume (false). */
  paused: boolean;
  /** Set when an approver runs someone else's resume: no role check. */
  approved?: { id: string };
}

/** The PATCH itself; a resume reaches it only confirmed (and approved when the policy wants it). */
export async function setPaused(ctx: CommandContext, ref: Ref, options: SetPausedOptions): Promise<Response> {
  const { paused } = options;
  if (!paused && !options.approved) await checkRole(ctx, 'spend');
  await readOrNotFound(
    async () => (await ctx.api()).series.update(ref.id, { paused }),
    'not-found-series',
    ref.name,
  );
  const { store } = ctx.deps;
  await store.transaction(async () => {
    await refreshSeriesWatches(store, ref.id, ctx.now());
    await store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: paused ? 'series.pause' : 'series.resume',
      seriesId: ref.id,
      details: { name: ref.name, ...(options.approved ? { approval: options.approved.id } : {}) },
    });
  });
  const by = ctx.req.userName ? md` by ${literal(ctx.req.userName)}` : md``;
  if (paused) {
    return {
      kind: 'message',
      visibility: 'channel',
      card: {
        title: md`⏸️ Paused “${literal(ref.name)}”`,
        tone: 'warning',
        text: md`No new episodes will be generated or charged until it is resumed. Episodes already generated keep their scheduled posts.`,
        controls: [resumeButton(ref.id)],
        context: md`Paused${by} · id \`${literal(ref.id)}\``,
      },
    };
  }
  // The schedule makes "resumed" concrete; if it cannot be read the resume still stands.
  const series = await getSeriesById(ctx, ref.id).catch(() => undefined);
  const next = series && (await nextPostText(ctx, { ...series, paused: false }));
  return {
    kind: 'message',
    visibility: 'channel',
    card: {
      title: md`▶️ Resumed “${literal(ref.name)}”`,
      tone: 'success',
      text: md`Episodes are generated on schedule again, each charged when generated.${series ? md`\n**Schedule:** ${literal(describeSchedule(cadenceOf(series)))}` : md``}${next ? md`\n**Next post:** ${literal(next)}` : md``}`,
      controls: [{ kind: 'button', action: 'series.pause', value: ref.id, label: 'Pause' }],
      context: md`Resumed${by} · id \`${literal(ref.id)}\``,
    },
  };
}

/**
 * The cost card of a resume: nothing is charged now, every episode from the next one is. A series that is
 * not paused has nothing to resume: it is answered at once, as before.
 */
export async function confirmResume(ctx: CommandContext, ref: Ref): Promise<Response> {
  await checkRole(ctx, 'spend');
  const series = await getSeriesById(ctx, ref.id);
  if (!series.paused) return setPaused(ctx, { id: series.id, name: series.name }, { paused: false });
  const model = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const [cost, credits] = await Promise.all([episodeCost(ctx, model), balance(ctx)]);
  const next = await nextPostText(ctx, { ...series, paused: false });
  const budget = await budgetField(ctx, { ...series, paused: false });
  const draft = { op: 'resume' as const, seriesId: series.id, name: series.name };
  const card = await savePendingSpend(ctx, {
    draft,
    idempotencyKey: async (id) =>
      await actionKey(ctx, { action: 'series.resume', payload: { seriesId: series.id }, requestId: id }),
    card: async (id) =>
      await spendCard(ctx, {
        title: md`Resume “${literal(series.name)}”?`,
        text: md`Episodes are generated on schedule again, each charged when generated: ${priceText(cost, await catalogLabel(ctx, 'models', model))}. Nothing is charged now${next ? md`; the next episode is due ${literal(next)}` : md``}.`,
        chargedNow: 0,
        perEpisode: cost,
        credits,
        ...(budget ? { publication: [budget] } : {}),
        approval: await needsApproval(ctx, { kind: 'spend', credits: cost }),
        confirm: { action: confirmAction('resume'), value: id, label: 'Resume' },
        cancel: { action: cancelAction('resume'), value: id },
        context: md`series \`${literal(series.id)}\``,
      }),
  });
  return { kind: 'message', visibility: 'ephemeral', card };
}

/**
 * Under `approval spend`, a resume whose episodes cost more than the threshold becomes an approval request
 * (nothing is sent until an approver agrees, with their key); undefined when it may go ahead now.
 */
async function resumeApproval(
  ctx: CommandContext,
  seriesId: string,
  idempotencyKey: string,
): Promise<Response | undefined> {
  // Only this policy looks at costs: spare the two reads otherwise.
  if ((await ctx.settings()).approval !== 'spend') return undefined;
  const series = await getSeriesById(ctx, seriesId);
  if (!series.paused) return undefined;
  const model = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const cost = await episodeCost(ctx, model);
  if (!(await needsApproval(ctx, { kind: 'spend', credits: cost }))) return undefined;
  const perEpisode = cost === undefined ? `the ${model} price` : `${cost} credits`;
  return requestApproval(ctx, {
    command: 'series.resume',
    args: { seriesId: series.id, ...(cost === undefined ? {} : { cost }) },
    idempotencyKey,
    summary: md`Resume the series “${literal(series.name)}” (${literal(perEpisode)} per episode)`,
    fields: [
      { label: md`Series`, value: md`${literal(series.name)} (\`${literal(series.id)}\`)`, short: true },
      { label: md`Model`, value: literal(await catalogLabel(ctx, 'models', model)), short: true },
      { label: md`Each episode`, value: literal(perEpisode), short: true },
      { label: md`Schedule`, value: literal(describeSchedule(cadenceOf(series))) },
    ],
  });
}

/** Confirm: the approval request when the policy wants one, else the resume. */
export const [resumeConfirmAction, resumeCancelAction] = spendActions('resume', async (ctx, pending) => {
  if (pending.op !== 'resume') throw userError('interaction-expired');
  await checkRole(ctx, 'spend');
  const asked = await resumeApproval(ctx, pending.seriesId, pending.idempotencyKey);
  if (asked) return { response: asked, done: false };
  const response = await setPaused(ctx, { id: pending.seriesId, name: pending.name }, { paused: false });
  return { response, done: true };
}) as [ActionSpec, ActionSpec];

/** A Resume button: it opens the cost card (its request id is from older cards and no longer needed). */
export const resumeButton = (seriesId: string) =>
  ({
    kind: 'button',
    action: 'series.resume',
    value: joinValue(seriesId, newRequestId()),
    label: 'Resume',
    style: 'primary',
  }) as const;

/**
 * The Pause/Resume buttons carry the series id (Resume also a request id); the name is re-read with the
 * clicker's key. Pause acts at once; Resume opens the cost card.
 */
const pausedAction = (action: string, paused: boolean): ActionSpec => ({
  action,
  async run(ctx, value) {
    const [head, tail] = splitValue(value);
    const id = isRequestId(tail) ? head : value;
    // A resume is refused by role before anything is read.
    if (!paused) await checkRole(ctx, 'spend');
    const series = await getSeriesById(ctx, id);
    const ref = { id: series.id, name: series.name };
    return paused ? setPaused(ctx, ref, { paused: true }) : confirmResume(ctx, ref);
  },
});

export const pauseAction = pausedAction('series.pause', true);
export const resumeAction = pausedAction('series.resume', false);
