/**
 * Web API failures → `ChatDeliveryError`, so the outbox knows whether to retry and when. The WebClient
 * used for deliveries rejects rate-limited calls instead of sleeping (`rejectRateLimitedCalls`), so a 429
 * becomes `retryAfter` here and the outbox pauses Slack deliveries until then.
 */
import { webApi } from '@slack/bolt';
import { ChatDeliveryError } from '../../src/core/index.js';

/** Platform error codes that mean "try again later" (https://docs.slack.dev/reference/methods/chat.postMessage#errors). */
const TRANSIENT = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
  'team_added_to_org',
]);

export interface SlackCallError {
  /** The platform's error code (`channel_not_found`), or the client's (`slack_webapi_request_error`). */
  code: string;
  retryable: boolean;
  retryAfter?: number;
}

/** What a thrown Web API error means. Never includes the request (it carries the token). */
export function describeSlackError(error: unknown): SlackCallError {
  const e = error as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number };
  switch (e?.code) {
    case webApi.ErrorCode.RateLimitedError:
      return { code: 'ratelimited', retryable: true, retryAfter: Math.max(1, e.retryAfter ?? 1) };
    case webApi.ErrorCode.PlatformError: {
      const code = e.data?.error ?? 'unknown_error';
      return { code, retryable: TRANSIENT.has(code) };
    }
    case webApi.ErrorCode.RequestError:
      return { code: 'request_error', retryable: true };
    case webApi.ErrorCode.HTTPError: {
      const status = e.statusCode ?? 0;
      return { code: `http_${status}`, retryable: status >= 500 || status === 408 };
    }
    default:
      return { code: error instanceof Error ? error.name : 'unknown_error', retryable: true };
  }
}

export function toDeliveryError(error: unknown, call: string): ChatDeliveryError {
  const described = describeSlackError(error);
  return new ChatDeliveryError(
    `Slack ${call} failed: ${described.code}`,
    described.retryable,
    described.retryAfter,
  );
}

/** The platform error code of a thrown Web API error, if it is one. */
export const platformErrorCode = (error: unknown): string | undefined =>
  (error as { code?: string })?.code === webApi.ErrorCode.PlatformError
    ? (error as { data?: { error?: string } }).data?.error
    : undefined;

/** Slack refused the blocks themselves (an image it cannot fetch, a rendering bug): worth sending simpler. */
export const refusedBlocks = (error: unknown): boolean => {
  const code = platformErrorCode(error);
  return code === 'invalid_blocks' || code === 'invalid_blocks_format';
};

/** Slack refused a view's blocks: `views.open` says `invalid_arguments` where a message says `invalid_blocks`. */
export const refusedViewBlocks = (error: unknown): boolean =>
  refusedBlocks(error) || platformErrorCode(error) === 'invalid_arguments';
