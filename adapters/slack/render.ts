/**
 * Neutral cards → Block Kit (https://docs.slack.dev/reference/block-kit/blocks). Every documented limit
 * is respected by cutting gracefully rather than letting Slack reject the message: 50 blocks per message
 * (100 in a view), 3000 characters per section text, 150 per header, 10 fields per section (2000 each),
 * 25 elements per actions block, 75 per button label, 2000 per button value, 100 options per select.
 */
import type { types } from '@slack/bolt';
import type { Card, Control, Field, Progress, Section, Tone } from '../../src/core/index.js';
import { chartText, link, literal, sectionWords } from '../../src/core/index.js';
import { CLASSIC, type NativeBlock } from './block-support.js';
import { carouselBlock, chartBlocks, tableBlocks } from './render-data.js';
import { actionBlocks, type Block, imageBlock, imageElement, LIMITS, textSections } from './render-parts.js';
import { quoteBlocks } from './rich-text.js';

export {
  buttonElement,
  decodeActionId,
  encodeActionId,
  LIMITS,
  LINK_ACTION,
  OPEN_FORM_ACTION,
  option,
  plain,
} from './render-parts.js';

import {
  notifyMentions,
  toFallback,
  toMrkdwn,
  toPlain,
  toPlainMrkdwn,
  truncate,
  truncateMrkdwn,
} from './text.js';

/** Slack has no card colour outside legacy attachments: an emoji before the title says the tone. */
const TONE_EMOJI: Record<Tone, string> = {
  neutral: '',
  info: ':information_source:',
  progress: ':hourglass_flowing_sand:',
  success: ':white_check_mark:',
  warning: ':warning:',
  danger: ':x:',
};

export interface SlackMessage {
  text: string;
  blocks: Block[];
}

export interface BlockOptions {
  /** Block budget: 50 in a message (default), less when stacking cards in a view. */
  maxBlocks?: number;
  /** Drop buttons and selects (the answer leading an App Home). Link buttons stay. */
  withoutActions?: boolean;
  /** Stacked with other cards (App Home): a section's image sits beside its text, as a thumbnail. */
  compact?: boolean;
  /**
   * The newest block types to use (block-support.ts): a carousel for a card's peer sections, data tables,
   * charts. Without them (the default) the same content goes in the classic blocks.
   */
  native?: ReadonlySet<NativeBlock>;
}

/** The label of a rendered video's link button. */
export const WATCH_LABEL = 'Watch / Download MP4';

/** The card without its images (a Slack refusal of the blocks is most often an image it cannot fetch). */
export function withoutImages(card: Card): Card {
  const { image: _image, ...rest } = card;
  if (rest.video?.poster) {
    const { poster: _poster, ...video } = rest.video;
    rest.video = video;
  }
  if (!rest.sections) return rest;
  return { ...rest, sections: rest.sections.map(({ image: _i, ...section }) => section) };
}

/** A card as a message: blocks plus the plain fallback `text`. */
export function cardToMessage(card: Card, options: BlockOptions = {}): SlackMessage {
  return { text: fallbackText(card), blocks: cardToBlocks(card, options) };
}

/**
 * The message's `text`: Slack parses it as mrkdwn, so it is escaped like the blocks. It starts with the
 * card's `notify` mentions: they are what pings (the approvers of an approval card).
 */
export function fallbackText(card: Card): string {
  const ping = card.notify?.length ? notifyMentions(card.notify) : '';
  const charts = (card.charts ?? []).map((chart) => toFallback(literal(chartText(chart))));
  const parts = [toFallback(card.title), card.text ? toFallback(card.text) : '', ...charts].filter(Boolean);
  const body = truncateMrkdwn(parts.join('\n'), LIMITS.fallbackText - ping.length - 1);
  return ping ? `${ping} ${body}` : body;
}

export function cardToBlocks(card: Card, options: BlockOptions = {}): Block[] {
  const max = options.maxBlocks ?? LIMITS.messageBlocks;
  const counter = { n: 0 };
  const head: Block[] = [titleBlock(card)];
  if (card.text) head.push(...textSections(card.text));
  if (card.fields?.length) head.push(...fieldSections(card.fields));
  if (card.charts?.length) head.push(...chartBlocks(card.charts, options.native ?? CLASSIC));
  if (card.table) head.push(...tableBlocks(card.table, options.native ?? CLASSIC));
  if (card.image) head.push(imageBlock(card.image));
  // The rendered video: its poster as a preview (unless it is the card's image already) and a link button.
  const poster = card.video?.poster;
  if (card.video && poster && poster !== card.image?.url)
    head.push(imageBlock({ url: poster, alt: card.video.alt }, WATCH_LABEL));
  if (card.progress) head.push(progressBlock(card.progress));

  const carousel = card.carousel ? carouselBlock(card.sections ?? [], counter, options) : undefined;
  const groups = carousel
    ? [[carousel]]
    : (card.sections ?? []).map((s) => sectionBlocks(s, counter, options));

  const tail: Block[] = [];
  const watch: Control[] = card.video ? [{ kind: 'link', label: WATCH_LABEL, url: card.video.url }] : [];
  const controls = actionBlocks([...watch, ...(card.controls ?? [])], counter, options);
  tail.push(...controls);
  if (card.context) tail.push(contextBlock(card.context));

  return fitToBudget({ head, groups, tail, max });
}

/** A card's blocks: the head (title to progress), one group per section, the tail (controls and context). */
interface CardParts {
  head: Block[];
  groups: Block[][];
  tail: Block[];
}

/**
 * Keeps the title, text and the card's own buttons; when over budget, later sections go first (with an
 * ellipsis line saying something was left out), then the end of the head.
 */
function fitToBudget({ head, groups, tail, max }: CardParts & { max: number }): Block[] {
  const total = head.length + groups.reduce((n, g) => n + g.length, 0) + tail.length;
  if (total <= max) return [...head, ...groups.flat(), ...tail];
  const kept: Block[] = [];
  // One block for the ellipsis line.
  let budget = max - head.length - tail.length - 1;
  for (const group of groups) {
    if (group.length > budget) break;
    kept.push(...group);
    budget -= group.length;
  }
  const ellipsis: Block = { type: 'context', elements: [{ type: 'mrkdwn', text: '…' }] };
  const blocks = [...head, ...kept, ellipsis, ...tail];
  if (blocks.length <= max) return blocks;
  // A pathological head (hundreds of fields): keep its start, the ellipsis and the tail.
  const room = Math.max(1, max - tail.length - 1);
  return [...head.slice(0, room), ellipsis, ...tail].slice(0, max);
}

function titleBlock(card: Card): Block {
  const emoji = TONE_EMOJI[card.tone ?? 'neutral'];
  const title = toPlain(card.title);
  if (card.url) {
    // A header cannot link: a bold section title can.
    const text = `${emoji ? `${emoji} ` : ''}*${toMrkdwn(link(title, card.url))}*`;
    return { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(text, LIMITS.sectionText) } };
  }
  return {
    type: 'header',
    text: {
      type: 'plain_text',
      text: truncate(`${emoji ? `${emoji} ` : ''}${title}`, LIMITS.header),
      emoji: true,
    },
  };
}

const fieldText = (field: Field): string =>
  truncateMrkdwn(`*${toPlainMrkdwn(field.label)}*\n${toMrkdwn(field.value)}`, LIMITS.fieldText);

/** Field labels whose value is an excerpt of what the member wrote. */
const SCRIPT_LABELS: ReadonlySet<string> = new Set(['Script', 'Description', 'Caption']);

function scriptQuote(field: Field): Block[] | undefined {
  const text = toMrkdwn(field.value);
  return text.length <= LIMITS.sectionText ? quoteBlocks(toPlainMrkdwn(field.label), text) : undefined;
}

/**
 * Short fields sit two by two in `fields` (at most 10 per section); a long field gets a section of its own,
 * since Slack's fields column is narrow.
 */
function fieldSections(fields: Field[]): Block[] {
  const blocks: Block[] = [];
  let run: types.MrkdwnElement[] = [];
  const flush = () => {
    if (run.length > 0) blocks.push({ type: 'section', fields: run });
    run = [];
  };
  for (const field of fields) {
    if (field.short) {
      run.push({ type: 'mrkdwn', text: fieldText(field) });
      if (run.length === LIMITS.fieldsPerSection) flush();
      continue;
    }
    flush();
    // A script excerpt reads as a quote of what the member wrote.
    const quote = SCRIPT_LABELS.has(toPlain(field.label)) ? scriptQuote(field) : undefined;
    if (quote) {
      blocks.push(...quote);
      continue;
    }
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: truncateMrkdwn(`*${toPlainMrkdwn(field.label)}*\n${toMrkdwn(field.value)}`, LIMITS.sectionText),
      },
    });
  }
  flush();
  return blocks;
}

/** A text bar (Slack has no native one); the core's label already carries one when it starts with it. */
export function progressText(progress: Progress): string {
  const percent = Number.isFinite(progress.percent) ? Math.max(0, Math.min(100, progress.percent)) : 0;
  const label = progress.label ?? '';
  if (/^[▓░█▒]/u.test(label)) return label;
  const filled = Math.round(percent / 10);
  const bar = `${'▓'.repeat(filled)}${'░'.repeat(10 - filled)} ${Math.round(percent)}%`;
  return label ? `${bar} · ${label}` : bar;
}

function progressBlock(progress: Progress): Block {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncateMrkdwn(toMrkdwn(progressText(progress)), LIMITS.sectionText) },
  };
}

function sectionBlocks(section: Section, counter: { n: number }, options: BlockOptions): Block[] {
  const blocks: Block[] = [{ type: 'divider' }];
  const body = sectionWords(section);
  const texts = body ? textSections(body) : [];
  const first = texts[0];
  // Stacked on a dashboard, a video's thumbnail sits beside its text.
  const beside = options.compact && section.image && first?.type === 'section' ? section.image : undefined;
  if (first?.type === 'section' && beside) first.accessory = imageElement(beside);
  blocks.push(...texts);
  if (section.fields?.length) blocks.push(...fieldSections(section.fields));
  // Thumbnails are compared side by side by eye: a full image block, not a small accessory.
  if (section.image && !beside) blocks.push(imageBlock(section.image));
  blocks.push(...actionBlocks(section.controls ?? [], counter, options));
  return blocks.length > 1 ? blocks : [];
}

function contextBlock(context: string): Block {
  return {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: truncateMrkdwn(toMrkdwn(context), LIMITS.contextText) }],
  };
}
