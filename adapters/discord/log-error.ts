/**
 * Errors as log fields without secrets: discord.js REST errors carry the request URL, and an interaction's
 * webhook URL contains its token, so only the status, Discord's code, the method and the message are kept.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { describeError } from '../../src/core/index.js';

export function loggable(error: unknown): Record<string, unknown> {
  if (error instanceof DiscordAPIError) {
    return {
      type: error.name,
      status: error.status,
      code: error.code,
      method: error.method,
      message: error.message,
    };
  }
  if (error instanceof HTTPError) return { type: error.name, status: error.status, method: error.method };
  if (error instanceof RateLimitError)
    return { type: error.name, route: error.route, retryAfterMs: error.retryAfter };
  const { name, ...rest } = describeError(error, { stack: true });
  return { type: name, ...rest };
}
