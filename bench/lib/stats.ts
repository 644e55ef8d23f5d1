/** Small statistics helpers for the benchmarks: percentiles (nearest rank), means, ratios, formatting. */

/** Nearest-rank percentile of `values` (p in 0..100); NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** `value / baseline`, rounded to 3 decimals; NaN when the baseline is 0 or missing. */
export function ratio(value: number, baseline: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return Number.NaN;
  return Math.round((value / baseline) * 1000) / 1000;
}

export const round = (value: number, digits = 1): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** Peak and last resident set size of this process, sampled on an interval (MB). */
export function rssSampler(everyMs = 100): { stop(): { peakMb: number; lastMb: number } } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const last = process.memoryUsage.rss();
      peak = Math.max(peak, last);
      return { peakMb: round(peak / 2 ** 20), lastMb: round(last / 2 ** 20) };
    },
  };
}

/** CPU time (user + system) this process used since `start` (ms). */
export function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** A deterministic PRNG (mulberry32) so runs are repeatable. Returns values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
