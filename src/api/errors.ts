import { type ApiErrorType, VideoApiError } from '../core/video-api/video-api.js';

export { VideoApiError };
export type ApiErrorDetails = VideoApiError['details'];

/** 400/405 `invalid_input`: body, query or method wrong; the message names the field. */
export class InvalidInputError extends VideoApiError {
  override readonly name: string = 'InvalidInputError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('invalid_input', message, details);
  }
}
/** 401 `unauthorized`: missing, malformed or revoked key. */
export class UnauthorizedError extends VideoApiError {
  override readonly name: string = 'UnauthorizedError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('unauthorized', message, details);
  }
}
/** 402 `insufficient_credits`: nothing was charged or created; never retried. */
export class InsufficientCreditsError extends VideoApiError {
  override readonly name: string = 'InsufficientCreditsError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('insufficient_credits', message, details);
  }
}
/** 403 `forbidden_scope`: the key lacks the endpoint's scope. */
export class ForbiddenScopeError extends VideoApiError {
  override readonly name: string = 'ForbiddenScopeError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('forbidden_scope', message, details);
  }
}
/** 403 `usage_limit_reached`: the plan's cap on video projects. */
export class UsageLimitReachedError extends VideoApiError {
  override readonly name: string = 'UsageLimitReachedError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('usage_limit_reached', message, details);
  }
}
/** 404 `not_found`: unknown id, another team's resource, or a malformed id. */
export class NotFoundError extends VideoApiError {
  override readonly name: string = 'NotFoundError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('not_found', message, details);
  }
}
/** 409 `conflict`: re-read the resource; never retried blindly. */
export class ConflictError extends VideoApiError {
  override readonly name: string = 'ConflictError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('conflict', message, details);
  }
}
/** 429 `rate_limited` (or the client's own budget would wait too long): `details.retryAfter` seconds. */
export class RateLimitedError extends VideoApiError {
  override readonly name: string = 'RateLimitedError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('rate_limited', message, details);
  }
}
/** 5xx `internal_error`. */
export class InternalServerError extends VideoApiError {
  override readonly name: string = 'InternalServerError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('internal_error', message, details);
  }
}
/**
 * No HTTP response: connection refused, reset, DNS failure. The transport's error is summarised in the
 * message (redacted) rather than kept as `cause`, whose text may quote request headers.
 */
export class ConnectionError extends VideoApiError {
  override readonly name: string = 'ConnectionError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('connection_error', message, details);
  }
}
/** No complete response within the client's timeout. */
export class TimeoutError extends VideoApiError {
  override readonly name: string = 'TimeoutError';
  constructor(message: string, details: ApiErrorDetails = {}) {
    super('timeout', message, details);
  }
}

type ErrorClass = new (message: string, details: ApiErrorDetails) => VideoApiError;

const BY_TYPE: Record<string, ErrorClass> = {
  invalid_input: InvalidInputError,
  unauthorized: UnauthorizedError,
  insufficient_credits: InsufficientCreditsError,
  forbidden_scope: ForbiddenScopeError,
  usage_limit_reached: UsageLimitReachedError,
  not_found: NotFoundError,
  conflict: ConflictError,
  rate_limited: RateLimitedError,
  internal_error: InternalServerError,
};

/** The type a status implies when the body carries none (a proxy's HTML 502, an empty 429). */
function typeForStatus(status: number): ApiErrorType {
  if (status >= 500) return 'internal_error';
  switch (status) {
    case 400:
    case 405:
      return 'invalid_input';
    case 401:
      return 'unauthorized';
    case 402:
      return 'insufficient_credits';
    case 403:
      return 'forbidden_scope';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 429:
      return 'rate_limited';
    default:
      return `http_${status}`;
  }
}

/**
 * The one factory for errors from an HTTP response: the class follows `error.type` (the service's
 * stable identifier), falling back to the status when the body has no type; an unknown type gives the
 * base class carrying that type. Messages are passed through, never parsed.
 */
export function errorFromResponse(input: {
  status: number;
  type: string | undefined;
  message: string | undefined;
  details: Omit<ApiErrorDetails, 'status'>;
}): VideoApiError {
  const type = input.type ?? typeForStatus(input.status);
  const where = `${input.details.method ?? ''} ${input.details.path ?? ''}`.trim();
  const message = `${where}: ${input.message ?? `HTTP ${input.status}`}`;
  const details: ApiErrorDetails = { ...input.details, status: input.status };
  const Known = Object.hasOwn(BY_TYPE, type) ? BY_TYPE[type] : undefined;
  return Known ? new Known(message, details) : new VideoApiError(type, message, details);
}
