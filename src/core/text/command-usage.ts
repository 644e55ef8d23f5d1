/**
 * A command's usage and examples as command references (see command-ref.ts), so help and usage errors read
 * as each platform types them: `/reel create <script…> [--voice VOICE]` on Slack, `/reel create
 * script:<script> [voice:<voice>]` on Discord.
 */

import type { CommandSpec, OptionSpec } from '../parse/command-spec.js';
import { createRegistry, parseCommandText } from '../parse/parse-command.js';
import { encodeCommand, type UsageOption } from './command-ref.js';
import type { CardText } from './text.js';

const usageOption = (o: OptionSpec): UsageOption => ({
  name: o.name,
  positional: o.positional === true,
  rest: o.rest === true,
  required: o.required === true,
  boolean: o.kind === 'boolean',
  ...(o.choices ? { choices: o.choices } : {}),
});

/** The usage line of `spec`; hidden options exist only to catch a mistake and are never offered. */
export const usage = (spec: CommandSpec): CardText =>
  encodeCommand({
    kind: 'usage',
    name: spec.name,
    options: spec.options.filter((o) => !o.hidden).map(usageOption),
  });

/** One option of `spec` as a member names it: `--voice` (Slack), `voice:` (Discord). */
export const optionRef = (spec: CommandSpec, option: OptionSpec): CardText =>
  encodeCommand({ kind: 'option', name: spec.name, option: usageOption(option) });

/**
 * One of `spec.examples` (written in the core's text grammar, `create "A fox" --voice Aria`) as a command
 * reference: read with the same parser as typed text, so each option lands under its name.
 */
export function example(spec: CommandSpec, text: string): CardText {
  const parsed = parseCommandText(text, createRegistry([spec]));
  if (!parsed.ok) return encodeCommand({ kind: 'name', name: spec.name });
  const positional: { value: string }[] = [];
  const flags: { name: string; value?: { value: string } }[] = [];
  for (const o of spec.options) {
    const value = parsed.value.raw[o.name];
    if (value === undefined) continue;
    if (o.positional) positional.push({ value: String(value) });
    else if (value === true) flags.push({ name: o.name });
    else flags.push({ name: o.name, value: { value: String(value) } });
  }
  return encodeCommand({ kind: 'run', name: spec.name, positional, flags });
}
