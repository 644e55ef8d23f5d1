/**
 * Command references in card text: the core names a command with its arguments as a value (`command('status',
 * [id])`), never as a platform's syntax. The reference travels inside card text as a token (`⟦/…⟧`, see
 * `encodeCommand`) that `shield` (text.ts) reads back into a `command` piece, and each adapter renders it as a
 * member types it there: `/reel status abc` on Slack and the playground, `/reel status video:abc` on Discord,
 * with the command's Discord path (`/reel account link`).
 *
 * Token format, after `⟦/`: one mode character, the command name, then `;`-separated segments, every name and
 * value percent-encoded (`encodeURIComponent`), so no value can hold a space, `;`, `=`, `:`, `,`, `<` or `⟧`:
 * - `>name;=value;flag=value;bool` — a command to run: `=v` a positional value, `f=v` a flag with a value, `f`
 *   a boolean flag; a value `<label` (a raw `<` never comes out of the encoding) is a placeholder to fill in.
 * - `?name;marks:option=choice,choice…` — the command's usage (`marks`: `p` positional, `r` rest, `q` required,
 *   `b` boolean); `-name;marks:option` one of its options; `=name` the command's name alone (help's list).
 */

/** A value in a command reference: typed text, or a placeholder the member fills in (`<video id>`). */
export type CommandArg = { value: string; hole?: true };

/** A flag of a command to run; without a value it is a boolean flag that is set. */
export interface CommandFlag {
  name: string;
  value?: CommandArg;
}

/** An option as a usage line shows it. */
export interface UsageOption {
  name: string;
  positional: boolean;
  rest: boolean;
  required: boolean;
  boolean: boolean;
  choices?: readonly string[];
}

/** What a command token names. */
export type CommandRef =
  | { kind: 'run'; name: string; positional: readonly CommandArg[]; flags: readonly CommandFlag[] }
  | { kind: 'usage'; name: string; options: readonly UsageOption[] }
  | { kind: 'option'; name: string; option: UsageOption }
  | { kind: 'name'; name: string };

import type { CardText } from './text.js';

const enc = encodeURIComponent;
const MODES = { run: '>', usage: '?', option: '-', name: '=' } as const;

/** A placeholder value: shown as `<label>` (Slack) or `option:<label>` (Discord). */
export const hole = (label: string): CommandArg => ({ value: label, hole: true });

const argOf = (value: string | CommandArg): CommandArg => (typeof value === 'string' ? { value } : value);
const encArg = (arg: CommandArg): string => (arg.hole ? `<${enc(arg.value)}` : enc(arg.value));

function encOption(o: UsageOption): string {
  const marks = `${o.positional ? 'p' : ''}${o.rest ? 'r' : ''}${o.required ? 'q' : ''}${o.boolean ? 'b' : ''}`;
  const choices = o.choices && o.choices.length > 0 ? `=${o.choices.map(enc).join(',')}` : '';
  return `${marks}:${enc(o.name)}${choices}`;
}

/** The token for `ref` (the text `shield` reads back): card text, every name and value in it percent-encoded. */
export function encodeCommand(ref: CommandRef): CardText {
  const segments = [`${MODES[ref.kind]}${enc(ref.name)}`];
  if (ref.kind === 'run') {
    for (const arg of ref.positional) segments.push(`=${encArg(arg)}`);
    for (const flag of ref.flags)
      segments.push(`${enc(flag.name)}${flag.value ? `=${encArg(flag.value)}` : ''}`);
  }
  if (ref.kind === 'usage') for (const o of ref.options) segments.push(encOption(o));
  if (ref.kind === 'option') segments.push(encOption(ref.option));
  return `⟦/${segments.join(';')}⟧` as CardText;
}

/**
 * A command to run, as card text: `command('publish', [name, 'youtube'], { account: 'Brand' })`. Positional
 * values in order, flags by option name (`true` for a boolean flag). Place it as a unit: adapters render it as
 * inline code, so it must not be wrapped in backticks.
 */
export function command(
  name: string,
  positional: readonly (string | CommandArg)[] = [],
  flags: Readonly<Record<string, string | CommandArg | true | undefined>> = {},
): CardText {
  const flagList: CommandFlag[] = [];
  for (const [flag, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    flagList.push(value === true ? { name: flag } : { name: flag, value: argOf(value) });
  }
  return encodeCommand({ kind: 'run', name, positional: positional.map(argOf), flags: flagList });
}

/** A flag of a command named in prose (`--account` on Slack, `account:` on Discord). */
export const flag = (name: string, option: string): CardText =>
  encodeCommand({
    kind: 'option',
    name,
    option: { name: option, positional: false, rest: false, required: false, boolean: false },
  });

/** A command's name alone (`link`, rendered `account link` on Discord): lists of commands. */
export const commandName = (name: string): CardText => encodeCommand({ kind: 'name', name });

const decArg = (raw: string): CommandArg =>
  raw.startsWith('<')
    ? { value: decodeURIComponent(raw.slice(1)), hole: true }
    : { value: decodeURIComponent(raw) };

function decOption(raw: string): UsageOption | undefined {
  const colon = raw.indexOf(':');
  if (colon < 0) return undefined;
  const marks = raw.slice(0, colon);
  const [name = '', choices] = raw.slice(colon + 1).split('=');
  return {
    name: decodeURIComponent(name),
    positional: marks.includes('p'),
    rest: marks.includes('r'),
    required: marks.includes('q'),
    boolean: marks.includes('b'),
    ...(choices ? { choices: choices.split(',').map((c) => decodeURIComponent(c)) } : {}),
  };
}

function decodeRun(name: string, segments: readonly string[]): CommandRef {
  const positional: CommandArg[] = [];
  const flags: CommandFlag[] = [];
  for (const segment of segments) {
    const eq = segment.indexOf('=');
    if (eq === 0) positional.push(decArg(segment.slice(1)));
    else if (eq < 0) flags.push({ name: decodeURIComponent(segment) });
    else flags.push({ name: decodeURIComponent(segment.slice(0, eq)), value: decArg(segment.slice(eq + 1)) });
  }
  return { kind: 'run', name, positional, flags };
}

/** Reads the body of a command token (what follows `⟦/`); undefined for anything malformed. */
export function decodeCommand(body: string): CommandRef | undefined {
  try {
    const [head = '', ...segments] = body.split(';');
    const mode = head.charAt(0);
    const name = decodeURIComponent(head.slice(1));
    if (!/^[\p{L}\p{N}_-]+( [\p{L}\p{N}_-]+)?$/u.test(name)) return undefined;
    if (mode === MODES.run) return decodeRun(name, segments);
    if (mode === MODES.name) return { kind: 'name', name };
    const options = segments.map(decOption);
    if (options.some((o) => o === undefined)) return undefined;
    if (mode === MODES.usage) return { kind: 'usage', name, options: options as UsageOption[] };
    const option = options[0];
    if (mode === MODES.option && option) return { kind: 'option', name, option };
    return undefined;
  } catch {
    // A malformed percent escape: not a token.
    return undefined;
  }
}

/** A value as the core's text grammar reads it back (parse/tokenize.ts): quoted when it has to be. */
function quoted(arg: CommandArg): string {
  if (arg.hole) return `<${arg.value}>`;
  const v = arg.value;
  if (v !== '' && !/[\s"'“”‘’]/.test(v) && !v.startsWith('--')) return v;
  return `"${v.replace(/["\\]/g, '\\$&')}"`;
}

/** One option of a usage line in text grammar: `<script…>`, `[--voice VOICE]`, `[--here]`. */
export function textOption(o: UsageOption, bare = false): string {
  if (o.positional) {
    const label = o.rest ? `${o.name}…` : o.name;
    return bare || o.required ? `<${label}>` : `[${label}]`;
  }
  const value = bare || o.boolean ? '' : ` ${o.choices ? o.choices.join('|') : o.name.toUpperCase()}`;
  return bare || o.required ? `--${o.name}${value}` : `[--${o.name}${value}]`;
}

/**
 * A reference in the core's own text grammar, without the platform's invocation: `status abc`,
 * `publish "Launch teaser" youtube --account Brand`, `create <script…> [--voice VOICE]`. Slack and the
 * playground put their slash command before it.
 */
export function commandText(ref: CommandRef): string {
  switch (ref.kind) {
    case 'name':
      return ref.name;
    case 'option':
      return textOption(ref.option, true);
    case 'usage': {
      const positional = ref.options.filter((o) => o.positional).map((o) => textOption(o));
      const flags = ref.options.filter((o) => !o.positional).map((o) => textOption(o));
      return [ref.name, ...positional, ...flags].join(' ');
    }
    case 'run': {
      const words = [ref.name, ...ref.positional.map(quoted)];
      for (const flag of ref.flags) words.push(`--${flag.name}`, ...(flag.value ? [quoted(flag.value)] : []));
      return words.join(' ');
    }
  }
}

/**
 * A reference as typed where commands are text after a slash command (`invocation` is the platform's, e.g.
 * Slack's): commands and usage lines get it in front, a lone name or option does not.
 */
export const typedCommand = (ref: CommandRef, invocation: string): string =>
  ref.kind === 'run' || ref.kind === 'usage' ? `${invocation} ${commandText(ref)}` : commandText(ref);
