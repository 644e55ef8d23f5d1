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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const invalidInput = (message: string): ApiError => new ApiError(400, 'invalid_input', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const conflict = (message: string): ApiError => new ApiError(409, 'conflict', message);
export const unauthorized = (message: string): ApiError => new ApiError(401, 'unauthorized', message);
export const internalError = (message = 'Internal server error'): ApiError =>
  new ApiError(500, 'internal_error', message);
