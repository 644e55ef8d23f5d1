/**
 * The core's small markdown (`**bold**`, `_italic_`, `` `code` ``, `[label](url)`, backslash escapes, mention
 * tokens; see src/core/text/text.ts) to Slack mrkdwn (`*bold*`, `_italic_`, `` `code` ``, `<url|label>`, `<@U1>`),
 * and to plain text for `plain_text` objects.
 * `&`, `<` and `>` are escaped everywhere (https://docs.slack.dev/messaging/formatting-message-text#escaping):
 * the only `<…>` this module writes are links and the mentions the core made with `mention()`, so nothing a
 * user typed can become `<!channel>`, `<!subteam^…>` or a link.
 */
import {
  type CommandRef,
  dropMarkup,
  literal,
  type MentionTarget,
  mention,
  type Piece,
  plainPiece,
  restore,
  shield,
  toPlainText,
  typedCommand,
} from '../../src/core/index.js';

const LINK = /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g;
/** A code block (```…```, may span lines) or an inline code span. */
const CODE = /```([\s\S]*?)```|`([^`\n]+)`/g;

export const escapeMrkdwn = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A URL inside `<…|…>`: `|` and `>` would end it early. */
const escapeUrl = (url: string): string => escapeMrkdwn(url).replace(/\|/g, '%7C');

/** Link labels cannot hold `|` or `>` either, nor (usefully) formatting. */
const escapeLabel = (label: string): string => escapeMrkdwn(label.replace(/\*\*/g, '')).replace(/\|/g, '¦');

/** Slack's own mention syntax for a token the core wrote; a mention of another platform reads as `@id`. */
function slackMention(target: MentionTarget): string {
  // Slack ids are upper-case letters and digits: anything else (a stored ref gone odd) is shown, not sent as syntax.
  if (target.platform !== 'slack' || !/^[A-Z0-9]+$/.test(target.id))
    return escapeMrkdwn(plainPiece({ kind: 'mention', target, ref: '' }));
  if (target.kind === 'group') return `<!subteam^${target.id}>`;
  return target.kind === 'channel' ? `<#${target.id}>` : `<@${target.id}>`;
}

/** A command as a member types it in Slack (and the playground): `/reel publish "Launch teaser" youtube`. */
export const slackCommand = (command: CommandRef): string => typedCommand(command, '/reel');

/** A command reference in prose: inline code, where a backtick the user typed would end the span. */
const commandCode = (command: CommandRef): string =>
  `\`${escapeMrkdwn(slackCommand(command).replace(/`/g, 'ˋ'))}\``;

/** A piece with no formatting around it (code spans, link labels, plain text). */
const asText = (piece: Piece): string => escapeMrkdwn(plainPiece(piece, slackCommand));

/**
 * Mrkdwn has no escape character. A `*`, `_`, `~` or `` ` `` the user typed is fenced with zero-width spaces,
 * which can neither open nor close formatting on either side; between two letters (`my_video`) it cannot
 * format anyway and stays as typed. (The Slack command text strips zero-width spaces, so a copied name still
 * resolves.)
 */
const FORMATTING = new Set(['*', '_', '~', '`']);
const WORDY = /[\p{L}\p{N}]/u;
const ZWSP = '\u200b';

/** How a held piece reads in mrkdwn, by where it landed. */
function inProse(piece: Piece, at: { before: string; after: string }): string {
  if (piece.kind === 'mention') return slackMention(piece.target);
  if (piece.kind === 'command') return commandCode(piece.command);
  const char = piece.char;
  if (!FORMATTING.has(char)) return escapeMrkdwn(char);
  return WORDY.test(at.before) && WORDY.test(at.after) ? char : `${ZWSP}${char}${ZWSP}`;
}
/** Inside a code span nothing formats, but a backtick would end it. */
const inCode = (piece: Piece): string =>
  piece.kind === 'char'
    ? escapeMrkdwn(piece.char === '`' ? 'ˋ' : piece.char)
    : asText(piece).replace(/`/g, 'ˋ');
const inLabel = (piece: Piece): string => asText(piece).replace(/\|/g, '¦');

/** Core markdown → Slack mrkdwn. Code spans are kept verbatim (escaped only), links become `<url|label>`. */
export function toMrkdwn(text: string): string {
  const { text: held, pieces } = shield(text);
  const out: string[] = [];
  let last = 0;
  // Code spans first: nothing inside them is formatting; links are found in the text between them.
  for (const match of held.matchAll(CODE)) {
    out.push(convertProse(held.slice(last, match.index), pieces));
    const fence = match[1] !== undefined ? '```' : '`';
    out.push(`${fence}${restore(escapeMrkdwn(match[1] ?? (match[2] as string)), pieces, inCode)}${fence}`);
    last = match.index + match[0].length;
  }
  out.push(convertProse(held.slice(last), pieces));
  return restore(out.join(''), pieces, inProse);
}

function convertProse(text: string, pieces: readonly Piece[]): string {
  const out: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    out.push(formatPlain(text.slice(last, match.index)));
    const label = restore(escapeLabel(match[1] as string), pieces, inLabel);
    out.push(`<${escapeUrl(match[2] as string)}|${label}>`);
    last = match.index + match[0].length;
  }
  out.push(formatPlain(text.slice(last)));
  return out.join('');
}

/** `**bold**` → `*bold*`; `_italic_` is the same in both. */
const formatPlain = (text: string): string => escapeMrkdwn(text).replace(/\*\*(.+?)\*\*/g, '*$1*');

/**
 * Core markdown → plain text (headers, button labels, modal labels): markers dropped, links → label,
 * escapes undone, mentions → `@id`. Not for mrkdwn: pass it through `escapeMrkdwn` before Slack parses it.
 */
export const toPlain = (text: string): string => toPlainText(text, slackCommand);

/** Core markdown shown without its formatting, as mrkdwn (field labels): nothing in it can format or link. */
export const toPlainMrkdwn = (text: string): string => toMrkdwn(literal(toPlain(text)));

/**
 * Core markdown → the message's `text` (notifications, screen readers, clients without blocks). Slack parses
 * it as mrkdwn, so it is escaped like any mrkdwn; markers are dropped, mentions the core wrote stay live.
 */
export function toFallback(text: string): string {
  const { text: held, pieces } = shield(text);
  return restore(escapeMrkdwn(dropMarkup(held)), pieces, inProse);
}

/** Slack mentions for a card's `notify` list (user addresses, `slack-group:…`), in the message text. */
export const notifyMentions = (refs: readonly string[]): string => toMrkdwn(refs.map(mention).join(' '));

/**
 * Cuts `text` to at most `max` characters, ending with `…` when cut. Cuts at a line or word boundary when
 * one is near, and never inside a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const newline = text.lastIndexOf('\n', cut);
  const space = text.lastIndexOf(' ', cut);
  const boundary = Math.max(newline, space);
  if (boundary > max * 0.8) cut = boundary;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut).trimEnd()}…`;
}

/**
 * Cuts mrkdwn without breaking an escape (`&amp;`) or a link (`<url|label>`) in half: the cut moves
 * before an unfinished one. Slack rejects a section whose text is over 3000 characters.
 */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = truncate(text, max).length - 1;
  const head = text.slice(0, cut);
  const openLink = head.lastIndexOf('<');
  if (openLink > head.lastIndexOf('>')) cut = openLink;
  const amp = text.slice(0, cut).lastIndexOf('&');
  if (amp >= 0 && amp > cut - 6 && !text.slice(amp, cut).includes(';')) cut = amp;
  // An odd number of backticks would leave a code span open.
  let kept = text.slice(0, cut).trimEnd();
  if ((kept.match(/`/g)?.length ?? 0) % 2 === 1) kept = kept.slice(0, kept.lastIndexOf('`')).trimEnd();
  return `${kept}…`;
}

/** Splits long mrkdwn into pieces of at most `max` characters at line breaks (one section each). */
export function splitMrkdwn(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const candidate = current === '' ? line : `${current}\n${line}`;
    if (candidate.length <= max) {
      current = candidate;
      continue;
    }
    if (current !== '') pieces.push(current);
    current = line.length <= max ? line : truncateMrkdwn(line, max);
  }
  if (current !== '') pieces.push(current);
  return pieces;
}
