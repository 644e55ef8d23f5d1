/**
 * A typed command longer than the platform takes: the adapter only reports "over my cap" (the
 * whole line it received, or the one typed option that is over); the core names the field, its own limit
 * (the API's) and the way round, the form or a file, in one sentence. Nothing is run.
 */

import type { CommandSpec, OptionSpec } from '../parse/command-spec.js';
import { type CommandRegistry, parseCommandText } from '../parse/parse-command.js';
import type { Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { errorCard } from './error-card.js';

/** What an adapter knows of a command it will not deliver. */
export type TooLongText =
  /** A command line typed whole (Slack-like text), longer than `cap` characters. */
  | { text: string; cap: number }
  /** One typed option of `command` (Discord), `length` characters where the platform takes `cap`. */
  | { command: string; option: string; length: number; cap: number };

const lengthOf = (value: string): number => [...value].length;

/** The command, its over-long field and that field's length, as far as the text can be read. */
function read(
  typed: TooLongText,
  registry: CommandRegistry,
): { spec?: CommandSpec; field?: OptionSpec; length: number } {
  if ('command' in typed) {
    const spec = registry.find(typed.command);
    const field = spec?.options.find((o) => o.name === typed.option);
    return { ...(spec ? { spec } : {}), ...(field ? { field } : {}), length: typed.length };
  }
  const parsed = parseCommandText(typed.text, registry);
  if (!parsed.ok) return { length: lengthOf(typed.text) };
  const { spec, raw } = parsed.value;
  // The long part is the longest value typed (a script, a description).
  let longest: { field: OptionSpec; length: number } | undefined;
  for (const option of spec.options) {
    const value = raw[option.name];
    if (typeof value !== 'string') continue;
    if (!longest || lengthOf(value) > longest.length) longest = { field: option, length: lengthOf(value) };
  }
  return longest ? { spec, ...longest } : { spec, length: lengthOf(typed.text) };
}

export function answerTooLong(typed: TooLongText, registry: CommandRegistry): Response {
  const { spec, field, length } = read(typed, registry);
  return errorCard(
    say('typed-too-long', {
      command: spec?.name ?? 'help',
      field: field?.name ?? 'command',
      length,
      cap: typed.cap,
      max: field?.maxLength ?? typed.cap,
      ...(spec?.form ? { form: 'yes' } : {}),
    }),
  );
}
