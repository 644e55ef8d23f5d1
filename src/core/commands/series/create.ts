/**
 * `series create "Name" --source S …`: shows what the first episode (charged at once) and each later one
 * cost, and the balance; Confirm creates the series (POST /series) and follows it in this conversation so
 * every episode gets its own status card. Without a name or source it opens the create form
 * (./create-form.ts), whose submission leads to the same cost card.
 *
 * A series posts its episodes on its own, so it is a publication (../../series/publication.ts): creating one
 * takes the publish role as well as the spend role, and under an approval policy Confirm asks an approver,
 * whose click sends the one POST /series (with the requester's key for this action).
 */

import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import { actionKey } from '../../dispatch/request-id.js';
import { lookSoonAtBalance } from '../../live/balance-watcher.js';
import { startEpisodeCard, watchSeries } from '../../live/series-watcher.js';
import { type ActionSpec, type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { publicationFields } from '../../series/publication.js';
import {
  balance,
  configFields,
  DEFAULT_SERIES_MODEL,
  episodeCost,
  joinValue,
  videoName,
} from '../../series/series-common.js';
import {
  SERIES_FIELD_OPTIONS,
  type SeriesFieldArgs,
  SOURCE_DESCRIPTION,
} from '../../series/series-field-options.js';
import { seriesFieldsFrom } from '../../series/series-fields.js';
import { priceText, spendCard } from '../../series/spend-confirm.js';
import type { Card, Response } from '../../text/cards.js';
import { catalogLabel } from '../../text/labels.js';
import { command, literal, md } from '../../text/text.js';
import {
  type Episode,
  type Series,
  type SeriesInput,
  type SeriesSummary,
  type VideoApi,
  VideoApiError,
} from '../../video-api/video-api.js';
import { openCreateForm } from './create-form.js';
import { cancelAction, confirmAction, savePendingSpend, spendActions } from './spend-request.js';

export const createCommand: CommandSpec = defineCommand({
  name: 'series create',
  summary: 'Start an automated series: episodes are generated and posted on a schedule',
  options: [
    {
      name: 'name',
      kind: 'string',
      positional: true,
      required: true,
      maxLength: 120,
      description: 'Series name',
    },
    { name: 'source', kind: 'string', required: true, catalog: 'sources', description: SOURCE_DESCRIPTION },
    ...SERIES_FIELD_OPTIONS,
  ],
  examples: [
    'series create "Night Terrors" --source ai_story --niche scary_stories --schedule "daily 21:00 Europe/Paris"',
    'series create "Money Minute" --source news --niche personal_finance --days mon,wed,fri --time 08:30 --model motion_lite',
    'series create "Reddit Reads" --source reddit --subreddit tifu --background subway_runner --layout split --captions karaoke',
    'series create',
  ],
  details: md`With no arguments a form opens. The cost and your balance come first: nothing is created until you confirm. The first episode then starts generating right away; every episode charges its model's credits (storyboard 20, motion_lite 50, motion_pro 100). A series posts every episode on its own, so it takes the publish role, and under an approval policy an approver agrees before it is created. Schedules read like \`daily 09:00 Europe/Paris\`, \`weekdays 6pm\` or \`mon,wed,fri 18:00\` (your time zone unless you name one).`,
  form: (ctx, partial) => openCreateForm(ctx, partial),
  async run(ctx, args) {
    const fields = await seriesFieldsFrom(ctx, args as SeriesFieldArgs, 'create');
    return confirmCreate(ctx, { ...fields, name: args.name, source: fields.source ?? args.source });
  },
});

export interface CreateSeriesOptions {
  /** Set when an approver runs someone else's request: its stored idempotency key. */
  approved?: { id: string; idempotencyKey: string; requesterName: string };
  /** The key minted when the confirm card opened. */
  idempotencyKey?: string;
}

/**
 * The cost card before anything is created (DESIGN §5): the first episode is charged at once, then each
 * episode as it is generated. The key is minted now: from the form's request id when the form led here, else
 * from the typed command (the same command again soon is the same request).
 */
export async function confirmCreate(
  ctx: CommandContext,
  input: SeriesInput,
  options: { requestId?: string | undefined } = {},
): Promise<Response> {
  await checkRoles(ctx);
  const model = input.brollModel ?? DEFAULT_SERIES_MODEL;
  const [cost, credits] = await Promise.all([episodeCost(ctx, model), balance(ctx)]);
  const approval = await approvalFor(ctx, cost);
  const idempotencyKey = await actionKey(ctx, {
    action: 'series.create',
    payload: input,
    requestId: options.requestId,
  });
  const draft = { op: 'create' as const, input, ...(cost === undefined ? {} : { cost }) };
  const card = await savePendingSpend(ctx, {
    draft,
    idempotencyKey,
    card: async (id) =>
      await spendCard(ctx, {
        title: md`Start the series “${literal(input.name)}”?`,
        text: md`Its first episode starts generating at once and is charged now: ${priceText(cost, await catalogLabel(ctx, 'models', model))}. Every later episode costs the same, charged when it is generated.`,
        chargedNow: cost,
        // Where, when and what it posts, each episode's and each month's cost, and when the balance runs out.
        publication: await publicationFields(ctx, input),
        credits,
        approval: approval !== undefined,
        ...(approval ? { approvalFor: approval } : {}),
        confirm: { action: confirmAction('create'), value: id, label: 'Create series' },
        cancel: { action: cancelAction('create'), value: id },
        short: {
          advice: md`That does not cover the first episode: the series would be created, but no episode starts until you top up in the dashboard.`,
          withholdConfirm: false,
        },
        context: md`Nothing is charged until you confirm. · source ${literal(input.source)}`,
      }),
  });
  return { kind: 'message', visibility: 'ephemeral', card };
}

/** Both roles a series takes: it spends (every episode) and it posts (every episode, on its own). */
async function checkRoles(ctx: CommandContext): Promise<void> {
  await checkRole(ctx, 'spend');
  await checkRole(ctx, 'publish');
}

/**
 * Which policy makes an approver agree before the series exists: any approval policy covers publishing, and
 * a series posts; `approval spend` also covers a first episode above the threshold.
 */
async function approvalFor(
  ctx: CommandContext,
  cost: number | undefined,
): Promise<'publish' | 'spend' | undefined> {
  if (await needsApproval(ctx, { kind: 'publish' })) return 'publish';
  if (await needsApproval(ctx, { kind: 'spend', credits: cost })) return 'spend';
  return undefined;
}

/**
 * The request an approver sees (with the card's key): the series as it would post — cadence, where, model,
 * cost per episode and per month — and its source.
 */
async function createApproval(
  ctx: CommandContext,
  { input, cost, idempotencyKey }: { input: SeriesInput; cost: number | undefined; idempotencyKey: string },
): Promise<Response> {
  const model = input.brollModel ?? DEFAULT_SERIES_MODEL;
  return await requestApproval(ctx, {
    command: 'series.create',
    args: { input, ...(cost === undefined ? {} : { cost }) },
    idempotencyKey,
    summary: md`Start the series “${literal(input.name)}”${cost === undefined ? md`` : md` (${cost} credits per episode)`}`,
    fields: [
      ...(await publicationFields(ctx, { ...input, brollModel: model })),
      { label: md`Source`, value: literal(input.source), short: true },
    ],
  });
}

/** Confirm: the approval request when the policy wants one (roles and policy read again now), else the create. */
export const [createConfirmAction, createCancelAction] = spendActions('create', async (ctx, pending) => {
  if (pending.op !== 'create') throw userError('interaction-expired');
  await checkRoles(ctx);
  const cost = await episodeCost(ctx, pending.input.brollModel ?? DEFAULT_SERIES_MODEL);
  if (await approvalFor(ctx, cost)) {
    return {
      response: await createApproval(ctx, {
        input: pending.input,
        cost,
        idempotencyKey: pending.idempotencyKey,
      }),
      done: false,
    };
  }
  const response = await createSeries(ctx, pending.input, { idempotencyKey: pending.idempotencyKey });
  return { response, done: true };
}) as [ActionSpec, ActionSpec];

/**
 * The create itself, once confirmed (or approved): POST once per user action, then follow the series here
 * and give the episodes already there (the first one, usually) their cards.
 */
export async function createSeries(
  ctx: CommandContext,
  input: SeriesInput,
  options: CreateSeriesOptions = {},
): Promise<Response> {
  const { approved } = options;
  if (!approved) await checkRoles(ctx);
  const api = await ctx.api();
  const model = input.brollModel ?? DEFAULT_SERIES_MODEL;
  const cost = await episodeCost(ctx, model);
  const idempotencyKey =
    approved?.idempotencyKey ??
    options.idempotencyKey ??
    (await actionKey(ctx, { action: 'series.create', payload: input }));
  const created = await api.series.create(input, { idempotencyKey });
  const { series, episodes } = await readBack(api, { created, input });
  const effectiveModel = series.brollModel ?? model;
  const effectiveCost = effectiveModel === model ? cost : await episodeCost(ctx, effectiveModel);
  const withVideo = episodes.filter((e): e is Episode & { projectId: string } => Boolean(e.projectId));
  const names = new Map<string, string>();
  for (const e of withVideo.slice(0, 3))
    names.set(e.projectId, await videoName(ctx, e.projectId, `${created.name} — episode`));
  await recordCreated(ctx, {
    created,
    model: effectiveModel,
    cost: effectiveCost,
    withVideo,
    names,
    approved,
  });
  return {
    kind: 'message',
    visibility: 'channel',
    card: await createdCard(ctx, { series, cost: effectiveCost, cardsPosted: withVideo.length }),
  };
}

/** Both reads are niceties: the series exists either way, and the watcher catches up on episodes. */
async function readBack(
  api: VideoApi,
  { created, input }: { created: SeriesSummary; input: SeriesInput },
): Promise<{ series: Series; episodes: Episode[] }> {
  const series: Series = await api.series.get(created.id).catch((e: unknown) => {
    if (e instanceof VideoApiError) return { ...input, ...created, extra: {} } as Series;
    throw e;
  });
  const episodes: Episode[] = await api.series
    .episodes(created.id, { page: 1, limit: 20 })
    .then((p) => p.items)
    .catch((e: unknown) => {
      if (e instanceof VideoApiError) return [];
      throw e;
    });
  return { series, episodes };
}

/** A series just created, with the model and cost its episodes really use and the episodes already there. */
interface CreatedSeries {
  created: SeriesSummary;
  model: string;
  cost: number | undefined;
  withVideo: (Episode & { projectId: string })[];
  /** The first episodes' video names, by video id. */
  names: Map<string, string>;
  approved: CreateSeriesOptions['approved'];
}

/** In one transaction: the audit, the channel's subscription and watch, and the first episodes' cards. */
async function recordCreated(ctx: CommandContext, c: CreatedSeries): Promise<void> {
  const now = ctx.now();
  const { store } = ctx.deps;
  await store.transaction(async () => {
    await store.users.setLast(ctx.req.user, 'series', c.created.id);
    await auditCreate(ctx, c, now);
    // The channel follows its new series like a `subscribe series` (listed, and `unsubscribe` stops it).
    await store.subscriptions.add({
      conversation: ctx.req.conversation,
      kind: 'series',
      target: c.created.id,
      owner: await ctx.keyOwner(),
    });
    await watchSeries(store, {
      seriesId: c.created.id,
      conversation: ctx.req.conversation,
      owner: await ctx.keyOwner(),
      now,
      name: c.created.name,
      primed: true,
      seen: c.withVideo.map((e) => e.id),
    });
    await startEpisodeCards(ctx, c, now);
  });
}

async function auditCreate(
  ctx: CommandContext,
  { created, model, cost, withVideo, approved }: CreatedSeries,
  now: number,
): Promise<void> {
  await ctx.deps.store.audit.record({
    at: now,
    conversation: ctx.req.conversation,
    actor: ctx.req.user,
    action: 'series.create',
    seriesId: created.id,
    // The first episode starts (and is charged) at creation: its spend counts in the audit's total.
    ...(cost !== undefined && withVideo.length > 0 ? { credits: cost } : {}),
    details: {
      name: created.name,
      model,
      ...(cost === undefined ? {} : { costPerEpisode: cost }),
      ...(approved ? { approval: approved.id } : {}),
    },
  });
  await lookSoonAtBalance(ctx.deps.store, ctx.req.conversation, now);
}

/** A status card for each episode already there, oldest first. */
async function startEpisodeCards(
  ctx: CommandContext,
  { created, model, cost, withVideo, names, approved }: CreatedSeries,
  now: number,
): Promise<void> {
  for (const episode of [...withVideo].reverse()) {
    await startEpisodeCard(ctx.deps.store, {
      videoId: episode.projectId,
      name: names.get(episode.projectId) ?? `${created.name} — episode`,
      conversation: ctx.req.conversation,
      owner: await ctx.keyOwner(),
      now,
      requester: ctx.req.user,
      model,
      ...(cost === undefined ? {} : { credits: cost }),
      ...((approved?.requesterName ?? ctx.req.userName)
        ? { requestedBy: approved?.requesterName ?? ctx.req.userName }
        : {}),
    });
  }
}

async function createdCard(
  ctx: CommandContext,
  { series, cost, cardsPosted }: { series: Series; cost: number | undefined; cardsPosted: number },
): Promise<Card> {
  const model = literal(await catalogLabel(ctx, 'models', series.brollModel ?? DEFAULT_SERIES_MODEL));
  const price = cost === undefined ? md`the ${model} price` : md`**${cost} credits** (${model})`;
  // No episode yet: the service skips an episode the team cannot pay for; say so rather than "generating".
  const credits = cardsPosted === 0 && cost !== undefined ? await balance(ctx) : undefined;
  const short = credits !== undefined && cost !== undefined && credits < cost;
  const start = short
    ? md`⚠️ Your team has **${credits}** credits and an episode costs **${cost}** (${model}), so the first episode could not start. Top up in the dashboard; scheduled episodes start again once the balance covers them.`
    : md`The first episode starts generating now${cardsPosted > 0 ? md`; its status card follows` : md``}. Each episode costs ${price}, charged when it is generated.`;
  return {
    title: md`Series created: ${literal(series.name)}`,
    tone: short ? 'warning' : 'success',
    text: md`${start}\nI will post a status card here for every new episode.`,
    fields: await configFields(ctx, series, false),
    controls: [
      { kind: 'button', action: 'series.pause', value: series.id, label: 'Pause' },
      {
        kind: 'button',
        action: 'series.generate',
        value: joinValue(series.id),
        label: 'Generate another now',
      },
    ],
    context: md`${ctx.req.userName ? md`Created by ${literal(ctx.req.userName)} · ` : md``}id \`${literal(series.id)}\` · ${command('series show', [series.id])}`,
  };
}
