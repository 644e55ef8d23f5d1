/**
 * `series edit <s> --field value…`: changes only the fields given (PATCH). Every value is checked before
 * anything is sent; the reply lists what changed, in words.
 *
 * Who may: changing what episodes cost (model, length) or resuming takes the `spend` role; changing where,
 * when and how episodes are posted (destination, accounts, schedule, model, YouTube privacy, hashtags) the
 * `publish` role. An edit that changes the model or resumes a paused series shows the cost per episode and the
 * balance first, with Confirm / Cancel (./spend-confirm.ts); under `settings approval spend`, Confirm of one
 * that raises the cost per episode of a running series above the threshold, or resumes a paused one, asks an
 * approver like `series generate` (src/core/approvals).
 *
 * A series that posts is a publication (../../series/publication.ts): under an approval policy, an edit of
 * where, when or with which model it posts waits for an approver before the PATCH, whose card shows the series
 * as it would then post.
 */

import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { checkRole, type Role } from '../../approvals/roles.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import { actionKey } from '../../dispatch/request-id.js';
import { refreshSeriesWatches } from '../../live/series-watcher.js';
import { type ActionSpec, type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { SERIES_OPTION } from '../../parse/shared-options.js';
import { describeDays, type Weekday } from '../../series/cadence.js';
import { budgetField } from '../../series/pace.js';
import { changesPublication, PUBLICATION_FIELDS, publicationFields } from '../../series/publication.js';
import {
  balance,
  DEFAULT_SERIES_MODEL,
  episodeCost,
  getSeriesById,
  voiceName,
} from '../../series/series-common.js';
import {
  SERIES_FIELD_OPTIONS,
  type SeriesFieldArgs,
  SOURCE_DESCRIPTION,
} from '../../series/series-field-options.js';
import { FIELD_LABELS, seriesFieldsFrom } from '../../series/series-fields.js';
import { priceText, spendCard } from '../../series/spend-confirm.js';
import type { Response } from '../../text/cards.js';
import { catalogLabel } from '../../text/labels.js';
import { type CardText, command, joinText, literal, md } from '../../text/text.js';
import { type Ref, resolveSeries } from '../../video-api/references.js';
import type { Series, SeriesPatch } from '../../video-api/video-api.js';
import { cancelAction, confirmAction, savePendingSpend, spendActions } from './spend-request.js';

/** Changing these moves the posting slots: the watcher re-reads them. */
const CADENCE_FIELDS = ['autoPostTime', 'postingDays', 'timezone', 'paused'] as const;

/** The roles an edit takes, from its flags alone, so a refusal costs no API call. */
export function rolesForEdit(args: SeriesFieldArgs & { paused?: boolean | undefined }): Role[] {
  const roles: Role[] = [];
  if (args.model !== undefined || args.duration !== undefined || args.paused === false) roles.push('spend');
  // Where, when and with which model it posts: a series that posts is a publication.
  const posting = [
    args.destination,
    args.accounts,
    args.privacy,
    args.hashtags,
    args.schedule,
    args.time,
    args.days,
    args.timezone,
    args.model,
  ];
  if (posting.some((v) => v !== undefined)) roles.push('publish');
  return roles;
}

export const editCommand: CommandSpec = defineCommand({
  name: 'series edit',
  summary: 'Change a series: only the options you give change',
  options: [
    SERIES_OPTION,
    { name: 'name', kind: 'string', maxLength: 120, description: 'New name' },
    { name: 'source', kind: 'string', catalog: 'sources', description: SOURCE_DESCRIPTION },
    ...SERIES_FIELD_OPTIONS,
    { name: 'paused', kind: 'boolean', description: 'Pause (yes) or resume (no)' },
  ],
  examples: [
    'series edit "Night Terrors" --time 18:00 --days mon,wed,fri',
    'series edit last --model motion_lite --voice Marcus',
    'series edit "Money Minute" --schedule "weekdays 7am America/New_York"',
    'series edit last --background minecraft_parkour --emojis no --thumbnail-settings style=bold',
  ],
  details: md`Options are those of \`series create\`, plus \`--name\` and \`--paused yes|no\`. \`--days daily\` posts every day. Changing where, when or with which model it posts takes the publish role, and under an approval policy waits for an approver.`,
  async run(ctx, args) {
    for (const role of rolesForEdit(args as SeriesFieldArgs & { paused?: boolean }))
      await checkRole(ctx, role);
    const patch: SeriesPatch = await seriesFieldsFrom(ctx, args as SeriesFieldArgs, 'edit');
    if (args.name !== undefined) patch.name = args.name;
    if (args.paused !== undefined) patch.paused = args.paused;
    if (Object.keys(patch).length === 0) throw userError('series-nothing-to-change');
    const ref = await resolveSeries(ctx, args.series);
    // Only a change of model or a resume changes what the series spends: read the series for those alone.
    if (patch.brollModel !== undefined || patch.paused === false) {
      const series = await getSeriesById(ctx, ref.id);
      const modelChanges =
        patch.brollModel !== undefined && patch.brollModel !== (series.brollModel ?? DEFAULT_SERIES_MODEL);
      if (modelChanges || (patch.paused === false && series.paused === true))
        return confirmEdit(ctx, series, patch);
    }
    // The same typed edit again soon is the same request: it finds the approval it already asked for.
    const asked = await editApproval(ctx, {
      ref,
      patch,
      idempotencyKey: await actionKey(ctx, { action: 'series.edit', payload: { seriesId: ref.id, patch } }),
    });
    return asked ?? applySeriesEdit(ctx, { ref, patch });
  },
});

/** The cost card of a model change or a resume: nothing is charged now, every episode from the next one is. */
async function confirmEdit(ctx: CommandContext, series: Series, patch: SeriesPatch): Promise<Response> {
  const before = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const after = patch.brollModel ?? before;
  const [oldCost, newCost, credits] = await Promise.all([
    episodeCost(ctx, before),
    episodeCost(ctx, after),
    balance(ctx),
  ]);
  const resumes = patch.paused === false && series.paused === true;
  const [beforeName, afterName] = await Promise.all([
    catalogLabel(ctx, 'models', before),
    catalogLabel(ctx, 'models', after),
  ]);
  const change =
    after === before
      ? md`Each episode costs ${priceText(newCost, afterName)}, charged when generated.`
      : md`Each episode will cost ${priceText(newCost, afterName)} instead of ${priceText(oldCost, beforeName)}, from the next one, charged when generated.`;
  const others = Object.keys(patch)
    .filter((f) => f !== 'brollModel' && f !== 'paused')
    .map((f) => FIELD_LABELS[f] ?? f);
  const draft = { op: 'edit' as const, seriesId: series.id, name: series.name, patch };
  const publishes = await publicationNeedsApproval(ctx, patch);
  const budget = await budgetField(ctx, { ...series, ...patch, brollModel: after });
  const card = await savePendingSpend(ctx, {
    draft,
    idempotencyKey: async (id) =>
      await actionKey(ctx, { action: 'series.edit', payload: { seriesId: series.id, patch }, requestId: id }),
    card: async (id) =>
      await spendCard(ctx, {
        title: md`Change “${literal(series.name)}”?`,
        text: md`${resumes ? md`This resumes the series: episodes are generated on schedule again. ` : md``}${change} Nothing is charged now.${others.length > 0 ? md`\nAlso changes: ${literal(others.join(', '))}.` : md``}`,
        chargedNow: 0,
        perEpisode: newCost,
        credits,
        ...(budget ? { publication: [budget] } : {}),
        approval: publishes || (await editNeedsApproval(ctx, { series, patch, oldCost, newCost })),
        ...(publishes ? { approvalFor: 'publish' as const } : {}),
        confirm: { action: confirmAction('edit'), value: id, label: 'Apply change' },
        cancel: { action: cancelAction('edit'), value: id },
        context: md`series \`${literal(series.id)}\``,
      }),
  });
  return { kind: 'message', visibility: 'ephemeral', card };
}

/** Confirm: the approval request when the policy wants one, else the edit. */
export const [editConfirmAction, editCancelAction] = spendActions('edit', async (ctx, pending) => {
  if (pending.op !== 'edit') throw userError('interaction-expired');
  await checkRole(ctx, 'spend');
  if (changesPublication(pending.patch)) await checkRole(ctx, 'publish');
  const ref = { id: pending.seriesId, name: pending.name };
  const asked = await editApproval(ctx, {
    ref,
    patch: pending.patch,
    idempotencyKey: pending.idempotencyKey,
  });
  if (asked) return { response: asked, done: false };
  return { response: await applySeriesEdit(ctx, { ref, patch: pending.patch }), done: true };
}) as [ActionSpec, ActionSpec];

/**
 * Under `approval spend`: whether an edit makes a running series cost more per episode, or resumes a paused
 * one, with an episode then above the threshold. An unreadable price counts as a raise (as unknown costs do
 * for creations).
 */
async function editNeedsApproval(
  ctx: CommandContext,
  {
    series,
    patch,
    oldCost,
    newCost,
  }: { series: Series; patch: SeriesPatch; oldCost: number | undefined; newCost: number | undefined },
): Promise<boolean> {
  if ((await ctx.settings()).approval !== 'spend') return false;
  const before = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const after = patch.brollModel ?? before;
  const resumes = patch.paused === false && series.paused === true;
  const running = patch.paused === false || (patch.paused === undefined && series.paused !== true);
  const raises = after !== before && (oldCost === undefined || newCost === undefined || newCost > oldCost);
  if (!resumes && !(raises && running)) return false;
  return needsApproval(ctx, { kind: 'spend', credits: newCost });
}

/** Whether an edit changes where, when or what the series posts under a policy that wants an approver then. */
async function publicationNeedsApproval(ctx: CommandContext, patch: SeriesPatch): Promise<boolean> {
  return changesPublication(patch) && (await needsApproval(ctx, { kind: 'publish' }));
}

/**
 * The approval request of an edit that needs one: a publication change (see above), or a spend (see above);
 * undefined when it may go ahead now.
 */
async function editApproval(
  ctx: CommandContext,
  { ref, patch, idempotencyKey }: { ref: Ref; patch: SeriesPatch; idempotencyKey: string },
): Promise<Response | undefined> {
  if (await publicationNeedsApproval(ctx, patch))
    return publicationApproval(ctx, { series: await getSeriesById(ctx, ref.id), patch, idempotencyKey });
  if ((await ctx.settings()).approval !== 'spend') return undefined;
  if (patch.brollModel === undefined && patch.paused !== false) return undefined;
  const series = await getSeriesById(ctx, ref.id);
  const before = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const after = patch.brollModel ?? before;
  const [oldCost, newCost] = await Promise.all([episodeCost(ctx, before), episodeCost(ctx, after)]);
  if (!(await editNeedsApproval(ctx, { series, patch, oldCost, newCost }))) return undefined;
  const resumes = patch.paused === false && series.paused === true;

  const [beforeName, afterName] = await Promise.all([
    catalogLabel(ctx, 'models', before),
    catalogLabel(ctx, 'models', after),
  ]);
  const perEpisode = newCost === undefined ? `the ${afterName} price` : `${newCost} credits`;
  const changes = [
    ...(after !== before ? [`model ${beforeName} → ${afterName}`] : []),
    ...(resumes ? ['resume'] : []),
  ];
  const others = Object.keys(patch)
    .filter((f) => f !== 'brollModel' && f !== 'paused')
    .map((f) => FIELD_LABELS[f] ?? f);
  return requestApproval(ctx, {
    command: 'series.edit',
    args: { seriesId: series.id, patch, ...(newCost === undefined ? {} : { cost: newCost }) },
    idempotencyKey,
    summary: md`Change the series “${literal(series.name)}”: ${literal(changes.join(', '))} (${literal(perEpisode)} per episode)`,
    fields: [
      { label: md`Series`, value: md`${literal(series.name)} (\`${literal(series.id)}\`)`, short: true },
      {
        label: md`Model`,
        value: literal(after === before ? afterName : `${beforeName} → ${afterName}`),
        short: true,
      },
      {
        label: md`Each episode`,
        value:
          oldCost !== undefined && newCost !== undefined && after !== before
            ? md`${oldCost} → ${newCost} credits`
            : literal(perEpisode),
        short: true,
      },
      ...(others.length > 0 ? [{ label: md`Also changes`, value: literal(others.join(', ')) }] : []),
    ],
  });
}

/**
 * The request of an edit of where, when or with which model a series posts: what changes, and the series as it
 * would then post (schedule in its zone, platform and accounts, model, cost per episode and per month).
 */
async function publicationApproval(
  ctx: CommandContext,
  { series, patch, idempotencyKey }: { series: Series; patch: SeriesPatch; idempotencyKey: string },
): Promise<Response> {
  const before = series.brollModel ?? DEFAULT_SERIES_MODEL;
  const after = patch.brollModel ?? before;
  const cost = await episodeCost(ctx, after);
  const posting = new Set<string>(PUBLICATION_FIELDS);
  const model = after === before ? `model ${after}` : `model ${before} → ${after}`;
  const changes = PUBLICATION_FIELDS.filter((f) => patch[f] !== undefined).map((f) =>
    f === 'brollModel' ? model : (FIELD_LABELS[f] ?? f),
  );
  if (patch.paused === false && series.paused === true) changes.push('resume');
  const others = Object.keys(patch)
    .filter((f) => !posting.has(f) && f !== 'paused')
    .map((f) => FIELD_LABELS[f] ?? f);
  const perEpisode = cost === undefined ? `the ${after} price` : `${cost} credits`;
  return requestApproval(ctx, {
    command: 'series.edit',
    args: { seriesId: series.id, patch, ...(cost === undefined ? {} : { cost }) },
    idempotencyKey,
    summary: md`Change the series “${literal(series.name)}”: ${literal(changes.join(', '))} (${literal(perEpisode)} per episode)`,
    fields: [
      { label: md`Series`, value: md`${literal(series.name)} (\`${literal(series.id)}\`)`, short: true },
      ...(await publicationFields(ctx, {
        ...series,
        ...patch,
        brollModel: after,
        postingDays: patch.postingDays ?? series.postingDays,
      })),
      ...(others.length > 0 ? [{ label: md`Also changes`, value: literal(others.join(', ')) }] : []),
    ],
  });
}

/**
 * Sends a checked edit (PATCH) with the caller's key, follows the new cadence, records it, and answers in
 * the channel with what changed. Used by the command and by an approver's click (`approved`).
 */
export async function applySeriesEdit(
  ctx: CommandContext,
  { ref, patch, approved }: { ref: Ref; patch: SeriesPatch; approved?: { id: string } },
): Promise<Response> {
  const api = await ctx.api();
  await api.series.update(ref.id, patch);
  const { store } = ctx.deps;
  await store.transaction(async () => {
    if (CADENCE_FIELDS.some((f) => f in patch)) await refreshSeriesWatches(store, ref.id, ctx.now());
    await store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'series.edit',
      seriesId: ref.id,
      details: {
        name: patch.name ?? ref.name,
        fields: Object.keys(patch).map((f) => FIELD_LABELS[f] ?? f),
        ...(patch.brollModel ? { model: patch.brollModel } : {}),
        ...(approved ? { approval: approved.id } : {}),
      },
    });
  });
  const lines: CardText[] = [];
  for (const [field, value] of Object.entries(patch)) {
    if (field === 'postingDays' || field === 'timezone') continue;
    lines.push(md`• ${literal(FIELD_LABELS[field] ?? field)} → ${literal(await shown(ctx, field, value))}`);
  }
  if (patch.postingDays || patch.timezone) {
    const days = patch.postingDays as Weekday[] | undefined;
    if (days) lines.push(md`• posting days → ${literal(describeDays(days))}`);
    if (patch.timezone) lines.push(md`• time zone → ${literal(patch.timezone)}`);
  }
  return {
    kind: 'message',
    visibility: 'channel',
    card: {
      title: md`Updated “${literal(patch.name ?? ref.name)}”`,
      tone: 'success',
      text: joinText(lines, '\n'),
      context: md`${ctx.req.userName ? md`Changed by ${literal(ctx.req.userName)} · ` : md``}id \`${literal(ref.id)}\` · ${command('series show', [ref.id])}`,
    },
  };
}

async function shown(ctx: CommandContext, field: string, value: unknown): Promise<string> {
  if (field === 'voice' && typeof value === 'string') return voiceName(ctx, value);
  if (field === 'brollModel' && typeof value === 'string') {
    const cost = await episodeCost(ctx, value);
    return cost === undefined ? value : `${value} (${cost} credits per episode from the next one)`;
  }
  if (field === 'paused') return value ? 'yes (no new episodes)' : 'no (episodes on schedule)';
  if (field === 'duration') return `${String(value)} s`;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value).slice(0, 120);
  return String(value).length > 120 ? `${String(value).slice(0, 119)}…` : String(value);
}
