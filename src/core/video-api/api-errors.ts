/**
 * Turns a `VideoApiError` into a message code + params (DESIGN §6): 402 shows cost and balance,
 * 403 forbidden_scope names the scope the endpoint needs, 429 says when, 404 says "not found in your team".
 */
import { hasMessage, type MessageCode, say } from '../text/messages.js';
import type { CardText } from '../text/text.js';
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

/** The message code for an error type: `api.<type>`, or `api.unknown` for a type the service added since. */
export const apiMessageCode = (type: string): MessageCode => {
  const code = `api.${type}`;
  return hasMessage(code) ? code : 'api.unknown';
};

export function describeApiError(error: VideoApiError, hints: ErrorHints = {}): CardText {
  const params: Record<string, string | number> = { message: error.message, type: error.type };
  if (hints.cost !== undefined) params.cost = hints.cost;
  if (hints.balance !== undefined) params.balance = hints.balance;
  if (hints.what) params.what = hints.what;
  if (error.details.retryAfter !== undefined) params.retryAfter = Math.ceil(error.details.retryAfter);
  const scope = scopeFor(error.details.method, error.details.path);
  if (scope) params.scope = scope;
  return say(apiMessageCode(error.type), params);
}

export const isApiError = (e: unknown): e is VideoApiError => e instanceof VideoApiError;
