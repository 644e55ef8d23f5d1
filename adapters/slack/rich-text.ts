/**
 * Lists as Block Kit `rich_text` (https://docs.slack.dev/reference/block-kit/blocks/rich-text-block): a run of
 * `• ` lines in a card's text becomes a real bulleted list (wrapped lines stay indented under their bullet),
 * converted from the mrkdwn `toMrkdwn` made: `*bold*`, `_italic_`, `` `code` ``, `<url|label>` links and
 * `<@U…>`, `<#C…>`, `<!subteam^S…>` mentions become styled elements. Anything the conversion does not know
 * (a code block, a stray `<`) leaves the run as mrkdwn.
 */
import type { types } from '@slack/bolt';

type Block = types.KnownBlock;
type Element = types.RichTextElement;
type Style = { bold?: boolean; italic?: boolean; code?: boolean };

const BULLET = /^[•] /;
const ZWSP = /\u200b/g;

/** A formatting character the text holds literally (fenced with zero-width spaces) ↔ a private-use stand-in. */
const HELD = ['*', '_', '~', '`'];
const hold = (mrkdwn: string): string =>
  mrkdwn.replace(/\u200b([*_~`])\u200b/g, (_, c: string) => String.fromCharCode(0xe000 + HELD.indexOf(c)));
const unentity = (text: string): string =>
  text
    .replace(/[\ue000-\ue003]/g, (c) => HELD[c.charCodeAt(0) - 0xe000] ?? '')
    .replace(ZWSP, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** `<…>`, a code span, `*bold*`, `_italic_` (not inside a word), or plain text up to the next of them. */
const TOKEN =
  /<([^<>\n]+)>|`([^`\n]+)`|(?<![\p{L}\p{N}*])\*([^*\n]+)\*(?![\p{L}\p{N}*])|(?<![\p{L}\p{N}_])_([^_\n]+)_(?![\p{L}\p{N}_])/gu;

function angle(inner: string, style: Style): Element | undefined {
  const s = Object.keys(style).length > 0 ? { style } : {};
  if (inner.startsWith('@')) return { type: 'user', user_id: inner.slice(1).split('|')[0] ?? '', ...s };
  if (inner.startsWith('#')) return { type: 'channel', channel_id: inner.slice(1).split('|')[0] ?? '', ...s };
  if (inner.startsWith('!subteam^'))
    return { type: 'usergroup', usergroup_id: inner.slice('!subteam^'.length).split('|')[0] ?? '', ...s };
  const bar = inner.indexOf('|');
  const url = unentity(bar >= 0 ? inner.slice(0, bar) : inner).replace(/%7C/g, '|');
  if (!/^https?:\/\//.test(url)) return undefined;
  const text = bar >= 0 ? unentity(inner.slice(bar + 1)) : undefined;
  return { type: 'link', url, ...(text ? { text } : {}), ...s };
}

/** One line of mrkdwn as rich-text elements; undefined when it holds something not converted. */
export function lineElements(line: string, style: Style = {}): Element[] | undefined {
  if (line.includes('```')) return undefined;
  const mrkdwn = hold(line);
  const out: Element[] = [];
  const text = (t: string, s: Style) => {
    const value = unentity(t);
    if (value) out.push({ type: 'text', text: value, ...(Object.keys(s).length > 0 ? { style: s } : {}) });
  };
  let last = 0;
  for (const m of mrkdwn.matchAll(TOKEN)) {
    text(mrkdwn.slice(last, m.index), style);
    last = m.index + m[0].length;
    if (m[1] !== undefined) {
      const element = angle(m[1], style);
      if (!element) return undefined;
      out.push(element);
    } else if (m[2] !== undefined) text(m[2], { ...style, code: true });
    else {
      const inner = lineElements(m[3] ?? m[4] ?? '', {
        ...style,
        ...(m[3] ? { bold: true } : { italic: true }),
      });
      if (!inner) return undefined;
      out.push(...inner);
    }
  }
  text(mrkdwn.slice(last), style);
  if (/[<>]/.test(mrkdwn.replace(TOKEN, ''))) return undefined;
  return out;
}

/** The items of a run of bullet lines (a line not starting with `• ` continues the item above it). */
function listBlock(lines: string[]): Block | undefined {
  const items: types.RichTextSection[] = [];
  for (const line of lines) {
    const bullet = BULLET.test(line);
    const elements = lineElements(bullet ? line.replace(BULLET, '') : line.trimStart());
    if (!elements) return undefined;
    const last = items.at(-1);
    if (bullet || !last) items.push({ type: 'rich_text_section', elements });
    else last.elements.push({ type: 'text', text: '\n' }, ...elements);
  }
  return {
    type: 'rich_text',
    elements: [{ type: 'rich_text_list', style: 'bullet', elements: items }],
  };
}

/**
 * A piece of section mrkdwn as blocks: runs of at least two bullet lines as `rich_text` lists, the rest as
 * mrkdwn sections; undefined when there is no such run (the caller keeps its one section).
 */
export function withLists(mrkdwn: string): Block[] | undefined {
  const lines = mrkdwn.split('\n');
  const runs: { list: boolean; lines: string[] }[] = [];
  for (const line of lines) {
    const list = BULLET.test(line) || (/^\s+\S/.test(line) && runs.at(-1)?.list === true);
    const last = runs.at(-1);
    if (last && last.list === list) last.lines.push(line);
    else runs.push({ list, lines: [line] });
  }
  if (!runs.some((r) => r.list && r.lines.filter((l) => BULLET.test(l)).length >= 2)) return undefined;
  const blocks: Block[] = [];
  for (const run of runs) {
    const list =
      run.list && run.lines.filter((l) => BULLET.test(l)).length >= 2 ? listBlock(run.lines) : undefined;
    if (list) blocks.push(list);
    else {
      const text = run.lines.join('\n');
      if (text.trim()) blocks.push({ type: 'section', text: { type: 'mrkdwn', text } });
    }
  }
  return blocks;
}

/**
 * A quoted excerpt (a video's script) as a `rich_text_quote` under its bold label; undefined when the
 * conversion does not take it (the caller keeps its mrkdwn section).
 */
export function quoteBlocks(label: string, mrkdwn: string): Block[] | undefined {
  const elements: Element[] = [];
  for (const [i, line] of mrkdwn.split('\n').entries()) {
    const converted = lineElements(line);
    if (!converted) return undefined;
    if (i > 0) elements.push({ type: 'text', text: '\n' });
    elements.push(...converted);
  }
  if (elements.length === 0) return undefined;
  return [
    { type: 'section', text: { type: 'mrkdwn', text: `*${label}*` } },
    { type: 'rich_text', elements: [{ type: 'rich_text_quote', elements }] },
  ];
}
