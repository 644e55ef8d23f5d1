/**
 * Errors as log fields without secrets: discord.js REST errors carry the request URL, and an interaction's
 * webhook URL contains its token, so only the status, Discord's code, the method and the message are kept.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import { describeError, failureReply, type Logger, type Response } from '../../src/core/index.js';

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

/**
 * The core's answer to a failure while answering an interaction (the core's own failures come back as cards;
 * this is rendering, a refused REST call…): an error card with a reference to the line logged, the error
 * logged without secrets.
 */
export const failedInteraction = (
  log: Logger,
  error: unknown,
  interaction: { kind?: string; user?: { id: string } },
): Response =>
  failureReply(
    { metrics: undefined, log },
    {
      label: `discord ${interaction.kind ?? 'interaction'}`,
      error,
      logged: loggable(error),
      user: interaction.user?.id ?? '',
      afterWrite: false,
    },
  );
