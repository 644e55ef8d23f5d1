import type { Dispatcher } from 'undici';
import pkg from '../../package.json' with { type: 'json' };
import type { Logger } from '../core/ports.js';
import { type Clock, systemClock } from '../core/ports.js';
import { type RateBudgetRegistry, TRANSIT_MARGIN_MS } from './rate-budget.js';
import type { HttpMethod, Route } from './routes.js';

/** One finished attempt, for metrics: the route is a template (`/videos/:id`), never a raw path. */
export interface ResponseEvent {
  method: HttpMethod;
  route: Route;
  /** HTTP status; 0 when no response arrived (connection error, timeout). */
  status: number;
  durationMs: number;
  /** 1 for the first attempt. */
  attempt: number;
  /** `error.type` of a failed attempt (`connection_error`, `timeout` without a response). */
  errorType?: string;
}

/** Options with a default (see `DEFAULTS`). */
export interface ClientTuning {
  /** Per attempt, covering the response body. */
  timeoutMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /**
   * Longest the client waits on its own for rate limits — a `Retry-After` or the local budget. Beyond it
   * the call fails with `RateLimitedError` carrying `retryAfter`, so the caller can tell the user.
   */
  maxRateLimitWaitMs: number;
  userAgent: string;
  clock: Clock;
  /** In [0, 1); drives backoff jitter. */
  random: () => number;
  /**
   * Times the per-attempt network timeout; default `clock`. An end-to-end test whose `clock` is virtual
   * (its sleeps advance time at once) passes the system clock here: a real socket needs real time.
   */
  timeoutClock: Clock | undefined;
}

export interface VideoApiClientOptions extends Partial<ClientTuning> {
  /** Ends in `/api/v1`. */
  baseUrl: string;
  /** The team's key; sent as `Authorization: Bearer`, never logged or put in an error. */
  apiKey: string;
  /** Default: undici's global dispatcher. Tests pass a `MockAgent`. */
  dispatcher?: Dispatcher;
  /** Shares rate budgets between clients of one key; default: a registry of this client's own. */
  budgets?: RateBudgetRegistry;
  logger?: Logger;
  onResponse?: (event: ResponseEvent) => void;
}

export const DEFAULTS = {
  timeoutMs: 15_000,
  maxAttempts: 4,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  // A full one-minute window (and the budget's transit margin): one minute's wait is still worth making.
  maxRateLimitWaitMs: 60_000 + TRANSIT_MARGIN_MS,
  userAgent: `reelbot/${pkg.version}`,
  clock: systemClock,
  random: Math.random,
  timeoutClock: undefined,
} as const satisfies { [K in keyof ClientTuning]-?: ClientTuning[K] };
