/**
 * Text grammar (DESIGN §3): `<command> [sub] positional… --flag value --bool`, quotes allowed; a `rest`
 * positional takes the remaining text verbatim (newlines kept). Produces the same raw argument bag an
 * adapter with typed options would, then `validateArgs` checks it.
 */

import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import type { CommandSpec, RawArgs } from './command-spec.js';
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

  const first = (tokens[0] as Token).text.toLowerCase();
  let spec: CommandSpec | undefined;
  let at = 1;
  if (registry.groups().has(first)) {
    const sub = tokens[1]?.text.toLowerCase();
    spec = sub ? registry.find(`${first} ${sub}`) : undefined;
    if (!spec) {
      return err(
        userError(sub ? 'unknown-subcommand' : 'missing-subcommand', { group: first, sub: sub ?? '' }),
      );
    }
    at = 2;
  } else {
    spec = registry.find(first);
    if (!spec) {
      const guess = suggest(first, registry.names());
      return err(userError('unknown-command', { command: first, ...(guess ? { suggestion: guess } : {}) }));
    }
  }

  const raw: RawArgs = {};
  const positionals = spec.options.filter((o) => o.positional);
  let nextPositional = 0;
  for (let i = at; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (!token.quoted && token.text.startsWith('--') && token.text.length > 2) {
      const [flagName, inline] = splitFlag(token.text.slice(2));
      const option = spec.options.find((o) => o.name === flagName.toLowerCase());
      if (!option) return err(userError('unknown-flag', { flag: flagName, command: spec.name }));
      if (inline !== undefined) raw[option.name] = inline;
      else if (option.kind === 'boolean') {
        const next = tokens[i + 1]?.text.toLowerCase();
        if (next && ['true', 'false', 'yes', 'no', 'on', 'off'].includes(next)) {
          raw[option.name] = next;
          i++;
        } else raw[option.name] = true;
      } else {
        const value = tokens[i + 1];
        if (!value) return err(userError('missing-flag-value', { flag: option.name, command: spec.name }));
        raw[option.name] = value.text;
        i++;
      }
      continue;
    }
    let positional = positionals[nextPositional];
    // An optional platform before a required positional (`reschedule last [x] tomorrow 9am`) takes the word
    // only when it names a platform; otherwise the word belongs to the next positional.
    if (positional && !positional.required && positional.kind === 'platform' && !parsePlatform(token.text)) {
      if (positionals.slice(nextPositional + 1).some((o) => o.required))
        positional = positionals[++nextPositional];
    }
    if (!positional) return err(userError('extra-arg', { value: token.text, command: spec.name }));
    if (positional.rest) {
      // The rest is taken verbatim so a script keeps its line breaks, up to the first known trailing
      // flag (`create my script --model motion_pro`); a lone quoted token is unquoted.
      let stop = tokens.length;
      for (let j = i + 1; j < tokens.length; j++) {
        const t = tokens[j] as Token;
        const name = t.text.slice(2).split('=')[0]?.toLowerCase();
        if (
          !t.quoted &&
          t.text.startsWith('--') &&
          spec.options.some((o) => !o.positional && o.name === name)
        ) {
          stop = j;
          break;
        }
      }
      const end = stop < tokens.length ? (tokens[stop] as Token).start : text.length;
      const lone = stop - 1 === i && token.quoted;
      raw[positional.name] = lone ? token.text : text.slice(token.start, end).trim();
      nextPositional++;
      i = stop - 1;
      continue;
    }
    raw[positional.name] = token.text;
    nextPositional++;
  }
  return ok({ spec, raw });
}

function splitFlag(flag: string): [string, string | undefined] {
  const eq = flag.indexOf('=');
  return eq === -1 ? [flag, undefined] : [flag.slice(0, eq), flag.slice(eq + 1)];
}
