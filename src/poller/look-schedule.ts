/**
 * When a watch is looked at next: the watcher's requested interval within its kind's bounds, the wait for a
 * key's background budget, and exponential backoff after a failed look, each jittered so watches created
 * together do not stay in lock-step, and none later than the kind's longest interval allows.
 */
import type { Watcher } from '../core/live/watcher.js';
import { clamp, exponential, jittered } from './delays.js';
import type { PollerOptions } from './poller-options.js';

/** Most jitter added to a requested interval. */
const MAX_SPREAD_MS = 5_000;

/**
 * The `start()` loop's period against the real service; a faster service (the demo's simulator) shortens it
 * in proportion, down to the shortest, so a look is not a whole second late on a job of a few seconds.
 */
const PASS_MS = 1000;
const SHORTEST_PASS_MS = 100;

/** A watcher's interval bounds on the poller's clock. */
export interface Bounds {
  min: number;
  max: number;
}

/** When a look began, and when its outcome is being written. */
interface LookTimes {
  started: number;
  now: number;
}

export class LookSchedule {
  readonly #random: () => number;
  readonly #jitterRatio: number;
  readonly #serviceSpeed: number;
  /** The `start()` loop's period. */
  readonly passMs: number;

  constructor(options: PollerOptions) {
    this.#random = options.random ?? Math.random;
    this.#jitterRatio = options.jitterRatio ?? 0.1;
    this.#serviceSpeed = options.serviceSpeed ?? 1;
    this.passMs =
      options.intervalMs ?? Math.max(SHORTEST_PASS_MS, Math.min(PASS_MS, PASS_MS / this.#serviceSpeed));
  }

  /**
   * The watcher's interval bounds on this poller's clock: a job's (`jobTime`) are the service's time, as many
   * times shorter as the service is faster (the demo's simulator); the others are the wall clock's.
   */
  bounds(watcher: Watcher): Bounds {
    const speed = watcher.jobTime ? this.#serviceSpeed : 1;
    return { min: watcher.minIntervalMs / speed, max: watcher.maxIntervalMs / speed };
  }

  /** How long to put off a look the key's budget cannot afford yet: the budget's wait, spread a little. */
  deferral(watcher: Watcher, budgetWait: number): number {
    return Math.ceil(budgetWait) + Math.round(this.#random() * this.bounds(watcher).min * this.#jitterRatio);
  }

  /** The next look after a successful one: the interval the watcher asked for (else the longest), in bounds. */
  afterLook(watcher: Watcher, requested: number | undefined, { started, now }: LookTimes): number {
    const bounds = this.bounds(watcher);
    const interval = jittered(clamp(requested ?? bounds.max, bounds.min, bounds.max), {
      ratio: this.#jitterRatio,
      upwardOnly: true,
      // A schedule watch asks for "just after it is due" ten minutes ahead: 10 % would be a minute late.
      maxSpreadMs: MAX_SPREAD_MS,
      random: this.#random,
      min: bounds.min,
      max: bounds.max,
    });
    return this.#capped(now + interval, started, bounds);
  }

  /** The service asked for the wait: it is kept even past the kind's longest interval. */
  rateLimited(watcher: Watcher, retryAfterMs: number): number {
    return Math.max(retryAfterMs, this.bounds(watcher).min);
  }

  /** Exponential backoff after the `failures`-th failed look in a row, jittered both ways. */
  backoff(watcher: Watcher, failures: number, { started, now }: LookTimes) {
    const bounds = this.bounds(watcher);
    const waitMs = jittered(exponential(failures, bounds.min, bounds.max), {
      ratio: this.#jitterRatio,
      random: this.#random,
      min: bounds.min,
      max: bounds.max,
    });
    return { waitMs, nextCheckAt: this.#capped(now + waitMs, started, bounds) };
  }

  /**
   * No look lands later than the kind's longest interval after the previous one began (DESIGN §4: a running
   * job is looked at every 30 s of the service's time at most), whatever the check took: the next pass may
   * pick it up one pass period late, so that period is kept in hand.
   */
  #capped(nextCheckAt: number, started: number, bounds: Bounds): number {
    const latest = started + Math.max(bounds.min, bounds.max - this.passMs);
    return Math.min(nextCheckAt, latest);
  }
}
