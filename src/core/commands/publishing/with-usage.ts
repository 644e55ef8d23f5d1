/**
 * Some argument mistakes can only be seen inside a handler (a caption too long for the chosen platform, a
 * time in the past, a calendar range too wide). They are answered like parse errors: the message plus the
 * command's usage and an example, and nothing sent.
 */
import { describeApiError, isApiError } from '../../api-errors.js';
import { errorCard } from '../../bot.js';
import type { CommandSpec } from '../../command-spec.js';
import { UserError } from '../../context.js';
import { say } from '../../messages.js';

const INPUT_ERRORS: ReadonlySet<string> = new Set([
  'meta-too-long',
  'privacy-youtube-only',
  'bad-when',
  'when-needs-time',
  'past-time',
  'bad-date',
  'calendar-range-reversed',
  'calendar-range-too-long',
]);

/**
 * Wraps a command's `run` (input mistakes get usage) and its `form` (the dispatcher calls `form` outside its
 * error handling, and building a form may read the API: a failure there becomes the usual error card).
 */
export function withUsage(spec: CommandSpec): CommandSpec {
  const form = spec.form;
  return {
    ...spec,
    ...(form
      ? {
          async form(ctx, partial) {
            try {
              return await form(ctx, partial);
            } catch (error) {
              if (error instanceof UserError) return errorCard(say(error.code, error.params), spec);
              if (isApiError(error)) return errorCard(describeApiError(error));
              throw error;
            }
          },
        }
      : {}),
    async run(ctx, args) {
      try {
        return await spec.run(ctx, args);
      } catch (error) {
        if (error instanceof UserError && INPUT_ERRORS.has(error.code))
          return errorCard(say(error.code, error.params), spec);
        throw error;
      }
    },
  };
}
