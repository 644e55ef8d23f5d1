/**
 * Neutral cards → Block Kit (https://docs.slack.dev/reference/block-kit/blocks). Every documented limit
 * is respected by cutting gracefully rather than letting Slack reject the message: 50 blocks per message
 * (100 in a view), 3000 characters per section text, 150 per header, 10 fields per section (2000 each),
 * 25 elements per actions block, 75 per button label, 2000 per button value, 100 options per select.
 */
import type { types } from '@slack/bolt';
import type {
  Button,
  Card,
  Confirm,
  Control,
  Field,
  Image,
  Progress,
  Section,
  Tone,
} from '../../src/core/index.js';
import { link } from '../../src/core/index.js';
import { quoteBlocks, withLists } from './rich-text.js';
import {
  notifyMentions,
  splitMrkdwn,
  toFallback,
  toMrkdwn,
  toPlain,
  toPlainMrkdwn,
  truncate,
  truncateMrkdwn,
} from './text.js';

type Block = types.KnownBlock;
type ActionElement = types.Button | types.StaticSelect;

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  header: 150,
  fieldsPerSection: 10,
  fieldText: 2000,
  actionsPerBlock: 25,
  buttonLabel: 75,
  buttonValue: 2000,
  actionId: 255,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  altText: 2000,
  imageUrl: 3000,
  contextText: 3000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** `text` beside blocks is the notification and screen-reader fallback. */
  fallbackText: 3000,
} as const;

/** Slack has no card colour outside legacy attachments: an emoji before the title says the tone. */
const TONE_EMOJI: Record<Tone, string> = {
  neutral: '',
  info: ':information_source:',
  progress: ':hourglass_flowing_sand:',
  success: ':white_check_mark:',
  warning: ':warning:',
  danger: ':x:',
};

/** Action ids are `<core action>|<n>`: Slack wants them unique per block, the core only knows its name. */
const SEPARATOR = '|';
/** Link buttons and the adapter's own buttons start with '-', which no core action does. */
export const LINK_ACTION = '-link';
export const OPEN_FORM_ACTION = '-open-form';

export const encodeActionId = (action: string, n: number): string =>
  truncate(action, LIMITS.actionId - 6) + SEPARATOR + String(n);

/** The core action of an action id built by `encodeActionId` (or the id itself). */
export function decodeActionId(actionId: string): string {
  const at = actionId.lastIndexOf(SEPARATOR);
  return at > 0 && /^\d+$/.test(actionId.slice(at + 1)) ? actionId.slice(0, at) : actionId;
}

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
  const parts = [toFallback(card.title), card.text ? toFallback(card.text) : ''].filter(Boolean);
  const body = truncateMrkdwn(parts.join('\n'), LIMITS.fallbackText - ping.length - 1);
  return ping ? `${ping} ${body}` : body;
}

export function cardToBlocks(card: Card, options: BlockOptions = {}): Block[] {
  const max = options.maxBlocks ?? LIMITS.messageBlocks;
  const counter = { n: 0 };
  const head: Block[] = [titleBlock(card)];
  if (card.text) head.push(...textSections(card.text));
  if (card.fields?.length) head.push(...fieldSections(card.fields));
  if (card.image) head.push(imageBlock(card.image));
  // The rendered video: its poster as a preview (unless it is the card's image already) and a link button.
  const poster = card.video?.poster;
  if (card.video && poster && poster !== card.image?.url)
    head.push(imageBlock({ url: poster, alt: card.video.alt }, WATCH_LABEL));
  if (card.progress) head.push(progressBlock(card.progress));

  const groups = (card.sections ?? []).map((s) => sectionBlocks(s, counter, options));

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

/** Card text as mrkdwn sections; its bullet lists as `rich_text` lists (rich-text.ts). */
function textSections(text: string): Block[] {
  return splitMrkdwn(toMrkdwn(text), LIMITS.sectionText).flatMap(
    (piece): Block[] => withLists(piece) ?? [{ type: 'section', text: { type: 'mrkdwn', text: piece } }],
  );
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

function imageBlock(image: Image, title?: string): Block {
  return {
    type: 'image',
    image_url: image.url.slice(0, LIMITS.imageUrl),
    alt_text: truncate(toPlain(image.alt) || 'image', LIMITS.altText),
    ...(title ? { title: plain(title, 2000) } : {}),
  };
}

function imageElement(image: Image): types.ImageElement {
  return {
    type: 'image',
    image_url: image.url.slice(0, LIMITS.imageUrl),
    alt_text: truncate(toPlain(image.alt) || 'image', LIMITS.altText),
  };
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
  const texts = section.text ? textSections(section.text) : [];
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

function actionBlocks(controls: Control[], counter: { n: number }, options: BlockOptions): Block[] {
  const elements: ActionElement[] = [];
  for (const control of controls) {
    if (options.withoutActions && control.kind !== 'link') continue;
    const element = controlElement(control, counter.n++);
    if (element) elements.push(element);
  }
  const blocks: Block[] = [];
  for (let i = 0; i < elements.length; i += LIMITS.actionsPerBlock) {
    blocks.push({ type: 'actions', elements: elements.slice(i, i + LIMITS.actionsPerBlock) });
  }
  return blocks;
}

function controlElement(control: Control, n: number): ActionElement | undefined {
  switch (control.kind) {
    case 'button':
      return buttonElement(control, n);
    case 'link':
      return {
        type: 'button',
        action_id: encodeActionId(LINK_ACTION, n),
        text: plain(control.label, LIMITS.buttonLabel),
        url: control.url.slice(0, LIMITS.imageUrl),
      };
    case 'select': {
      const options = control.options.slice(0, LIMITS.selectOptions).map((o) => option(o.label, o.value));
      if (options.length === 0) return undefined;
      const initial = options.find((o) => o.value === control.initial);
      return {
        type: 'static_select',
        action_id: encodeActionId(control.action, n),
        placeholder: plain(control.placeholder, LIMITS.placeholder),
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
  }
}

export function buttonElement(button: Button, n: number): types.Button {
  return {
    type: 'button',
    action_id: encodeActionId(button.action, n),
    text: plain(button.label, LIMITS.buttonLabel),
    // A value Slack would refuse cannot be cut usefully (it carries ids): the core keeps values short.
    value: button.value.slice(0, LIMITS.buttonValue),
    ...(button.style ? { style: button.style } : {}),
    ...(button.confirm ? { confirm: confirmDialog(button.confirm, button.style === 'danger') } : {}),
  };
}

function confirmDialog(confirm: Confirm, danger: boolean): types.ConfirmationDialog {
  return {
    title: plain(confirm.title, LIMITS.confirmTitle),
    text: { type: 'plain_text', text: truncate(toPlain(confirm.text), LIMITS.confirmText) },
    confirm: plain(confirm.confirm, LIMITS.confirmButton),
    deny: plain(confirm.deny, LIMITS.confirmButton),
    ...(danger ? { style: 'danger' as const } : {}),
  };
}

export function option(label: string, value: string, description?: string): types.PlainTextOption {
  return {
    text: plain(label, LIMITS.optionText),
    value: value.slice(0, LIMITS.optionValue),
    ...(description ? { description: plain(description, LIMITS.optionText) } : {}),
  };
}

function contextBlock(context: string): Block {
  return {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: truncateMrkdwn(toMrkdwn(context), LIMITS.contextText) }],
  };
}

export const plain = (text: string, max: number): types.PlainTextElement => ({
  type: 'plain_text',
  text: truncate(toPlain(text), max) || ' ',
  emoji: true,
});
