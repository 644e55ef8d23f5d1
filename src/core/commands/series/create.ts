/**
 * `series create "Name" --source S …`: creates a series (POST /series), says what each episode will cost,
 * and follows it in this conversation so every episode gets its own status card. Without a name or source
 * it opens the create form (./create-form.ts).
 */
import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { checkRole } from '../../approvals/roles.js';
import type { Card, Response } from '../../cards.js';
import { type CommandSpec, defineCommand } from '../../command-spec.js';
import type { CommandContext } from '../../context.js';
import { startEpisodeCard, watchSeries } from '../../live/series-watcher.js';
import { actionKey } from '../../request-id.js';
import { literal } from '../../text.js';
import { type Episode, type Series, type SeriesInput, VideoApiError } from '../../video-api.js';
import { openCreateForm } from './create-form.js';
import {
  balance,
  configFields,
  DEFAULT_SERIES_MODEL,
  episodeCost,
  joinValue,
  videoName,
} from './series-common.js';
import {
  SERIES_FIELD_OPTIONS,
  type SeriesFieldArgs,
  SOURCE_DESCRIPTION,
  seriesFieldsFrom,
} from './series-fields.js';

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
    { name: 'source', kind: 'string', required: true, description: SOURCE_DESCRIPTION },
    ...SERIES_FIELD_OPTIONS,
  ],
  examples: [
    'series create "Night Terrors" --source ai_story --niche scary_stories --schedule "daily 21:00 Europe/Paris"',
    'series create "Money Minute" --source news --niche personal_finance --days mon,wed,fri --time 08:30 --model motion_lite',
    'series create',
  ],
  details:
    'With no arguments a form opens. The first episode starts generating right away; every episode charges its ' +
    "model's credits (storyboard 20, motion_lite 50, motion_pro 100). Schedules read like " +
    '`daily 09:00 Europe/Paris`, `weekdays 6pm` or `mon,wed,fri 18:00` (your time zone unless you name one).',
  form: (ctx, partial) => openCreateForm(ctx, partial),
  async run(ctx, args) {
    const fields = await seriesFieldsFrom(ctx, args as SeriesFieldArgs, 'create');
    return createSeries(ctx, { ...fields, name: args.name, source: fields.source ?? args.source });
  },
});

export interface CreateSeriesOptions {
  /** Set when an approver runs someone else's request: its stored idempotency key. */
  approved?: { id: string; idempotencyKey: string; requesterName: string };
  /** The create form's request id; a typed command has none (its key is the command's content). */
  requestId?: string | undefined;
}

/**
 * The create itself, shared by the command and the form: POST once per user action, then follow the series
 * here and give the episodes already there (the first one, usually) their cards.
 */
export async function createSeries(
  ctx: CommandContext,
  input: SeriesInput,
  options: CreateSeriesOptions = {},
): Promise<Response> {
  const { approved } = options;
  checkRole(ctx, 'spend');
  const api = ctx.api();
  const model = input.brollModel ?? DEFAULT_SERIES_MODEL;
  const cost = await episodeCost(ctx, model);
  const idempotencyKey =
    approved?.idempotencyKey ?? actionKey(ctx, 'series.create', input, options.requestId);
  if (!approved && needsApproval(ctx, { kind: 'spend', credits: cost })) {
    return requestApproval(ctx, {
      command: 'series.create',
      args: { input, ...(cost === undefined ? {} : { cost }) },
      idempotencyKey,
      summary: `Start the series “${literal(input.name)}”${cost === undefined ? '' : ` (${cost} credits per episode)`}`,
      fields: [
        { label: 'Model', value: literal(model), short: true },
        ...(cost === undefined ? [] : [{ label: 'Each episode', value: `${cost} credits`, short: true }]),
        { label: 'Source', value: literal(input.source), short: true },
      ],
    });
  }
  const created = await api.series.create(input, { idempotencyKey });

  // Both reads are niceties: the series exists either way, and the watcher catches up on episodes.
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
  const effectiveModel = series.brollModel ?? model;
  const effectiveCost = effectiveModel === model ? cost : await episodeCost(ctx, effectiveModel);
  const withVideo = episodes.filter((e): e is Episode & { projectId: string } => Boolean(e.projectId));
  const names = new Map<string, string>();
  for (const e of withVideo.slice(0, 3))
    names.set(e.projectId, await videoName(ctx, e.projectId, `${created.name} — episode`));
  const now = ctx.now();
  const { store } = ctx.deps;
  store.transaction(() => {
    store.users.setLast(ctx.req.user, 'series', created.id);
    store.audit.record({
      at: now,
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'series.create',
      seriesId: created.id,
      details: {
        name: created.name,
        model: effectiveModel,
        ...(effectiveCost === undefined ? {} : { costPerEpisode: effectiveCost }),
        ...(approved ? { approval: approved.id } : {}),
      },
    });
    // The channel follows its new series like a `subscribe series` (listed, and `unsubscribe` stops it).
    store.subscriptions.add({
      conversation: ctx.req.conversation,
      kind: 'series',
      target: created.id,
      owner: ctx.keyOwner(),
    });
    watchSeries(store, {
      seriesId: created.id,
      conversation: ctx.req.conversation,
      owner: ctx.keyOwner(),
      now,
      name: created.name,
      primed: true,
      seen: withVideo.map((e) => e.id),
    });
    for (const episode of [...withVideo].reverse()) {
      startEpisodeCard(store, {
        videoId: episode.projectId,
        name: names.get(episode.projectId) ?? `${created.name} — episode`,
        conversation: ctx.req.conversation,
        owner: ctx.keyOwner(),
        now,
        requester: ctx.req.user,
        model: effectiveModel,
        ...(effectiveCost === undefined ? {} : { credits: effectiveCost }),
        ...((approved?.requesterName ?? ctx.req.userName)
          ? { requestedBy: approved?.requesterName ?? ctx.req.userName }
          : {}),
      });
    }
  });
  return {
    kind: 'message',
    visibility: 'channel',
    card: await createdCard(ctx, series, effectiveCost, withVideo.length),
  };
}

async function createdCard(
  ctx: CommandContext,
  series: Series,
  cost: number | undefined,
  cardsPosted: number,
): Promise<Card> {
  const model = literal(series.brollModel ?? DEFAULT_SERIES_MODEL);
  const price = cost === undefined ? `the ${model} price` : `**${cost} credits** (${model})`;
  // No episode yet: the service skips an episode the team cannot pay for; say so rather than "generating".
  const credits = cardsPosted === 0 && cost !== undefined ? await balance(ctx) : undefined;
  const short = credits !== undefined && cost !== undefined && credits < cost;
  const start = short
    ? `⚠️ Your team has **${credits}** credits and an episode costs **${cost}** (${model}), so the first episode ` +
      'could not start. Top up in the dashboard; scheduled episodes start again once the balance covers them.'
    : `The first episode starts generating now${cardsPosted > 0 ? '; its status card follows' : ''}. ` +
      `Each episode costs ${price}, charged when it is generated.`;
  return {
    title: `Series created: ${literal(series.name)}`,
    tone: short ? 'warning' : 'success',
    text: `${start}\nI will post a status card here for every new episode.`,
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
    context: `${ctx.req.userName ? `Created by ${literal(ctx.req.userName)} · ` : ''}id \`${series.id}\` · \`/reel series show ${series.id}\``,
  };
}
