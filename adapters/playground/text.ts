/**
 * The card markdown subset (`**bold**`, `_italic_`, `` `code` ``, `[label](url)`, line breaks, backslash
 * escapes, mention tokens; see src/core/text/text.ts) → HTML.
 * Safety by construction: the whole text is escaped first and only then converted, so no input character
 * can open a tag or an attribute; links are emitted only for http(s) URLs. Escaped characters and mentions are
 * held out of the conversion (`shield`), so a name like `**x**` or `[Approve](https://evil)` shows as typed.
 */
import escapeHtml from 'escape-html';
import {
  type CommandRef,
  type Piece,
  plainPiece,
  restore,
  shield,
  toPlainText,
  typedCommand,
} from '../../src/core/index.js';

/** `http:`/`https:` only: anything else (javascript:, data:, relative) is never made clickable. */
export const isWebUrl = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
};

// Code spans and links are swapped for placeholders so bold/italic never rewrite inside them.
// NUL cannot come from the input (it is stripped), so the placeholders cannot be forged.
const SLOT = '\u0000';

/** A mention the core wrote: a styled `@name` (nobody is pinged in the playground). */
export const mentionHtml = (piece: Piece): string =>
  `<span class="mention" data-testid="mention">${escapeHtml(plainPiece(piece))}</span>`;

/** A command as typed in the playground's composer, which reads Slack's text: `/reel status abc`. */
export const playgroundCommand = (command: CommandRef): string => typedCommand(command, '/reel');

function inProse(piece: Piece): string {
  if (piece.kind === 'char') return escapeHtml(piece.char);
  if (piece.kind === 'command')
    return `<code class="command" data-testid="command">${escapeHtml(playgroundCommand(piece.command))}</code>`;
  return mentionHtml(piece);
}
const asText = (piece: Piece): string => escapeHtml(plainPiece(piece, playgroundCommand));

/** Card markdown as plain words (attributes, error lists): commands as typed in the composer. */
export const plainText = (text: string): string => toPlainText(text, playgroundCommand);

/** Card markdown shown as plain text (titles, field labels): markers dropped, then HTML-escaped. */
export const plainToHtml = (text: string): string => escapeHtml(plainText(text));

export function markdownToHtml(text: string): string {
  const slots: string[] = [];
  const hold = (html: string): string => `${SLOT}${slots.push(html) - 1}${SLOT}`;

  const { text: held, pieces } = shield(text.replaceAll(SLOT, ''));
  let html = escapeHtml(held);
  html = html.replace(/```\n?([\s\S]*?)```|`([^`\n]+)`/g, (_, block?: string, code?: string) =>
    block !== undefined
      ? hold(`<pre><code>${restore(block, pieces, asText)}</code></pre>`)
      : hold(`<code>${restore(code as string, pieces, asText)}</code>`),
  );
  // The URL is already escaped (`&` → `&amp;`, `"` → `&quot;`), which is what an attribute needs;
  // validity is checked on the unescaped form.
  html = html.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) => {
    const href = restore(url, pieces, asText);
    return isWebUrl(unescapeHtml(href))
      ? hold(`<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`)
      : label;
  });
  html = html.replace(/\*\*([^*\n](?:[^\n]*?[^*\n])?)\*\*/g, '<strong>$1</strong>');
  // `_x_` only at word edges, so snake_case_names stay as they are.
  html = html.replace(/(^|[^\p{L}\p{N}_])_([^_\n](?:[^\n]*?[^_\n])?)_(?![\p{L}\p{N}_])/gu, '$1<em>$2</em>');
  html = html.replace(/\r?\n/g, '<br>');
  // A link label may hold a code span: restore until no placeholder is left (nesting is at most two deep).
  const unhold = (s: string): string =>
    s.replace(/\u0000(\d+)\u0000/g, (_, i: string) => slots[Number(i)] ?? '');
  return restore(unhold(unhold(html)), pieces, inProse);
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (html: string): string =>
  html.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
