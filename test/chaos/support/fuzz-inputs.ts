/**
 * Command strings for the fuzz test, from a seeded generator: every command's documented examples, then
 * those mutated (characters dropped, doubled, swapped, replaced with hostile ones; tokens shuffled, cut,
 * repeated; flags without values; extreme lengths) and random sentences built from the command vocabulary.
 */
import { seededRandom } from '../../../bench/lib/stats.js';
import type { CommandSpec } from '../../../src/core/parse/command-spec.js';

const HOSTILE = [
  '',
  ' ',
  '"',
  "'",
  '“',
  '”',
  '--',
  '-',
  '—',
  '=',
  '\\',
  '`',
  '```',
  '*',
  '_',
  '~',
  '<',
  '>',
  '&',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal template-injection probe
  '${process.env}',
  '{{7*7}}',
  "'; DROP TABLE watches; --",
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u0007',
  '\t',
  '\n',
  '\r\n',
  '\u200b',
  '\u202e',
  '\ufeff',
  '🎬',
  '👩‍👩‍👧‍👦',
  'é',
  'ß',
  'İ',
  '中文',
  'العربية',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '9007199254740993',
  '0x1f',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  'last',
  'all',
  'yesterday',
  'tomorrow 9am',
  'in 2 hours',
  '2026-13-45 25:61',
  '1999-01-01 00:00',
  'Europe/Paris',
  'Mars/Olympus',
  'vid_000000000000000000000000',
  '6567c0ffee0000000000000000',
  'https://example.com/a.mp4',
  'javascript:alert(1)',
  'fl_live_0000000000000000',
];

export interface FuzzContext {
  commands: readonly CommandSpec[];
  /** Ids of things that exist (a completed video, a series), so some inputs reach deep paths. */
  ids: string[];
}

export function fuzzInputs(ctx: FuzzContext, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const int = (n: number) => Math.floor(random() * n);

  const examples = ctx.commands.flatMap((c) => c.examples.map((e) => e.replace(/^\/reel\s+/, '')));
  const names = ctx.commands.map((c) => c.name);
  const flags = [
    ...new Set(ctx.commands.flatMap((c) => c.options.filter((o) => !o.positional).map((o) => `--${o.name}`))),
  ];
  const choices = ctx.commands.flatMap((c) =>
    c.options.flatMap((o) => ('choices' in o && o.choices ? [...o.choices] : [])),
  );
  const vocabulary = [
    ...names,
    ...flags,
    ...choices,
    ...ctx.ids,
    ...HOSTILE,
    'help',
    'youtube',
    'x',
    'tiktok',
  ];
  const seeds = [
    ...examples,
    ...names,
    ...ctx.ids.flatMap((id) => [`status ${id}`, `show ${id}`, `render ${id}`]),
  ];

  const mutateChars = (s: string): string => {
    const chars = [...s];
    const edits = 1 + int(4);
    for (let i = 0; i < edits; i++) {
      const at = int(chars.length + 1);
      switch (int(5)) {
        case 0:
          chars.splice(at, 1);
          break;
        case 1:
          chars.splice(at, 0, pick(HOSTILE));
          break;
        case 2:
          chars.splice(at, 0, chars[at] ?? '');
          break;
        case 3:
          if (at > 0) [chars[at - 1], chars[at]] = [chars[at] ?? '', chars[at - 1] ?? ''];
          break;
        default:
          chars[at] = String.fromCodePoint(int(0x2fff));
      }
    }
    return chars.join('');
  };
  const mutateTokens = (s: string): string => {
    const tokens = s.split(/\s+/);
    switch (int(6)) {
      case 0:
        return tokens.slice(0, int(tokens.length + 1)).join(' ');
      case 1:
        return [...tokens].sort(() => random() - 0.5).join(' ');
      case 2:
        return [...tokens, pick(flags)].join(' ');
      case 3:
        tokens.splice(1 + int(tokens.length), 0, pick(flags), pick(vocabulary));
        return tokens.join(' ');
      case 4:
        return tokens.map((t) => (random() < 0.3 ? pick(vocabulary) : t)).join(' ');
      default:
        return `${tokens[0]} ${tokens
          .slice(1)
          .join(' ')
          .repeat(1 + int(3))}`;
    }
  };
  const sentence = (): string => {
    const length = int(8);
    const words = [pick(names)];
    for (let i = 0; i < length; i++) words.push(pick(vocabulary));
    return words.join(' ');
  };
  const extreme = (): string => {
    switch (int(6)) {
      case 0:
        return `${pick(names)} ${'a'.repeat(10_001 + int(5000))}`;
      case 1:
        return `${pick(names)} ${'"'.repeat(1 + int(9))}`;
      case 2:
        return `${pick(names)} ${'--x '.repeat(200)}`;
      case 3:
        return pick(HOSTILE).repeat(1 + int(500));
      case 4:
        return `/reel ${pick(seeds)}`;
      default:
        return `${'  '.repeat(int(5))}${pick(seeds).toUpperCase()}`;
    }
  };

  const out: string[] = [...seeds];
  while (out.length < count) {
    const r = random();
    if (r < 0.35) out.push(mutateChars(pick(seeds)));
    else if (r < 0.65) out.push(mutateTokens(pick(seeds)));
    else if (r < 0.9) out.push(sentence());
    else out.push(extreme());
  }
  return out.slice(0, count);
}
