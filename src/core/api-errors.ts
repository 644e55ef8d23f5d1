/**
 * Turns a `VideoApiError` into a message code + params (DESIGN §6): 402 shows cost and balance,
 * 403 forbidden_scope names the scope the endpoint needs, 429 says when, 404 says "not found in your team".
 */
import { say } from './messages.js';
import { VideoApiError } from './video-api.js';

/** Scope per endpoint (spec §4), so a 403 can name what is missing without reading the message. */
const SCOPES: [method: string, path: RegExp, scope: string][] = [
  ['GET', /^\/credits/, 'credits:read'],
  ['GET', /^\/videos/, 'videos:read'],
  ['GET', /^\/renders\//, 'videos:read'],
  ['*', /^\/videos/, 'videos:write'],
  ['GET', /^\/series/, 'series:read'],
  ['*', /^\/series/, 'series:write'],
  ['GET', /^\/calendar/, 'posts:read'],
  ['*', /^\/posts/, 'posts:write'],
  ['GET', /^\/accounts/, 'accounts:read'],
  ['GET', /^\/(voices|options)/, 'catalog:read'],
  ['*', /^\/assets/, 'assets:write'],
  ['GET', /^\/analytics/, 'analytics:read'],
];

export function scopeFor(method: string | undefined, path: string | undefined): string | undefined {
  if (!method || !path) return undefined;
  const p = path.replace(/^.*\/api\/v1/, '').split('?')[0] as string;
  return SCOPES.find(([m, re]) => (m === method.toUpperCase() || m === '*') && re.test(p))?.[2];
}

/** Context a handler knows that makes the message actionable. */
export interface ErrorHints {
  cost?: number;
  balance?: number;
  /** What was looked up, for 404, as card markdown: "Video `abc`" (build it with `code()` from text.ts). */
  what?: string;
}

/** Error types with words of their own; any other type (the service may add some) gets `api.unknown`. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  'invalid_input',
  'unauthorized',
  'insufficient_credits',
  'payment_failed',
  'forbidden_scope',
  'usage_limit_reached',
  'not_found',
  'conflict',
  'rate_limited',
  'internal_error',
  'connection_error',
  'timeout',
  'invalid_response',
]);

export function describeApiError(error: VideoApiError, hints: ErrorHints = {}): string {
  const params: Record<string, string | number> = { message: error.message, type: error.type };
  if (hints.cost !== undefined) params.cost = hints.cost;
  if (hints.balance !== undefined) params.balance = hints.balance;
  if (hints.what) params.what = hints.what;
  if (error.details.retryAfter !== undefined) params.retryAfter = Math.ceil(error.details.retryAfter);
  const scope = scopeFor(error.details.method, error.details.path);
  if (scope) params.scope = scope;
  return say(KNOWN_TYPES.has(error.type) ? `api.${error.type}` : 'api.unknown', params);
}

export const isApiError = (e: unknown): e is VideoApiError => e instanceof VideoApiError;
