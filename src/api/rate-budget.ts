import type { Clock } from '../core/ports/index.js';
import { systemClock } from '../core/time/system-clock.js';
import { keyId } from '../core/video-api/catalog-cache.js';
import type { Endpoint } from './routes.js';
import { SlidingWindow } from './sliding-window.js';

/** `interactive`: a person is waiting (default). `background`: the poller; capped and yields. */
export type Lane = 'interactive' | 'background';

export interface WindowLimit {
  limit: number;
  windowMs: number;
}
export interface RateLimits {
  /** Every call made with the key. */
  key: WindowLimit;
  /** Share of `key.limit` the background lane may use in one window. */
  backgroundShare: number;
  /**
   * Share of `key.limit` background calls never take, whatever the background lane has left: when people
   * use more than their half, the poller waits rather than them (default 0.2).
   */
  interactiveReserve?: number;
  /** Endpoints with a tighter limit of their own (applies on top of `key`). */
  endpoints: Partial<Record<Endpoint, WindowLimit>>;
}

/** Share of the background lane that deferrable background calls leave to the others. */
export const DEFERRABLE_HEADROOM = 0.25;

/** How much longer than the service we keep each call in a window (covers differences in transit time). */
export const TRANSIT_MARGIN_MS = 1_000;

/** The service's documented limits (spec §8). */
export const SPEC_RATE_LIMITS = {
  key: { limit: 300, windowMs: 60_000 },
  backgroundShare: 0.5,
  endpoints: {
    'POST /videos': { limit: 10, windowMs: 60_000 },
    'POST /videos/captions': { limit: 10, windowMs: 300_000 },
    'POST /videos/:id/render': { limit: 10, windowMs: 300_000 },
    'POST /series': { limit: 5, windowMs: 300_000 },
    'POST /series/:id/generate': { limit: 5, windowMs: 300_000 },
    'POST /posts': { limit: 10, windowMs: 300_000 },
    'POST /posts/schedule': { limit: 20, windowMs: 300_000 },
  },
} as const satisfies RateLimits;

export interface WindowUsage {
  used: number;
  limit: number;
  windowMs: number;
}
export interface BudgetUsage {
  key: WindowUsage;
  background: WindowUsage;
  endpoints: Partial<Record<Endpoint, WindowUsage>>;
  waiting: Record<Lane, number>;
  /** Remaining pause after the service answered 429 for the whole key. */
  blockedForMs: number;
}

/** Options of a `RateBudget` (and of every budget a `RateBudgetRegistry` makes). */
export interface RateBudgetOptions {
  clock?: Clock;
  limits?: RateLimits;
  transitMarginMs?: number;
  /**
   * The part of every limit this process may use, in [0, 1] (default 1): several replicas sending with one key
   * each take a share (src/replicas/share-rule.ts). Read at every decision; 0 holds every call back.
   */
  share?: () => number;
}

/** `limit` scaled by `share`: all of it at 1, none at 0, else at least one call. */
export function sharedLimit(limit: number, share: number): number {
  if (share >= 1) return limit;
  if (!(share > 0)) return 0;
  return Math.max(1, Math.floor(limit * share));
}

interface Waiter {
  endpoint: Endpoint;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The client-side rate budget of one API key, shared by every client of that key, mirroring the
 * service's limits so calls wait here instead of provoking a 429. Sliding windows: the key-wide one,
 * a background lane capped at `backgroundShare` of it, and one per limited endpoint. Waiters are
 * admitted in arrival order, interactive before background; background waiters also hold back while
 * an interactive one waits for key-wide room. With several replicas on one key, each uses only its `share` of
 * every limit (`max(1, floor(limit × share))`, none at share 0), so that together they stay within them.
 */
export class RateBudget {
  readonly #clock: Clock;
  readonly #margin: number;
  readonly #limits: RateLimits;
  readonly #share: () => number;
  readonly #key: SlidingWindow;
  readonly #background: SlidingWindow;
  readonly #endpoints = new Map<Endpoint, SlidingWindow>();
  readonly #blockedEndpoints = new Map<Endpoint, number>();
  #blockedUntil = 0;
  readonly #waiting: Record<Lane, Waiter[]> = { interactive: [], background: [] };
  #timer: { at: number; controller: AbortController } | undefined;

  constructor(options: RateBudgetOptions = {}) {
    const limits: RateLimits = options.limits ?? SPEC_RATE_LIMITS;
    this.#limits = limits;
    this.#share = options.share ?? (() => 1);
    this.#clock = options.clock ?? systemClock;
    // The service counts a call when it arrives, we when we send it: a call that spends longer in transit
    // than a later one is still in the service's window when ours says it has left. Keeping every call in
    // our windows a little longer absorbs that difference (without it, a key driven at its limit met 429s:
    // docs/performance.md).
    const margin = options.transitMarginMs ?? TRANSIT_MARGIN_MS;
    this.#margin = margin;
    const window = (limit: number, windowMs: number) => new SlidingWindow(limit, windowMs + margin);
    // The windows keep the full limits; what this replica may use of them is `#caps()`, at each decision.
    this.#key = window(limits.key.limit, limits.key.windowMs);
    this.#background = window(backgroundLimit(limits.key.limit, limits), limits.key.windowMs);
    for (const [endpoint, limit] of Object.entries(limits.endpoints) as [Endpoint, WindowLimit][]) {
      this.#endpoints.set(endpoint, window(limit.limit, limit.windowMs));
    }
  }

  /**
   * The largest part of one of the service's limits (the key's or an endpoint's) this budget has used in its
   * current window, in [0, 1]: what a replica publishes so others know how much of a window it still holds.
   */
  peakUse(): number {
    const now = this.#clock.now();
    let peak = this.#key.count(now) / this.#key.limit;
    for (const window of this.#endpoints.values()) peak = Math.max(peak, window.count(now) / window.limit);
    return peak;
  }

  /** The share changed: admit whoever now fits, or wait longer. */
  shareChanged(): void {
    this.#pump();
  }

  /** Every limit as this replica may use it now (its share of the service's). */
  #caps(): Caps {
    const share = this.#share();
    const key = sharedLimit(this.#limits.key.limit, share);
    // The background lane scales with the key's limit (all of it at share 1, as before shares existed).
    const background = key === 0 ? 0 : backgroundLimit(key, this.#limits);
    return {
      share,
      key,
      background,
      reserve: Math.ceil(key * (this.#limits.interactiveReserve ?? 0.2)),
      deferrableHeadroom: Math.floor(background * DEFERRABLE_HEADROOM),
    };
  }

  #endpointCap(window: SlidingWindow, share: number): number {
    return sharedLimit(window.limit, share);
  }

  /**
   * Milliseconds a call to `endpoint` on `lane` would wait if made now, counting the callers already
   * queued ahead of it for key-wide room. 0 means it would go at once.
   */
  delayFor(endpoint: Endpoint, lane: Lane = 'interactive', options: { deferrable?: boolean } = {}): number {
    const now = this.#clock.now();
    const caps = this.#caps();
    const keyFull = this.#keyDelay(now, caps) > 0;
    const ahead = lane === 'interactive' ? this.#waiting.interactive.length : this.#queued();
    const backgroundAhead = lane === 'background' ? this.#waiting.background.length : 0;
    // A background call that can wait (thumbnails, calendars) leaves the lane's last part to looks at
    // running jobs, which must come every 30 s: when the lane is nearly full, those go first.
    const headroom = lane === 'background' && options.deferrable ? caps.deferrableHeadroom : 0;
    return Math.max(
      this.#delay({ endpoint, lane }, now, caps),
      keyFull && ahead > 0 ? this.#key.delay(now, caps.key - ahead) : 0,
      backgroundAhead + headroom > 0
        ? this.#background.delay(now, caps.background - backgroundAhead - headroom)
        : 0,
    );
  }

  /** Waits until the budget has room for one call to `endpoint`, then counts it. */
  acquire(endpoint: Endpoint, lane: Lane = 'interactive', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        endpoint,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const queue = this.#waiting[lane];
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(signal?.reason);
          this.#pump();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiting[lane].push(waiter);
      this.#pump();
    });
  }

  /**
   * The service answered 429 despite the budget (another client of the key, clock skew): respect its
   * `Retry-After`. A 429 on an endpoint with its own limit pauses that endpoint; on any other it can only
   * be the key-wide limit, so the whole key pauses.
   */
  noteRateLimited(endpoint: Endpoint, retryAfterMs: number): void {
    const until = this.#clock.now() + retryAfterMs;
    if (this.#endpoints.has(endpoint)) {
      this.#blockedEndpoints.set(endpoint, Math.max(until, this.#blockedEndpoints.get(endpoint) ?? 0));
    } else {
      this.#blockedUntil = Math.max(this.#blockedUntil, until);
    }
    this.#pump();
  }

  /** Current use of every window, for metrics and the poller. */
  usage(): BudgetUsage {
    const now = this.#clock.now();
    const at = { now, marginMs: this.#margin };
    const caps = this.#caps();
    const endpoints: Partial<Record<Endpoint, WindowUsage>> = {};
    for (const [endpoint, window] of this.#endpoints)
      endpoints[endpoint] = windowUsage(window, this.#endpointCap(window, caps.share), at);
    return {
      key: windowUsage(this.#key, caps.key, at),
      background: windowUsage(this.#background, caps.background, at),
      endpoints,
      waiting: { interactive: this.#waiting.interactive.length, background: this.#waiting.background.length },
      blockedForMs: Math.max(0, this.#blockedUntil - now),
    };
  }

  #queued(): number {
    return this.#waiting.interactive.length + this.#waiting.background.length;
  }

  /** Key-wide wait: the 429 pause or a full key window. */
  #keyDelay(now: number, caps: Caps): number {
    return Math.max(this.#blockedUntil - now, this.#key.delay(now, caps.key));
  }

  /** This call's own wait, ignoring the queue. */
  #delay({ endpoint, lane }: { endpoint: Endpoint; lane: Lane }, now: number, caps: Caps): number {
    const window = this.#endpoints.get(endpoint);
    return Math.max(
      0,
      this.#keyDelay(now, caps),
      lane === 'background' ? this.#background.delay(now, caps.background) : 0,
      // Background calls also leave the last `interactiveReserve` of the key to people: a busy member's
      // commands never wait behind the poller, whose checks are deferred instead.
      lane === 'background' ? this.#key.delay(now, caps.key - caps.reserve) : 0,
      window ? window.delay(now, this.#endpointCap(window, caps.share)) : 0,
      (this.#blockedEndpoints.get(endpoint) ?? 0) - now,
    );
  }

  #admit(waiter: Waiter, lane: Lane, now: number): void {
    this.#key.record(now);
    if (lane === 'background') this.#background.record(now);
    this.#endpoints.get(waiter.endpoint)?.record(now);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    waiter.resolve();
  }

  /** Admits every waiter that fits now, in order, then sleeps until the next one could. */
  #pump(): void {
    const now = this.#clock.now();
    const caps = this.#caps();
    let next = Number.POSITIVE_INFINITY;
    for (const lane of ['interactive', 'background'] as const) {
      // Background yields while an interactive caller waits for key-wide room.
      const yieldTo =
        lane === 'background' && this.#waiting.interactive.length > 0 ? this.#keyDelay(now, caps) : 0;
      const queue = this.#waiting[lane];
      for (let i = 0; i < queue.length; ) {
        const waiter = queue[i] as Waiter;
        const delay = Math.max(yieldTo, this.#delay({ endpoint: waiter.endpoint, lane }, now, caps));
        if (delay === 0) {
          queue.splice(i, 1);
          this.#admit(waiter, lane, now);
        } else {
          next = Math.min(next, delay);
          i++;
        }
      }
    }
    this.#wakeIn(next, now);
  }

  #wakeIn(delay: number, now: number): void {
    if (!Number.isFinite(delay)) {
      this.#timer?.controller.abort();
      this.#timer = undefined;
      return;
    }
    const at = now + delay;
    if (this.#timer && this.#timer.at <= at) return;
    this.#timer?.controller.abort();
    const controller = new AbortController();
    this.#timer = { at, controller };
    this.#clock.sleep(delay, controller.signal).then(
      () => {
        if (this.#timer?.controller === controller) this.#timer = undefined;
        this.#pump();
      },
      () => {},
    );
  }
}

interface Caps {
  share: number;
  key: number;
  background: number;
  /** Key calls background never takes. */
  reserve: number;
  /** Background calls per window kept from deferrable looks (see `delayFor`). */
  deferrableHeadroom: number;
}

function backgroundLimit(keyLimit: number, limits: RateLimits): number {
  return Math.max(1, Math.floor(keyLimit * limits.backgroundShare));
}

/** Usage against the service's own window (without our transit margin); `limit` is this replica's part. */
function windowUsage(
  window: SlidingWindow,
  limit: number,
  { now, marginMs }: { now: number; marginMs: number },
): WindowUsage {
  return { used: window.count(now), limit, windowMs: window.windowMs - marginMs };
}

/** One `RateBudget` per API key, found by a hash of the key (the key itself is not kept). */
export class RateBudgetRegistry {
  readonly #budgets = new Map<string, RateBudget>();
  readonly #options: RateBudgetOptions;

  constructor(options: RateBudgetOptions = {}) {
    this.#options = options;
  }

  /** The largest `peakUse()` of any key's budget (0 with none). */
  peakUse(): number {
    let peak = 0;
    for (const budget of this.#budgets.values()) peak = Math.max(peak, budget.peakUse());
    return peak;
  }

  /** Tells every budget that `share` changed (wired to the replica registry's `onChange`). */
  shareChanged(): void {
    for (const budget of this.#budgets.values()) budget.shareChanged();
  }

  forKey(apiKey: string): RateBudget {
    const id = keyId(apiKey);
    let budget = this.#budgets.get(id);
    if (!budget) {
      budget = new RateBudget(this.#options);
      this.#budgets.set(id, budget);
    }
    return budget;
  }

  /** Every budget by key id (a short hash, safe to log or label metrics with). */
  entries(): IterableIterator<[string, RateBudget]> {
    return this.#budgets.entries();
  }
}
