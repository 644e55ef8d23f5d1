/**
 * The pace the team spends at (DESIGN §5, budgets): every active series' episodes a month at its cadence
 * times its model's price per episode, added up, and the day the balance runs out at that pace. A series
 * card and a series confirmation say what the one series costs a month and when the balance runs out with
 * all active series posting, since they draw on the same credits.
 */

import type { CommandContext } from '../dispatch/context.js';
import type { Field } from '../text/cards.js';
import { type CardText, md } from '../text/text.js';
import { formatDay } from '../time/format.js';
import { dayKey } from '../time/zone.js';
import { type CallOptions, type Series, type VideoApi, VideoApiError } from '../video-api/video-api.js';
import { daysOf } from './cadence.js';
import { balance, DEFAULT_SERIES_MODEL, episodeCost } from './series-common.js';

/** Average days in a month over a week: a daily series posts about 30 episodes a month. */
const WEEKS_PER_MONTH = 365.25 / 12 / 7;
const DAY_MS = 86_400_000;

/** Episodes a week at these posting days (none = every day). */
export const episodesPerWeek = (postingDays: readonly string[] | undefined): number =>
  daysOf(postingDays ?? []).length || 7;

/** Episodes a month at this cadence (no days = every day), rounded as people count them. */
export const episodesPerMonth = (postingDays: readonly string[] | undefined): number =>
  Math.round(episodesPerWeek(postingDays) * WEEKS_PER_MONTH);

/** What one series, or several together, spend: credits a month (as people count) and a day (exact). */
export interface Pace {
  /** How many active series it adds up. */
  series: number;
  perMonth: number;
  perDay: number;
}

/** The pace of one series posting on these days at this price per episode. */
export const paceOf = (postingDays: readonly string[] | undefined, cost: number): Pace => ({
  series: 1,
  perMonth: episodesPerMonth(postingDays) * cost,
  perDay: (episodesPerWeek(postingDays) * cost) / 7,
});

const add = (a: Pace, b: Pace): Pace => ({
  series: a.series + b.series,
  perMonth: a.perMonth + b.perMonth,
  perDay: a.perDay + b.perDay,
});

const NONE: Pace = { series: 0, perMonth: 0, perDay: 0 };

/**
 * The pace of the team's active (unpaused) series on the service, leaving out `except` (the series being
 * created or changed, counted by the caller as it will be). Undefined when a series or a price cannot be read:
 * the card then leaves the run-out date out rather than guess it low.
 */
export async function activePace(ctx: CommandContext, except?: string): Promise<Pace | undefined> {
  return await teamPace(await ctx.api(), {
    cost: (model) => episodeCost(ctx, model),
    ...(except ? { except } : {}),
  });
}

/**
 * `activePace` read with any client (the poller's, in the background): `cost` prices an episode of a model,
 * undefined when it cannot.
 */
export async function teamPace(
  api: VideoApi,
  o: { cost: (model: string) => Promise<number | undefined>; except?: string; call?: CallOptions },
): Promise<Pace | undefined> {
  try {
    const active = (await api.series.list(o.call)).filter((s) => !s.paused && s.id !== o.except);
    const paces = await Promise.all(
      active.map(async (summary) => {
        const s = await api.series.get(summary.id, o.call);
        if (s.paused) return NONE;
        const cost = await o.cost(s.brollModel ?? DEFAULT_SERIES_MODEL);
        return cost === undefined ? undefined : paceOf(s.postingDays, cost);
      }),
    );
    return paces.some((p) => p === undefined)
      ? undefined
      : paces.reduce<Pace>((a, p) => add(a, p ?? NONE), NONE);
  } catch (e) {
    if (e instanceof VideoApiError) return undefined;
    throw e;
  }
}

/** "less than a day", or "until Tue 15 Dec 2026": how long `credits` last at `perDay` (> 0) from `now`. */
export function lastsFor(credits: number, o: { perDay: number; now: number; zone: string }): CardText {
  const days = Math.floor(credits / o.perDay);
  return days === 0 ? md`less than a day` : md`until ${formatDay(dayKey(o.now + days * DAY_MS, o.zone))}`;
}

/** What `budgetText` reads: this series' own pace, the others', the balance, and the zone of the date. */
export interface Budget {
  own: Pace;
  /** This series counts in the total only when it is (or will be) active. */
  ownActive: boolean;
  others: Pace | undefined;
  credits: number | undefined;
  zone: string;
}

/**
 * "≈600 credits a month; at this pace (all 2 active series: ≈900 a month) your 480 credits last until Tue
 * 15 Dec 2026"; just "≈600 credits a month" when the balance or another series cannot be read.
 */
export function budgetText(ctx: CommandContext, b: Budget): CardText {
  const own = md`≈${b.own.perMonth} credits a month`;
  if (b.credits === undefined || b.others === undefined) return own;
  const all = b.ownActive ? add(b.own, b.others) : b.others;
  if (all.perDay === 0) return own;
  const together =
    all.series > 1 || !b.ownActive ? md` (all ${all.series} active series: ≈${all.perMonth} a month)` : md``;
  const lasts = lastsFor(b.credits, { perDay: all.perDay, now: ctx.now(), zone: b.zone });
  return md`${own}; at this pace${together} your ${b.credits} credits last ${lasts}`;
}

/** A series card's "Budget" field: what it costs a month and when the balance runs out with every active series. */
export async function budgetField(ctx: CommandContext, s: Series): Promise<Field | undefined> {
  const [cost, credits, others] = await Promise.all([
    episodeCost(ctx, s.brollModel ?? DEFAULT_SERIES_MODEL),
    balance(ctx),
    activePace(ctx, s.id),
  ]);
  if (cost === undefined || cost === 0) return undefined;
  const own = paceOf(s.postingDays, cost);
  const zone = s.timezone ?? 'UTC';
  return {
    label: md`Budget`,
    value: budgetText(ctx, { own, ownActive: s.paused !== true, others, credits, zone }),
  };
}
