/**
 * A series that posts is a publication (DESIGN §5). The service posts every episode of a series on its
 * cadence, to the primary platform it was given or, when none was, to its own default (video-api.md §4 has no
 * "generate only" series): so creating any series, or changing where, when or with which model it posts,
 * takes the publish role and, under the publish policy, an approver's agreement before the service hears of
 * it. This file says which fields those are, and what an approver reads about them: the cadence in words in
 * the series' zone, where it posts (platform and accounts), the model, what it costs per episode and per
 * month, and when the balance runs out at that pace.
 */

import type { CommandContext } from '../dispatch/context.js';
import { platformName } from '../platforms/names.js';
import type { Field } from '../text/cards.js';
import { catalogLabel, humanise } from '../text/labels.js';
import { literal, md } from '../text/text.js';
import { type Account, type SeriesPatch, VideoApiError } from '../video-api/video-api.js';
import { daysOf, describeSchedule } from './cadence.js';
import { activePace, budgetText, episodesPerMonth, paceOf } from './pace.js';
import { balance, DEFAULT_SERIES_MODEL, episodeCost } from './series-common.js';

/** The fields that decide where, when and what a series posts: changing one is a publication change. */
export const PUBLICATION_FIELDS = [
  'destination',
  'destinationAccounts',
  'autoPostTime',
  'postingDays',
  'timezone',
  'brollModel',
  'youtubePrivacyStatus',
] as const satisfies readonly (keyof SeriesPatch)[];

/** Whether a patch changes where, when or what the series posts. */
export const changesPublication = (patch: SeriesPatch): boolean =>
  PUBLICATION_FIELDS.some((f) => patch[f] !== undefined);

/** What the series would be once created or changed: the configuration fields a publication card reads. */
export type PublicationConfig = Pick<
  SeriesPatch,
  'destination' | 'destinationAccounts' | 'autoPostTime' | 'timezone' | 'brollModel' | 'youtubePrivacyStatus'
> & {
  postingDays?: string[] | undefined;
  /** The series being changed (left out of the others' pace), none when it is being created. */
  id?: string | undefined;
  /** Whether it posts once created or changed: a paused series adds nothing to the pace. */
  paused?: boolean | undefined;
};

/**
 * The approval card's fields for a series as it would post: schedule, where, model, cost per episode and per
 * month (values escaped). An unreadable price or account list is said in words, never as a raw id.
 */
export async function publicationFields(ctx: CommandContext, config: PublicationConfig): Promise<Field[]> {
  const model = config.brollModel ?? DEFAULT_SERIES_MODEL;
  const [cost, credits, others] = await Promise.all([
    episodeCost(ctx, model),
    balance(ctx),
    activePace(ctx, config.id),
  ]);
  const perMonth = episodesPerMonth(config.postingDays);
  const modelName = await catalogLabel(ctx, 'models', model);
  const schedule = describeSchedule({
    postingDays: daysOf(config.postingDays ?? []),
    ...(config.autoPostTime ? { autoPostTime: config.autoPostTime } : {}),
    ...(config.timezone ? { timezone: config.timezone } : {}),
  });
  return [
    { label: md`Schedule`, value: literal(schedule) },
    { label: md`Posts to`, value: literal(await whereItPosts(ctx, config)) },
    ...(config.youtubePrivacyStatus
      ? [{ label: md`YouTube privacy`, value: literal(humanise(config.youtubePrivacyStatus)), short: true }]
      : []),
    { label: md`Model`, value: literal(modelName), short: true },
    {
      label: md`Each episode`,
      value: cost === undefined ? md`the ${literal(modelName)} price` : md`${cost} credits`,
      short: true,
    },
    {
      label: md`Each month`,
      value:
        cost === undefined
          ? md`about ${perMonth} episodes`
          : md`about ${perMonth} episodes · ${perMonth * cost} credits`,
      short: true,
    },
    ...(cost === undefined || cost === 0
      ? []
      : [
          {
            label: md`At this pace`,
            value: budgetText(ctx, {
              own: paceOf(config.postingDays, cost),
              ownActive: config.paused !== true,
              others,
              credits,
              zone: config.timezone ?? 'UTC',
            }),
          },
        ]),
  ];
}

/** "YouTube · Demo Channel", "TikTok · @demo.reels (its default account)", or the service's default platform. */
async function whereItPosts(ctx: CommandContext, config: PublicationConfig): Promise<string> {
  if (!config.destination) return 'the service’s default platform, to its default account (none chosen)';
  const platform = platformName(config.destination);
  const accounts = await connectedAccounts(ctx, config.destination);
  const ids = config.destinationAccounts ?? [];
  if (ids.length === 0) {
    // The service posts to the platform's default account (the first when none is marked).
    const fallback = accounts?.find((a) => a.isDefault) ?? accounts?.[0];
    return `${platform} · ${fallback ? `${fallback.label} (its default account)` : 'its default account'}`;
  }
  const labels = ids.map((id) => accounts?.find((a) => a.authId === id)?.label);
  const named = labels.every((l): l is string => Boolean(l));
  return `${platform} · ${named ? labels.join(', ') : `${ids.length} account${ids.length === 1 ? '' : 's'}`}`;
}

/** The team's connected accounts on one platform; undefined when the list cannot be read. */
async function connectedAccounts(ctx: CommandContext, platform: string): Promise<Account[] | undefined> {
  try {
    return (await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId()))[platform] ?? [];
  } catch (e) {
    if (e instanceof VideoApiError) return undefined;
    throw e;
  }
}
