import type { HttpMethod } from './routes.js';

/** Why an attempt failed, as far as the retry policy cares. */
export type AttemptFailure =
  | { kind: 'status'; status: number; retryAfterMs?: number }
  | { kind: 'connection' }
  | { kind: 'timeout' }
  /** An answer the client will not read (larger than its cap): asking again gets the same. */
  | { kind: 'unreadable' };

export interface RetryPolicyOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff ceiling; doubles per attempt (full jitter picks uniformly below it). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Longest wait the client accepts before retrying; beyond it the error goes to the caller. */
  maxRateLimitWaitMs: number;
}

export interface RetryContext {
  method: HttpMethod;
  /** The request carries an Idempotency-Key (reused unchanged on every attempt). */
  idempotent: boolean;
  /** The attempt that just failed, from 1. */
  attempt: number;
  failure: AttemptFailure;
  options: RetryPolicyOptions;
  random: () => number;
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(attempt-1))). */
export function backoffDelay(attempt: number, options: RetryPolicyOptions, random: () => number): number {
  const ceiling = Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The retry policy, the only one: milliseconds to wait before the next attempt, or `undefined` to give up.
 * - 429: the request was not processed, so any method may wait `Retry-After` and retry — unless the
 *   wait exceeds `maxRateLimitWaitMs`, in which case the caller gets the error and its `retryAfter`.
 * - 5xx, connection errors and timeouts: the request may have run, so only GETs and POSTs carrying an
 *   Idempotency-Key are retried. PATCH and DELETE are not (a retried cancel could turn into a 409).
 * - Everything else (402, 409, other 4xx) is final: retrying cannot change the answer.
 */
export function retryDelay(ctx: RetryContext): number | undefined {
  const { failure, options } = ctx;
  if (ctx.attempt >= options.maxAttempts) return undefined;
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  if (failure.kind === 'status' && failure.status === 429) {
    const wait = retryAfterMs ?? backoffDelay(ctx.attempt, options, ctx.random);
    return wait <= options.maxRateLimitWaitMs ? wait : undefined;
  }
  if (failure.kind === 'unreadable') return undefined;
  const transient = failure.kind !== 'status' || failure.status >= 500;
  if (!transient) return undefined;
  const safeToRepeat = ctx.method === 'GET' || (ctx.method === 'POST' && ctx.idempotent);
  if (!safeToRepeat) return undefined;
  const wait = retryAfterMs ?? backoffDelay(ctx.attempt, options, ctx.random);
  return wait <= options.maxRateLimitWaitMs ? wait : undefined;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (spec §7 sends seconds). */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
