/**
 * A typed command longer than the platform takes (issue 27): the adapter only reports "over my cap" (the
 * start of the text, its length, the cap); the core names the command's long field and its own limit (the
 * API's) and says the way round, the form or a file, in one sentence. Nothing is run.
 */
import type { Response } from './cards.js';
import type { CommandSpec } from './command-spec.js';
import { errorCard } from './error-card.js';
import { say } from './messages.js';
import type { CommandRegistry } from './parse/parse-command.js';

/** What an adapter knows of a command it will not deliver whole. */
export interface TooLongText {
  /** The first characters typed (enough to name the command). */
  start: string;
  /** Characters typed in all. */
  length: number;
  /** Most characters the platform takes in a typed command. */
  cap: number;
}

/** The command the text starts with (`series create …` or `create …`), if any. */
function commandOf(start: string, registry: CommandRegistry): CommandSpec | undefined {
  const [first = '', second = ''] = start
    .trim()
    .replace(/^\/reel\b\s*/i, '')
    .split(/\s+/)
    .map((w) => w.toLowerCase());
  return registry.find(`${first} ${second}`) ?? registry.find(first);
}

export function answerTooLong(typed: TooLongText, registry: CommandRegistry): Response {
  const spec = commandOf(typed.start, registry);
  // The long part is the command's free text (a script, a description): its rest positional, else its longest.
  const field =
    spec?.options.find((o) => o.rest && o.maxLength !== undefined) ??
    [...(spec?.options ?? [])]
      .filter((o) => o.maxLength !== undefined)
      .sort((a, b) => (b.maxLength ?? 0) - (a.maxLength ?? 0))[0];
  return errorCard(
    say('typed-too-long', {
      command: spec?.name ?? 'help',
      field: field?.name ?? 'command',
      length: typed.length,
      cap: typed.cap,
      max: field?.maxLength ?? typed.cap,
      ...(spec?.form ? { form: 'yes' } : {}),
    }),
  );
}
