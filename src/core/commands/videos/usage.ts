/**
 * Input mistakes found inside a handler (script too short, unknown voice, bad style…) are answered like the
 * parser's own: the message plus the command's usage and an example, and nothing is sent to the API.
 */
import { errorCard } from '../../bot.js';
import type { Response } from '../../cards.js';
import type { CommandSpec } from '../../command-spec.js';
import { UserError } from '../../context.js';
import { say } from '../../messages.js';

const INPUT_CODES = new Set([
  'too-short',
  'too-long',
  'bad-choice',
  'bad-url',
  'bad-int',
  'missing-arg',
  'ambiguous-voice',
  'not-found-voice',
  'voice-wrong-language',
  'page-out-of-range',
]);

/** Runs a handler; an input mistake it throws comes back with `spec`'s usage. */
export async function withUsage(spec: () => CommandSpec, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UserError && INPUT_CODES.has(error.code)) {
      return errorCard(say(error.code, error.params), spec());
    }
    throw error;
  }
}
