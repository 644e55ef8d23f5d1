/**
 * Bad input found by a handler (after the parser's own checks) is answered like a parser error: the words,
 * then the command's usage and an example, and nothing is sent to the API.
 */
import { errorCard } from '../../bot.js';
import type { Response } from '../../cards.js';
import type { CommandSpec } from '../../command-spec.js';
import { say } from '../../messages.js';

export const badInput = (
  spec: CommandSpec,
  code: string,
  params: Record<string, string | number> = {},
): Response => errorCard(say(code, params), spec);
