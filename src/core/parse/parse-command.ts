/**
 * Text grammar (DESIGN §3): `<command> [sub] positional… --flag value --bool`, quotes allowed; a `rest`
 * positional takes the remaining text verbatim (newlines kept). Produces the same raw argument bag an
 * adapter with typed options would, then `validateArgs` checks it.
 */

import { type UserError, userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import type { CommandSpec, OptionSpec, RawArgs } from './command-spec.js';
import { type Token, tokenize } from './tokenize.js';
import { parsePlatform } from './validate-args.js';

export interface ParsedText {
  spec: CommandSpec;
  raw: RawArgs;
}

export interface CommandRegistry {
  find(name: string): CommandSpec | undefined;
  groups(): Set<string>;
  names(): string[];
}

export function createRegistry(commands: readonly CommandSpec[]): CommandRegistry {
  const byName = new Map(commands.map((c) => [c.name, c]));
  const groups = new Set(
    commands.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0] as string),
  );
  return {
    find: (name) => byName.get(name),
    groups: () => groups,
    names: () => [...byName.keys()],
  };
}

/** Closest known command name, for "did you mean". */
export function suggest(word: string, names: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = distance(word.toLowerCase(), name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min(
        (row[j] as number) + 1,
        (row[j - 1] as number) + 1,
        prev + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      prev = tmp;
    }
  }
  return row[b.length] as number;
}

export function parseCommandText(input: string, registry: CommandRegistry): Result<ParsedText> {
  const text = input.trim().replace(/^\/reel\b\s*/, '');
  const tokenized = tokenize(text);
  if (!tokenized.ok) return tokenized;
  const tokens = tokenized.value;
  if (tokens.length === 0) return ok({ spec: registry.find('help') as CommandSpec, raw: {} });
  const found = findSpec(tokens, registry);
  if (!found.ok) return found;
  return readArgs({ spec: found.value.spec, tokens, text, at: found.value.at });
}

/** The command the first word (or a group and its subcommand) names, and where its arguments start. */
function findSpec(
  tokens: readonly Token[],
  registry: CommandRegistry,
): Result<{ spec: CommandSpec; at: number }> {
  const first = (tokens[0] as Token).text.toLowerCase();
  if (registry.groups().has(first)) {
    const sub = tokens[1]?.text.toLowerCase();
    const spec = sub ? registry.find(`${first} ${sub}`) : undefined;
    if (!spec) {
      return err(
        userError(sub ? 'unknown-subcommand' : 'missing-subcommand', { group: first, sub: sub ?? '' }),
      );
    }
    return ok({ spec, at: 2 });
  }
  const spec = registry.find(first);
  if (!spec) {
    const guess = suggest(first, registry.names());
    return err(userError('unknown-command', { command: first, ...(guess ? { suggestion: guess } : {}) }));
  }
  return ok({ spec, at: 1 });
}

/** Where the reading of one command's arguments stands: the token at `i`, the next positional to fill. */
interface ArgReader {
  spec: CommandSpec;
  tokens: readonly Token[];
  text: string;
  positionals: OptionSpec[];
  raw: RawArgs;
  i: number;
  nextPositional: number;
}

function readArgs({
  spec,
  tokens,
  text,
  at,
}: {
  spec: CommandSpec;
  tokens: readonly Token[];
  text: string;
  at: number;
}): Result<ParsedText> {
  const r: ArgReader = {
    spec,
    tokens,
    text,
    positionals: spec.options.filter((o) => o.positional),
    raw: {},
    i: at,
    nextPositional: 0,
  };
  for (; r.i < tokens.length; r.i++) {
    const token = tokens[r.i] as Token;
    const error = isFlag(token) ? readFlag(r, token) : readPositional(r, token);
    if (error) return err(error);
  }
  return ok({ spec, raw: r.raw });
}

function isFlag(token: Token): boolean {
  return !token.quoted && token.text.startsWith('--') && token.text.length > 2;
}

function readFlag(r: ArgReader, token: Token): UserError | undefined {
  const { spec, tokens, raw } = r;
  const [flagName, inline] = splitFlag(token.text.slice(2));
  const option = spec.options.find((o) => o.name === flagName.toLowerCase());
  if (!option) return userError('unknown-flag', { flag: flagName, command: spec.name });
  if (inline !== undefined) raw[option.name] = inline;
  else if (option.kind === 'boolean') {
    const next = tokens[r.i + 1]?.text.toLowerCase();
    if (next && ['true', 'false', 'yes', 'no', 'on', 'off'].includes(next)) {
      raw[option.name] = next;
      r.i++;
    } else raw[option.name] = true;
  } else {
    const value = tokens[r.i + 1];
    if (!value) return userError('missing-flag-value', { flag: option.name, command: spec.name });
    raw[option.name] = value.text;
    r.i++;
  }
  return undefined;
}

function readPositional(r: ArgReader, token: Token): UserError | undefined {
  const { positionals, raw } = r;
  let positional = positionals[r.nextPositional];
  // An optional platform before a required positional (`reschedule last [x] tomorrow 9am`) takes the word
  // only when it names a platform; otherwise the word belongs to the next positional.
  if (positional && !positional.required && positional.kind === 'platform' && !parsePlatform(token.text)) {
    if (positionals.slice(r.nextPositional + 1).some((o) => o.required))
      positional = positionals[++r.nextPositional];
  }
  if (!positional) return userError('extra-arg', { value: token.text, command: r.spec.name });
  if (positional.rest) return readRest(r, { token, positional });
  raw[positional.name] = token.text;
  r.nextPositional++;
  return undefined;
}

/**
 * The rest is taken verbatim so a script keeps its line breaks, up to the first known trailing
 * flag (`create my script --model motion_pro`); a lone quoted token is unquoted.
 */
function readRest(r: ArgReader, { token, positional }: { token: Token; positional: OptionSpec }): undefined {
  const { spec, tokens, text } = r;
  let stop = tokens.length;
  for (let j = r.i + 1; j < tokens.length; j++) {
    const t = tokens[j] as Token;
    const name = t.text.slice(2).split('=')[0]?.toLowerCase();
    if (!t.quoted && t.text.startsWith('--') && spec.options.some((o) => !o.positional && o.name === name)) {
      stop = j;
      break;
    }
  }
  const end = stop < tokens.length ? (tokens[stop] as Token).start : text.length;
  const lone = stop - 1 === r.i && token.quoted;
  r.raw[positional.name] = lone ? token.text : text.slice(token.start, end).trim();
  r.nextPositional++;
  r.i = stop - 1;
  return undefined;
}

function splitFlag(flag: string): [string, string | undefined] {
  const eq = flag.indexOf('=');
  return eq === -1 ? [flag, undefined] : [flag.slice(0, eq), flag.slice(eq + 1)];
}
