import { ApiError } from './errors.js';

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Sliding-window request log per (API key, bucket). A request must fit in every bucket it belongs to
 * (the key's default bucket and, for some endpoints, the endpoint's own); it is counted in all or none.
 */
export class RateLimiter {
  #log = new Map<string, number[]>();

  /** Records the request or throws 429 rate_limited with `Retry-After` in whole seconds. */
  take(now: number, buckets: readonly { name: string; limit: Limit }[]): void {
    let waitMs = 0;
    let exceeded: string | undefined;
    const windows: number[][] = [];
    for (const { name, limit } of buckets) {
      const hits = this.#prune(name, now, limit.windowMs);
      windows.push(hits);
      if (hits.length >= limit.max) {
        const oldest = hits[hits.length - limit.max]!;
        const wait = oldest + limit.windowMs - now;
        if (wait > waitMs || exceeded === undefined) {
          waitMs = Math.max(waitMs, wait);
          exceeded = `${limit.max} requests per ${formatWindow(limit.windowMs)}`;
        }
      }
    }
    if (exceeded !== undefined) {
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ApiError('rate_limited', `Rate limit exceeded (${exceeded}); retry in ${retryAfter} s`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    for (const hits of windows) hits.push(now);
  }

  #prune(name: string, now: number, windowMs: number): number[] {
    let hits = this.#log.get(name);
    if (!hits) {
      hits = [];
      this.#log.set(name, hits);
    }
    const firstLive = hits.findIndex((t) => t > now - windowMs);
    if (firstLive === -1) hits.length = 0;
    else if (firstLive > 0) hits.splice(0, firstLive);
    return hits;
  }
}

function formatWindow(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(2)} s`;
}
