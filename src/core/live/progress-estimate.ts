/**
 * When to look at a running job next, from its progress rate: the estimate may bring a look earlier than
 * the longest interval (just after the expected finish), never later. Progress on the real service jumps
 * and stalls (a step curve: 10 → 10 → 62 → 85 → done), so a rate is a guess and the bounds always hold.
 *
 * Three things keep the guess useful on step curves (measured in bench/poller-scale, docs/performance.md):
 * - a percent seen again says nothing new: the rate runs to the first reading of the current percent (when
 *   the job reached it, as far as anyone knows), and the job is taken to have moved on since, unreported;
 * - once a stall was seen, the rate is measured from when generation started (if known), not from the first
 *   reading: a step reading is only as precise as its plateau, and the longest baseline errs least;
 * - once a stall was seen, a look by which the job has more likely than not finished reads the video (a
 *   "finishing" look), so that finding it done costs one call, not two.
 */

import { boundsOnClock, onClock, type ServiceSpeed } from './service-time.js';

const SECOND = 1000;
/** Generation status: the API advises 10–30 s. */
export const GENERATION_BOUNDS = { min: 10 * SECOND, max: 30 * SECOND } as const;

export interface ProgressSample {
  at: number;
  /** 0..100 */
  percent: number;
}

interface Rate {
  /** Milliseconds one percent takes. */
  msPerPercent: number;
  /** When the job is expected to finish. */
  finishAt: number;
  /** The latest reading (now, for planning). */
  last: ProgressSample;
  /** Index of the first reading at the latest percent. */
  reached: number;
}

/**
 * The rate from the first sample to the first reading at the latest percent; undefined when there is no
 * progress between them (a single reading, a stall since the first, or going backwards).
 */
function rateOf(samples: readonly ProgressSample[]): Rate | undefined {
  const origin = samples[0];
  const last = samples[samples.length - 1];
  if (!origin || !last || samples.length < 2) return undefined;
  let reached = samples.length - 1;
  while (reached > 0 && (samples[reached - 1] as ProgressSample).percent === last.percent) reached--;
  const at = (samples[reached] as ProgressSample).at;
  const gained = last.percent - origin.percent;
  if (gained <= 0 || at <= origin.at) return undefined;
  const msPerPercent = (at - origin.at) / gained;
  return { msPerPercent, finishAt: at + (100 - last.percent) * msPerPercent, last, reached };
}

/** Milliseconds left, from the progress rate across the samples; undefined without a usable rate. */
export function estimateRemainingMs(samples: readonly ProgressSample[]): number | undefined {
  const rate = rateOf(samples);
  return rate && Math.max(0, rate.finishAt - rate.last.at);
}

/** The same percent (above 0) on two readings in a row: progress that stalls, i.e. a step curve. */
const stalled = (samples: readonly ProgressSample[]): boolean =>
  samples.some((s, i) => i > 0 && s.percent > 0 && s.percent === samples[i - 1]?.percent);

/**
 * The finish if the job reached its latest percent half-way between the reading before (a real one, not
 * the origin) and the first reading at it, rather than at that reading: the likelier finish on a step curve.
 */
function likelyFinishAt(samples: readonly ProgressSample[], rate: Rate): number | undefined {
  if (rate.reached < 2) return undefined;
  const origin = samples[0] as ProgressSample;
  const before = samples[rate.reached - 1] as ProgressSample;
  const reachedAt = (before.at + (samples[rate.reached] as ProgressSample).at) / 2;
  return (
    reachedAt + (100 - rate.last.percent) * ((reachedAt - origin.at) / (rate.last.percent - origin.percent))
  );
}

export interface NextLook {
  inMs: number;
  /** The look is meant to land after the expected finish. */
  finishing: boolean;
}

/**
 * When to look next: with no rate yet, soon (to get one); stalled, at the slowest; otherwise just after the
 * estimated finish when that is within reach, else one short interval before it, always within the bounds.
 * "Just after" is a second or one percent's worth, whichever is longer: percents are whole numbers, so the
 * job may be up to a percent further along than it says. On a step curve, a look by which the job has
 * likelier than not finished is a finishing look too. `bounds` and the second are the service's time, the
 * samples and the answer this process's clock (`speed`: service-time.ts).
 */
export function planNextLook(
  samples: readonly ProgressSample[],
  serviceBounds: { min: number; max: number } = GENERATION_BOUNDS,
  speed: ServiceSpeed = 1,
): NextLook {
  const bounds = boundsOnClock(serviceBounds, speed);
  const rate = rateOf(samples);
  if (rate === undefined) return { inMs: samples.length < 2 ? bounds.min : bounds.max, finishing: false };
  const remaining = Math.max(0, rate.finishAt - rate.last.at);
  const margin = Math.max(onClock(SECOND, speed), rate.msPerPercent);
  const after = remaining + margin;
  if (after <= bounds.max) return { inMs: Math.round(Math.max(bounds.min, after)), finishing: true };
  // Further: early enough that the next look is in reach of the finish.
  const inMs = Math.round(Math.max(bounds.min, Math.min(bounds.max, remaining - bounds.min)));
  const likely = stalled(samples) ? likelyFinishAt(samples, rate) : undefined;
  return { inMs, finishing: likely !== undefined && likely + margin <= rate.last.at + inMs };
}

export const nextCheckIn = (
  samples: readonly ProgressSample[],
  bounds: { min: number; max: number } = GENERATION_BOUNDS,
  speed: ServiceSpeed = 1,
): number => planNextLook(samples, bounds, speed).inMs;

/**
 * The samples a rate is drawn from. The moment generation started (known when this bot created the video)
 * stands in as 0 %: with a single reading, so the first look already gives a rate and the second can land
 * near the finish; and once progress has stalled, so the rate spans the whole run. Otherwise (a smooth
 * curve) only real readings count, so the rate follows the job's recent pace.
 */
export function rateSamples(
  samples: readonly ProgressSample[],
  startedAt: number | undefined,
): ProgressSample[] {
  const first = samples[0];
  if (!first || startedAt === undefined || first.at <= startedAt) return [...samples];
  if (samples.length === 1 ? first.percent <= 0 : !stalled(samples)) return [...samples];
  return [{ at: startedAt, percent: 0 }, ...samples];
}
