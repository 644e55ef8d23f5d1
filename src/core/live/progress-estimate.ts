/**
 * When to look at a running job next, from its progress rate: the estimate may bring a look earlier than
 * the longest interval (just after the expected finish), never later. Progress on the real service jumps
 * and stalls, so a rate is a guess and the bounds always hold.
 */

const SECOND = 1000;
/** Generation status: the API advises 10–30 s. */
export const GENERATION_BOUNDS = { min: 10 * SECOND, max: 30 * SECOND } as const;

export interface ProgressSample {
  at: number;
  /** 0..100 */
  percent: number;
}

/** Milliseconds left, from the progress rate across the samples; undefined without a usable rate. */
export function estimateRemainingMs(samples: readonly ProgressSample[]): number | undefined {
  if (samples.length < 2) return undefined;
  const first = samples[0] as ProgressSample;
  const last = samples[samples.length - 1] as ProgressSample;
  const gained = last.percent - first.percent;
  const elapsed = last.at - first.at;
  if (gained <= 0 || elapsed <= 0) return undefined;
  return Math.max(0, ((100 - last.percent) * elapsed) / gained);
}

/** Milliseconds one percent takes at the current rate; undefined without a usable rate. */
function msPerPercent(samples: readonly ProgressSample[]): number | undefined {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || last.percent <= first.percent) return undefined;
  return (last.at - first.at) / (last.percent - first.percent);
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
 * job may be up to a percent further along than it says.
 */
export function planNextLook(
  samples: readonly ProgressSample[],
  bounds: { min: number; max: number } = GENERATION_BOUNDS,
): NextLook {
  const remaining = estimateRemainingMs(samples);
  if (remaining === undefined)
    return { inMs: samples.length < 2 ? bounds.min : bounds.max, finishing: false };
  const after = remaining + Math.max(SECOND, msPerPercent(samples) ?? 0);
  if (after <= bounds.max) return { inMs: Math.round(Math.max(bounds.min, after)), finishing: true };
  // Further: early enough that the next look is in reach of the finish.
  return {
    inMs: Math.round(Math.max(bounds.min, Math.min(bounds.max, remaining - bounds.min))),
    finishing: false,
  };
}

export const nextCheckIn = (
  samples: readonly ProgressSample[],
  bounds: { min: number; max: number } = GENERATION_BOUNDS,
): number => planNextLook(samples, bounds).inMs;

/**
 * The samples a rate is drawn from. With a single reading, the moment generation started (known when this
 * bot created the video) stands in as 0 %, so the first look already gives a rate and the second can land
 * near the finish; once a second real reading exists, only real ones count.
 */
export function rateSamples(
  samples: readonly ProgressSample[],
  startedAt: number | undefined,
): ProgressSample[] {
  const only = samples.length === 1 ? samples[0] : undefined;
  if (!only || startedAt === undefined || only.at <= startedAt || only.percent <= 0) return [...samples];
  return [{ at: startedAt, percent: 0 }, only];
}
