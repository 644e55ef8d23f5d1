/** Interval arithmetic shared by the poller and the outbox sender: bounds, jitter and exponential backoff. */

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/**
 * Spreads `ms` by ±`ratio` (or by 0…+`ratio` with `upwardOnly`, when `ms` is the earliest useful moment) so
 * watches created together do not stay in lock-step, then keeps it in bounds. `random` is injected (in
 * [0, 1)) so tests are deterministic.
 */
export function jittered(
  ms: number,
  options: {
    ratio: number;
    random: () => number;
    min?: number;
    max?: number;
    upwardOnly?: boolean;
    /** Largest spread in ms, whatever the ratio gives (a long interval aimed at a moment stays near it). */
    maxSpreadMs?: number;
  },
): number {
  const draw = options.random();
  const spread =
    Math.min(ms * options.ratio, options.maxSpreadMs ?? Number.POSITIVE_INFINITY) *
    (options.upwardOnly ? draw : draw * 2 - 1);
  return Math.round(clamp(ms + spread, options.min ?? 0, options.max ?? Number.POSITIVE_INFINITY));
}

/** `base · 2^(failures − 1)`, capped: 1 failure → base, 2 → 2·base, … */
export const exponential = (failures: number, base: number, cap: number): number =>
  Math.min(cap, base * 2 ** Math.max(0, Math.min(30, failures - 1)));
