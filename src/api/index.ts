/**
 * The typed HTTP client of the video API (`video-api.md`), implementing the core's `VideoApi` port.
 * The composition root builds one factory (one rate-budget registry) and asks it for a client per key.
 */
import type { VideoApiFactory } from '../core/video-api/video-api.js';
import { VideoApiClient } from './client.js';
import type { VideoApiClientOptions } from './options.js';
import { RateBudgetRegistry } from './rate-budget.js';

export { VideoApiClient } from './client.js';
export {
  ConflictError,
  ConnectionError,
  ForbiddenScopeError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidInputError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UsageLimitReachedError,
  VideoApiError,
} from './errors.js';
export type {
  ClientTuning,
  DriftEvent,
  InvalidResponseEvent,
  ResponseEvent,
  VideoApiClientOptions,
} from './options.js';
export { DEFAULTS } from './options.js';
export type {
  BudgetUsage,
  Lane,
  RateBudgetOptions,
  RateLimits,
  WindowLimit,
  WindowUsage,
} from './rate-budget.js';
export { RateBudget, RateBudgetRegistry, SPEC_RATE_LIMITS } from './rate-budget.js';
export type { Endpoint, HttpMethod, Route } from './routes.js';

/** A client for one key. Pass `budgets` to share rate budgets with other clients of the same key. */
export function createVideoApiClient(options: VideoApiClientOptions): VideoApiClient {
  return new VideoApiClient(options);
}

export type SharedClientOptions = Omit<VideoApiClientOptions, 'apiKey'> & {
  /**
   * Told every key a client is built for, before any call (the logs mask each one verbatim), except an
   * `unchecked` one: a value the service has not accepted yet.
   */
  onKey?: (apiKey: string) => void;
};

/** A `VideoApiFactory` that also exposes its budget registry (for the poller and metrics). */
export interface VideoApiClientFactory extends VideoApiFactory {
  (apiKey: string): VideoApiClient;
  readonly budgets: RateBudgetRegistry;
}

/**
 * Builds clients per key over one budget registry, so every caller of a key draws on one budget; they
 * also share which drifting or unusable response fields were logged, so each is logged once.
 */
export function createVideoApiFactory(shared: SharedClientOptions): VideoApiClientFactory {
  const budgets =
    shared.budgets ?? new RateBudgetRegistry(shared.clock === undefined ? {} : { clock: shared.clock });
  const loggedFields = shared.loggedFields ?? new Set<string>();
  const { onKey, ...options } = shared;
  const factory = (apiKey: string, o: { unchecked?: boolean } = {}): VideoApiClient => {
    if (!o.unchecked) onKey?.(apiKey);
    return new VideoApiClient({ ...options, apiKey, budgets, loggedFields });
  };
  return Object.assign(factory, { budgets });
}
