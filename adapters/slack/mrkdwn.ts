/**
 * The core's small markdown (`**bold**`, `_italic_`, `` `code` ``, `[label](url)`) to Slack mrkdwn
 * (`*bold*`, `_italic_`, `` `code` ``, `<url|label>`), and to plain text for `plain_text` objects.
 * `&`, `<` and `>` are escaped everywhere else, so names a user typed can never become `<!channel>` or a
 * link (https://docs.slack.dev/messaging/formatting-message-text#escaping).
 */

const LINK = /\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g;
const CODE = /`([^`\n]+)`/g;

export const escapeMrkdwn = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A URL inside `<…|…>`: `|` and `>` would end it early. */
const escapeUrl = (url: string): string => escapeMrkdwn(url).replace(/\|/g, '%7C');

/** Link labels cannot hold `|` or `>` either, nor (usefully) formatting. */
const escapeLabel = (label: string): string => escapeMrkdwn(label.replace(/\*\*/g, '')).replace(/\|/g, '¦');

/** Core markdown → Slack mrkdwn. Code spans are kept verbatim (escaped only), links become `<url|label>`. */
export function toMrkdwn(text: string): string {
  const out: string[] = [];
  let last = 0;
  // Code spans first: nothing inside them is formatting; links are found in the text between them.
  for (const match of text.matchAll(CODE)) {
    out.push(convertProse(text.slice(last, match.index)));
    out.push(`\`${escapeMrkdwn(match[1] as string)}\``);
    last = match.index + match[0].length;
  }
  out.push(convertProse(text.slice(last)));
  return out.join('');
}

function convertProse(text: string): string {
  const out: string[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    out.push(convertInline(text.slice(last, match.index)));
    out.push(`<${escapeUrl(match[2] as string)}|${escapeLabel(match[1] as string)}>`);
    last = match.index + match[0].length;
  }
  out.push(convertInline(text.slice(last)));
  return out.join('');
}

/**
 * User, user-group and channel mentions the core writes (`<@U1>`, `<!subteam^S1>`, `<#C1>`) stay live; every other `<…>`,
 * `<!channel>` and `<!here>` included, is escaped.
 */
const MENTION = /<@[UW][A-Z0-9]+>|<!subteam\^[A-Z0-9]+>|<#[CGD][A-Z0-9]+>/g;

/** `**bold**` → `*bold*`; `_italic_` is the same in both. */
function convertInline(text: string): string {
  const out: string[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTION)) {
    out.push(formatPlain(text.slice(last, match.index)), match[0]);
    last = match.index + match[0].length;
  }
  out.push(formatPlain(text.slice(last)));
  return out.join('');
}

const formatPlain = (text: string): string => escapeMrkdwn(text).replace(/\*\*(.+?)\*\*/g, '*$1*');

/** Core markdown → plain text (headers, button labels, modal labels): markers dropped, links → label. */
export function toPlain(text: string): string {
  return text
    .replace(LINK, '$1')
    .replace(CODE, '$1')
    .replace(/\*\*(.+?)\*\*/g, '$1');
}

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
