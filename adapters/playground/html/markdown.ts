/**
 * The card markdown subset (`**bold**`, `_italic_`, `` `code` ``, `[label](url)`, line breaks) → HTML.
 * Safety by construction: the whole text is escaped first and only then converted, so no input character
 * can open a tag or an attribute; links are emitted only for http(s) URLs.
 */
import escapeHtml from 'escape-html';

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

export function markdownToHtml(text: string): string {
  const slots: string[] = [];
  const hold = (html: string): string => `${SLOT}${slots.push(html) - 1}${SLOT}`;

  let html = escapeHtml(text.replaceAll(SLOT, ''));
  html = html.replace(/`([^`\n]+)`/g, (_, code: string) => hold(`<code>${code}</code>`));
  // The URL is already escaped (`&` → `&amp;`, `"` → `&quot;`), which is what an attribute needs;
  // validity is checked on the unescaped form.
  html = html.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) =>
    isWebUrl(unescapeHtml(url))
      ? hold(`<a href="${url}" target="_blank" rel="noopener noreferrer">${label}</a>`)
      : label,
  );
  html = html.replace(/\*\*([^*\n](?:[^\n]*?[^*\n])?)\*\*/g, '<strong>$1</strong>');
  // `_x_` only at word edges, so snake_case_names stay as they are.
  html = html.replace(/(^|[^\p{L}\p{N}_])_([^_\n](?:[^\n]*?[^_\n])?)_(?![\p{L}\p{N}_])/gu, '$1<em>$2</em>');
  html = html.replace(/\r?\n/g, '<br>');
  // A link label may hold a code span: restore until no placeholder is left (nesting is at most two deep).
  const restore = (s: string): string =>
    s.replace(/\u0000(\d+)\u0000/g, (_, i: string) => slots[Number(i)] ?? '');
  return restore(restore(html));
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
