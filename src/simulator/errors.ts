/** Error types of video-api.md §7; the simulator's handlers throw these and the dispatcher renders them. */
export type ErrorType =
  | 'invalid_input'
  | 'unauthorized'
  | 'insufficient_credits'
  /** not in the spec's table; the real service answers it when a charge is declined (`paymentFailureRate`) */
  | 'payment_failed'
  | 'forbidden_scope'
  | 'usage_limit_reached'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'internal_error';

/** The HTTP status each error type is answered with (video-api.md §7), unless a thrower says otherwise. */
const STATUS_OF: Readonly<Record<ErrorType, number>> = {
  invalid_input: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  payment_failed: 402,
  forbidden_scope: 403,
  usage_limit_reached: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal_error: 500,
};

export class ApiError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly type: ErrorType,
    message: string,
    extra: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = extra.status ?? STATUS_OF[type];
    this.headers = extra.headers ?? {};
  }
}

export const invalidInput = (message: string): ApiError => new ApiError('invalid_input', message);
export const notFound = (message: string): ApiError => new ApiError('not_found', message);
export const conflict = (message: string): ApiError => new ApiError('conflict', message);
export const unauthorized = (message: string): ApiError => new ApiError('unauthorized', message);
export const internalError = (message = 'Internal server error'): ApiError =>
  new ApiError('internal_error', message);
