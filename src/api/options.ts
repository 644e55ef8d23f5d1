import type { Dispatcher } from 'undici';
import pkg from '../../package.json' with { type: 'json' };
import type { Clock, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/time/system-clock.js';
import { type RateBudgetRegistry, TRANSIT_MARGIN_MS } from './rate-budget.js';
import type { Endpoint, HttpMethod, Route } from './routes.js';

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

/**
 * A tolerant read dropped or coerced a value (DESIGN §6), e.g. a number sent as `"60"` or an object where
 * text was expected. One event per field per response; `count` values in it (list items add up).
 */
export interface DriftEvent {
  /** `METHOD /route` with the route as a template (`GET /videos/:id`). */
  endpoint: Endpoint;
  /** Dotted path, list indexes as `[]`, open keys as `*`: `data.thumbnails.variants[].score`. */
  field: string;
  count: number;
}

/** A response lacked a field the operation needs; the call failed with `invalid_response`. One per field. */
export interface InvalidResponseEvent {
  endpoint: Endpoint;
  /** As in `DriftEvent`; `body` when the body itself is unusable (not JSON, not an object). */
  field: string;
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
  /** Each dropped or coerced response field (for `reelbot_api_response_drift_total`). */
  onDrift?: (event: DriftEvent) => void;
  /** Each needed field that was missing or unusable (for `reelbot_api_invalid_responses_total`). */
  onInvalid?: (event: InvalidResponseEvent) => void;
  /**
   * `endpoint field` pairs already logged: a drifting or unusable field is logged once, not per call.
   * The factory shares one between its clients; default: the client's own.
   */
  loggedFields?: Set<string>;
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
