/**
 * Reading Block Kit back the way a person reads it in Slack, for the approval scenarios' `ShownCard`:
 * the title from the header (or bold title section), every section, field and context line as plain text
 * (mrkdwn markers dropped, links shown by their label, entities undone, mentions kept as Slack writes them
 * so they compare with `mention()`), the buttons a person can press, and the first image.
 */
import type { ShownCard } from '../core/approvals/driver.js';

/** A button as Slack shows it, with the element's own ids (what a block_actions payload carries). */
export interface SlackButton {
  /** The core action (`approval.approve`), from an action id `approval.approve|3`. */
  action: string;
  actionId: string;
  blockId?: string;
  value: string;
  label: string;
  style?: string;
}

export interface ReadMessage {
  title: string;
  text: string;
  buttons: SlackButton[];
  image?: string;
}

interface TextObject {
  type?: string;
  text?: string;
}
/** A card of a carousel block. */
interface CarouselCard {
  block_id?: string;
  title?: TextObject;
  body?: TextObject;
  hero_image?: { image_url?: string };
  actions?: Record<string, unknown>[];
}

interface Block {
  type: string;
  block_id?: string;
  text?: TextObject;
  fields?: TextObject[];
  elements?: Record<string, unknown>[];
  image_url?: string;
}

/** Slack writes user, group and channel mentions as `<@U1>`, `<!subteam^S1>`, `<#C1>`: kept verbatim. */
const MENTION = /^(?:@[UW][A-Z0-9]+|!subteam\^[A-Z0-9]+|#[CGD][A-Z0-9]+)(?:\|[^>]*)?$/;

/** mrkdwn → the text a reader sees. */
export function mrkdwnText(mrkdwn: string): string {
  return (
    mrkdwn
      // Code fences and spans: the content shows, the backticks do not.
      .replace(/```\n?([\s\S]*?)\n?```/g, '$1')
      .replace(/`([^`\n]+)`/g, '$1')
      // Links show their label (or the URL); mentions stay as written.
      .replace(/<([^<>]+)>/g, (_whole, inner: string) => {
        if (MENTION.test(inner)) return `<${inner.split('|')[0]}>`;
        const bar = inner.indexOf('|');
        return bar >= 0 ? inner.slice(bar + 1) : inner;
      })
      // *bold*, _italic_, ~strike~ only as markers at word edges: `ap_123` or `2*3` are left alone.
      .replace(/(^|[^\w*])\*([^*\n]+)\*(?=[^\w*]|$)/g, '$1$2')
      .replace(/(^|[^\w])_([^_\n]+)_(?=[^\w]|$)/g, '$1$2')
      .replace(/(^|[^\w~])~([^~\n]+)~(?=[^\w~]|$)/g, '$1$2')
      // Zero-width spaces fence formatting characters a user typed: nobody sees them.
      .replace(/\u200b/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  );
}

/** A header's tone emoji (`:white_check_mark: Approved: …`) is decoration, not title. */
const withoutEmoji = (title: string): string => title.replace(/^(?::[a-z0-9_+-]+:\s*)+/, '');

const textOf = (t: TextObject | undefined): string =>
  t?.text === undefined ? '' : t.type === 'plain_text' ? t.text : mrkdwnText(t.text);

type RichElement = Record<string, unknown> & { type?: string; elements?: RichElement[] };

/** One rich-text element as a reader sees it; mentions as Slack writes them in mrkdwn. */
function richPiece(e: RichElement): string {
  switch (e.type) {
    case 'text':
      return String(e.text ?? '');
    case 'link':
      return String(e.text ?? e.url ?? '');
    case 'user':
      return `<@${String(e.user_id)}>`;
    case 'usergroup':
      return `<!subteam^${String(e.usergroup_id)}>`;
    case 'channel':
      return `<#${String(e.channel_id)}>`;
    case 'emoji':
      return e.unicode ? String.fromCodePoint(Number.parseInt(String(e.unicode), 16)) : `:${String(e.name)}:`;
    default:
      return (e.elements ?? []).map(richPiece).join('');
  }
}

/** A `rich_text` block as lines: list items as `• item`, sections and quotes as their text. */
function richText(elements: RichElement[]): string {
  return elements
    .map((e) =>
      e.type === 'rich_text_list'
        ? (e.elements ?? []).map((item) => `• ${richPiece(item)}`).join('\n')
        : richPiece(e),
    )
    .join('\n');
}

/** The message as read: `text` is the notification fallback, used when there are no blocks. */
export function readMessage(blocks: unknown[] | undefined, fallback = ''): ReadMessage {
  const list = (blocks ?? []) as Block[];
  if (list.length === 0) {
    const [title = '', ...rest] = fallback.split('\n');
    return { title, text: rest.join('\n'), buttons: [] };
  }
  const [first, ...others] = list;
  const titled = first?.type === 'header' || (first?.type === 'section' && !first.fields);
  const title = titled ? withoutEmoji(textOf(first?.text)).trim() : '';
  const lines: string[] = [];
  const buttons: SlackButton[] = [];
  let image: string | undefined;
  for (const block of titled ? others : list) {
    switch (block.type) {
      case 'header':
      case 'section':
        if (block.text) lines.push(textOf(block.text));
        for (const field of block.fields ?? []) lines.push(textOf(field));
        break;
      case 'context':
        for (const element of block.elements ?? []) lines.push(textOf(element as TextObject));
        break;
      case 'rich_text':
        lines.push(richText(block.elements ?? []));
        break;
      case 'image':
        image ??= block.image_url;
        break;
      case 'actions':
        for (const element of block.elements ?? []) {
          const button = readButton(element, block.block_id);
          if (button) buttons.push(button);
        }
        break;
      case 'data_table':
        // Each row reads as a line: its cells after one another.
        for (const row of ((block as { rows?: TableCellBlock[][] }).rows ?? []).slice(1))
          lines.push(row.map(tableCellText).join(' · '));
        break;
      case 'carousel':
        // Each card reads as a section: its title, its body, its picture, its buttons.
        for (const card of (block.elements ?? []) as CarouselCard[]) {
          lines.push(...[card.title, card.body].flatMap((t) => (t ? [textOf(t)] : [])));
          image ??= card.hero_image?.image_url;
          for (const element of card.actions ?? []) {
            const button = readButton(element, card.block_id);
            if (button) buttons.push(button);
          }
        }
        break;
    }
  }
  return { title, text: lines.filter(Boolean).join('\n'), buttons, ...(image ? { image } : {}) };
}

interface TableCellBlock {
  type: string;
  text?: string;
  elements?: unknown[];
}

/** A data table cell's words: raw text and numbers as written, rich text as its elements read. */
const tableCellText = (cell: TableCellBlock): string =>
  cell.type === 'rich_text' ? richText((cell.elements ?? []) as RichElement[]) : (cell.text ?? '');

/**
 * A button a person presses to act: not a link button (Slack opens the URL), not a select, not the
 * adapter's own controls (action ids starting with `-`).
 */
function readButton(element: Record<string, unknown>, blockId: string | undefined): SlackButton | undefined {
  const actionId = String(element.action_id ?? '');
  if (element.type !== 'button' || element.url !== undefined || actionId.startsWith('-')) return undefined;
  const at = actionId.lastIndexOf('|');
  return {
    action: at > 0 ? actionId.slice(0, at) : actionId,
    actionId,
    ...(blockId ? { blockId } : {}),
    value: String(element.value ?? ''),
    label: textOf(element.text as TextObject),
    ...(typeof element.style === 'string' ? { style: element.style } : {}),
  };
}

/** The scenario's view of a message; `message` names it for a later click. */
export function shownCard(read: ReadMessage, message: string): ShownCard {
  return {
    title: read.title,
    text: read.text,
    buttons: read.buttons.map((b) => ({ action: b.action, value: b.value, label: b.label, message })),
    ...(read.image ? { image: read.image } : {}),
    message,
  };
}
