/**
 * Card text that is safe to build from values the core does not control, and the one way the core mentions
 * someone.
 *
 * - `literal(value)` backslash-escapes the card markdown's metacharacters (ESCAPED), so a video name like
 *   `[Approve](https://evil)`, `**x**` or `<!channel>` reads as those characters on every platform. Every value
 *   the core did not write itself (names, hook text, descriptions, display names, API messages, typed
 *   references) goes through it (or `code`/`link`) before it lands in card text, titles, fields or context.
 * - `mention(ref)` is the only way to mention: a token `⟦@ref⟧` (`⟦#address⟧` for a channel) that adapters
 *   render natively. `literal` escapes `⟦` and `⟧`, so user text can never forge one.
 * - `command(name, positional, flags)` is the only way to name a command (`⟦/…⟧`, command-ref.ts): each
 *   adapter renders it as its members type it, as inline code.
 *
 * - `CardText` is the type of card text: a string branded so that only these helpers (and `md`, `joinText`,
 *   `command`…) make one. A user value concatenated into card text is a `string`, which no card field takes,
 *   so forgetting `literal` does not compile.
 *
 * The contract every adapter follows (see `shield`): a backslash followed by one of ESCAPED is that character,
 * shown as itself; the adapter first applies its own escaping (Slack `&<>`, HTML) to everything, then renders
 * the core's formatting, and shows escaped characters as plain characters that carry no meaning.
 */

import { decodeGroupReference } from '../ports/address.js';
import type { ChatPlatform } from '../ports/chat.js';
import { type CommandRef, commandText, decodeCommand, encodeCommand } from './command-ref.js';

export { type CommandArg, type CommandRef, command, commandName, flag, hole } from './command-ref.js';

declare const cardText: unique symbol;

/**
 * Card markdown the core vouches for (see cards.ts): its own wording, and values escaped by `literal`, `code`,
 * `link`, `bareUrl`, `mention`, `channel` or `command`. A string at run time; only this file's helpers (and
 * command-ref.ts) make one, so an unescaped value cannot reach a card.
 */
export type CardText = string & { readonly [cardText]: true };

/** The one place a string becomes CardText: every caller has escaped or written it itself. */
const vouched = (text: string): CardText => text as CardText;

/**
 * Card text written by the core: `md\`Published ${code(id)} to **${literal(name)}**.\``. The literal parts
 * are the core's own wording (markdown as written); a hole takes only card text or a number, so a value the
 * core does not control has to go through `literal`/`code`/`link` first.
 */
export function md(parts: TemplateStringsArray, ...holes: readonly (CardText | number)[]): CardText {
  let out = parts[0] ?? '';
  holes.forEach((hole, i) => {
    out += String(hole) + (parts[i + 1] ?? '');
  });
  return vouched(out);
}

/** What `joinText` puts between pieces: core wording written in place, or card text. */
export type Separator = CardText | '' | ' ' | '\n' | '\n\n' | ', ' | '; ' | ' · ' | ' and ' | ' or ';

/** Pieces of card text joined by `separator` (lists, lines); a piece left out (`false`, undefined) is skipped. */
export const joinText = (
  parts: readonly (CardText | false | null | undefined)[],
  separator: Separator = '',
): CardText => vouched(parts.filter((part) => part !== false && part != null).join(separator));

/**
 * Wording the core wrote in a command's spec (summaries, option descriptions, section names): card markdown as
 * written there, never a value from outside.
 */
export const specWording = (text: string): CardText => vouched(text);

/**
 * Card text the core wrote earlier and stored as a string (an approval's summary, read back from the store):
 * trusted as written, since only the core writes those records.
 */
export const storedText = (text: string): CardText => vouched(text);

/** Characters an adapter reads as themselves after a backslash (formatting, links, mention tokens, `<…>`). */
export const ESCAPED = '\\*_`[]()<>~|⟦⟧';
/** What `literal` escapes: ESCAPED but parentheses, which only make a link after `]` (escaped itself). */
const ESCAPE_RE = /[\\*_`[\]<>~|⟦⟧]/g;
const WORD = /[\p{L}\p{N}]/u;

/**
 * A value shown exactly as given inside card text. Two characters stay as they are, since they cannot
 * start anything on their own and values full of them stay readable: `(`/`)` (a link needs `](`, and `]` is
 * escaped) and an `_` between two letters or digits (`motion_lite`; no platform formats inside a word).
 */
export const literal = (value: string | number): CardText =>
  vouched(
    String(value).replace(ESCAPE_RE, (char, at: number, all: string) =>
      char === '_' && WORD.test(all.charAt(at - 1)) && WORD.test(all.charAt(at + 1)) ? char : `\\${char}`,
    ),
  );

/** A value shown as inline code (ids, typed references, commands containing user input). */
export const code = (value: string | number): CardText => md`\`${literal(value)}\``;

/**
 * A link with a label the core does not control. The URL is only made clickable when it is http(s); the
 * characters that would end it early (`(`, `)`, whitespace, `<`, `>`, backslash) are percent-encoded.
 */
export function link(label: string, url: string): CardText {
  if (!/^https?:\/\//i.test(url)) return literal(label);
  const safe = url.replace(
    /[()\s<>\\"]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return vouched(`[${literal(label) || literal(safe)}](${safe})`);
}

/**
 * A URL shown bare (platforms make it clickable themselves), as the API gave it. One holding a character with
 * a meaning in card text is escaped instead, so it can never format or forge anything.
 */
export const bareUrl = (url: string): CardText =>
  /^https?:\/\/[^\s\\*`[\]()<>~|⟦⟧]+$/i.test(url) ? vouched(url) : literal(url);

/**
 * A mention of a user address (`slack:T1:U1`) or of a group members can be mentioned as (a `groupReference` the
 * adapter built: a Slack user group, a Discord role, a playground group). Adapters render it natively.
 */
export const mention = (ref: string): CardText => vouched(`⟦@${ref.replace(/[\s⟧]/g, '')}⟧`);

/** A channel reference (`slack:T1:C1`), rendered as a channel link where the platform has one. */
export const channel = (address: string): CardText => vouched(`⟦#${address.replace(/[\s⟧]/g, '')}⟧`);

/** What a mention token names; a group's platform and noun are data its adapter reads. */
export type MentionTarget =
  | { kind: 'user'; platform: string; workspace: string; id: string }
  | { kind: 'group'; platform: ChatPlatform; noun: string; id: string }
  | { kind: 'channel'; platform: string; workspace: string; id: string };

/** Reads the ref of a token; undefined for anything else. */
export function parseMention(ref: string, kind: '@' | '#' = '@'): MentionTarget | undefined {
  const group = kind === '@' ? decodeGroupReference(ref) : undefined;
  if (group) return { kind: 'group', ...group };
  const [platform, workspace, id, ...rest] = ref.split(':');
  if (!platform || !workspace || !id || rest.length > 0) return undefined;
  return { kind: kind === '#' ? 'channel' : 'user', platform, workspace, id };
}

/** A protected piece of card text: an escaped character, a mention token or a command reference. */
export type Piece =
  | { kind: 'char'; char: string }
  | { kind: 'mention'; target: MentionTarget; ref: string }
  | { kind: 'command'; command: CommandRef };

/** Card text with its protected pieces held out (see `shield`). */
export interface Shielded {
  text: string;
  pieces: Piece[];
}

/** Marks a held piece in shielded text; stripped from the input so it cannot be forged. */
const HOLD = '\u0001';
const TOKENS = /\\([\\*_`[\]()<>~|⟦⟧])|⟦([@#/])([^⟧\s]+)⟧/gu;
const HELD = /\u0001(\d+)\u0001/g;

/**
 * Replaces every escaped character and mention token of `text` by a placeholder (`\u0001n\u0001`, no markup
 * character in it), scanning left to right so `\\⟦@x⟧` is an escaped backslash then a real token. An adapter
 * converts the shielded text with its own rules, which then never see user characters as markup, and puts the
 * pieces back with `restore`, rendering each for where it landed (prose, code span, link label).
 */
export function shield(text: string): Shielded {
  const pieces: Piece[] = [];
  const out = replaceEach(text.replaceAll(HOLD, ''), TOKENS, (match) => {
    const [whole, char, sigil, ref] = match;
    if (char !== undefined) pieces.push({ kind: 'char', char });
    else if (sigil === '/') {
      const command = decodeCommand(ref as string);
      if (!command) return '';
      pieces.push({ kind: 'command', command });
    } else {
      const target = parseMention(ref as string, sigil as '@' | '#');
      // An unreadable token is shown as text, never as a mention.
      if (!target) return whole.replace(/[⟦⟧]/g, '');
      pieces.push({ kind: 'mention', target, ref: ref as string });
    }
    return `${HOLD}${pieces.length - 1}${HOLD}`;
  });
  return { text: out, pieces };
}

/**
 * `text.replace(pattern, fn)` for a global `pattern`, with `fn` given the match itself (its groups, `index`
 * and `input`) rather than String.replace's positional arguments.
 */
function replaceEach(text: string, pattern: RegExp, fn: (match: RegExpExecArray) => string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(pattern) as IterableIterator<RegExpExecArray>) {
    out += text.slice(last, match.index) + fn(match);
    last = match.index + match[0].length;
  }
  return out + text.slice(last);
}

/** A held piece as the core wrote it, for an adapter that rewrites some pieces and keeps the others. */
export function pieceSource(piece: Piece): string {
  if (piece.kind === 'char') return `\\${piece.char}`;
  if (piece.kind === 'command') return encodeCommand(piece.command);
  return `⟦${piece.target.kind === 'channel' ? '#' : '@'}${piece.ref}⟧`;
}

/**
 * Card text with each command reference replaced by `render(command)`, itself card text: for an adapter that
 * writes commands in its own syntax before the card is rendered (Discord's command paths). Text without a
 * command reference comes back as it is.
 */
export function mapCommands(text: CardText, render: (command: CommandRef) => CardText): CardText {
  if (!text.includes('⟦/')) return text;
  const { text: held, pieces } = shield(text);
  return vouched(
    restore(held, pieces, (piece) => (piece.kind === 'command' ? render(piece.command) : pieceSource(piece))),
  );
}

/** Puts held pieces back, each rendered by `render` (which sees its neighbours through `at`/`within`). */
export function restore(
  text: string,
  pieces: readonly Piece[],
  render: (piece: Piece, at: { before: string; after: string }) => string,
): string {
  return replaceEach(text, HELD, ({ 0: held, 1: n, index, input }) => {
    const piece = pieces[Number(n)];
    if (!piece) return '';
    const end = index + held.length;
    return render(piece, { before: input.charAt(index - 1), after: input.charAt(end) });
  });
}

/**
 * Shielded card text with its markup dropped: links → label, code spans → their text, bold and italic
 * markers removed. Held pieces stay held, for the caller to `restore`.
 */
export const dropMarkup = (held: string): string =>
  held
    .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, '$1')
    .replace(/```\n?([\s\S]*?)```/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/(^|[^\p{L}\p{N}_])_([^_\n]+)_(?![\p{L}\p{N}_])/gu, '$1$2');

/** How an adapter writes a command reference as plain text (`/reel status abc`). */
export type CommandSyntax = (command: CommandRef) => string;

/**
 * Card text as plain words: markers dropped, links → label, escapes undone, mentions → `@id`, commands as
 * `syntax` writes them (by default the core's text grammar without a platform's invocation).
 */
export function toPlainText(text: string, syntax: CommandSyntax = commandText): string {
  const { text: held, pieces } = shield(text);
  return restore(dropMarkup(held), pieces, (piece) => plainPiece(piece, syntax));
}

/** How a piece reads where nothing is rendered (plain text, notifications). */
export function plainPiece(piece: Piece, syntax: CommandSyntax = commandText): string {
  if (piece.kind === 'char') return piece.char;
  if (piece.kind === 'command') return syntax(piece.command);
  return `${piece.target.kind === 'channel' ? '#' : '@'}${piece.target.id}`;
}

/** The refs of every mention token in `text` (escaped ones are not tokens). */
export function mentionsIn(text: string): string[] {
  const refs: string[] = [];
  for (const piece of shield(text).pieces) if (piece.kind === 'mention') refs.push(piece.ref);
  return refs;
}
