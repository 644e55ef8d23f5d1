/**
 * A neutral `Card` → one Discord Components V2 message (flag IS_COMPONENTS_V2, no `content`, no `embeds`): a
 * container with the tone's accent colour holding, in order,
 *
 * - the title (a `###` heading, linked when the card has a URL), text and progress in one text display;
 * - the fields as `**Label**: value` lines in one text display (short fields side by side, `·` between);
 * - a media gallery with the rendered video (playable in the client) and the card's image;
 * - the sections: when they carry pictures (thumbnail variants), ONE media gallery with all of them, then each
 *   section's text in a Section whose accessory is its first button ("Use this"), or a plain text display;
 *   a lone pictured section without controls shows its picture as the section's thumbnail instead;
 * - the card's controls as action rows, then the context as small text (`-#`).
 *
 * Only the card's `notify` list pings: it is a text display above the container, and `allowed_mentions` names
 * exactly those people (mentions in the card's own text are not allowed to ping anyone else).
 *
 * Discord's V2 limits (limits.ts): 40 components in all, 4000 characters across the text displays, 10 gallery
 * items, a section's accessory a button or a thumbnail. Sections that do not fit the 40 are merged into one
 * text display at the end of the sections (their text kept, their buttons left out); texts are cut with "…",
 * the longest first.
 *
 * Messages posted before V2 (embeds) are updated in their old shape when a click answers them (embeds.ts); the
 * outbox's channel edits upgrade them (sender.ts).
 */
import {
  type APIActionRowComponent,
  type APIAllowedMentions,
  type APIButtonComponent,
  type APIComponentInContainer,
  type APIComponentInMessageActionRow,
  type APIContainerComponent,
  type APIEmbed,
  type APIMediaGalleryComponent,
  type APIMediaGalleryItem,
  type APIMessageTopLevelComponent,
  type APISectionComponent,
  type APIStringSelectComponent,
  type APITextDisplayComponent,
  ButtonStyle,
  ComponentType,
  MessageFlags,
  SeparatorSpacingSize,
} from 'discord.js';
import type {
  Button,
  Card,
  Confirm,
  Control,
  Field,
  Image,
  Section,
  Select,
  Tone,
} from '../../src/core/cards.js';
import { progressBar } from '../../src/core/live/video-card.js';
import { literal } from '../../src/core/text.js';
import { actionId, dismissId, stashedId } from './custom-id.js';
import { clip, DISCORD } from './limits.js';
import { allowedMentions, notifyContent, toDiscord } from './text.js';

/** Discord's palette, by the core's tone. */
export const TONE_COLORS: Readonly<Record<Tone, number>> = {
  neutral: 0x99aab5,
  info: 0x5865f2,
  progress: 0xfee75c,
  success: 0x57f287,
  warning: 0xe67e22,
  danger: 0xed4245,
};

export type ActionRow = APIActionRowComponent<APIComponentInMessageActionRow>;
export type Interactive = APIButtonComponent | APIStringSelectComponent;

/** A Components V2 message: components only, with the flag (interaction answers add EPHEMERAL to it). */
export interface CardPayload {
  flags: MessageFlags.IsComponentsV2;
  components: APIMessageTopLevelComponent[];
  /** Who the notify text display may ping, nobody else. */
  allowed_mentions: APIAllowedMentions;
}

/** A message in the shape from before V2: embeds and up to five action rows (embeds.ts, form launchers). */
export interface EmbedPayload {
  /** The mentions of the card's `notify` list: the only part of a message that pings. */
  content?: string;
  embeds: APIEmbed[];
  components: ActionRow[];
  /** Sent with every message: who `content` may ping, nobody else. */
  allowed_mentions: APIAllowedMentions;
}

export type MessagePayload = CardPayload | EmbedPayload;

export const isComponentsV2 = (payload: MessagePayload): payload is CardPayload =>
  'flags' in payload && (payload.flags & MessageFlags.IsComponentsV2) !== 0;

/** An action that did not fit a `custom_id`, kept in the store under a key (memory.ts). */
export interface KeptAction {
  action: string;
  value: string;
  confirm?: Confirm;
}

/** Where the renderer keeps what a `custom_id` cannot carry (see `memory.ts`). */
export interface RenderMemory {
  keepAction(entry: KeptAction): string;
  keepConfirm(action: string, value: string, confirm: Confirm): void;
  /** A select option value longer than Discord allows; returns a short stand-in. */
  keepValue(value: string): string;
}

const EMPTY = '\u200b';
export const isWebUrl = (url: string) => /^https?:\/\/\S+$/i.test(url);

export function progressLine(card: Card): string | undefined {
  if (!card.progress) return undefined;
  const percent = Number.isFinite(card.progress.percent) ? card.progress.percent : 0;
  return card.progress.label?.trim() ? toDiscord(card.progress.label.trim()) : progressBar(percent);
}

const textDisplay = (content: string): APITextDisplayComponent => ({
  type: ComponentType.TextDisplay,
  content: content || EMPTY,
});

const SEPARATOR: APIComponentInContainer = {
  type: ComponentType.Separator,
  divider: true,
  spacing: SeparatorSpacingSize.Small,
};

function header(card: Card): string {
  const title = clip(toDiscord(card.title.trim()).replace(/\s*\n\s*/g, ' '), DISCORD.cardTitle) || EMPTY;
  const linked = card.url && isWebUrl(card.url) ? `[${title}](${card.url.replace(/\)/g, '%29')})` : title;
  const text = card.text?.trim() ? toDiscord(card.text.trim()) : undefined;
  const body = [text, progressLine(card)].filter(Boolean).join('\n\n');
  return body ? `### ${linked}\n${body}` : `### ${linked}`;
}

/** Fields as `**Label**: value` lines; consecutive short one-line fields share a line. */
export function fieldLines(fields: readonly Field[]): string {
  const lines: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) lines.push(run.join(' · '));
    run = [];
  };
  for (const field of fields) {
    const label = clip(toDiscord(field.label.trim()), DISCORD.fieldName);
    const value = clip(toDiscord(field.value.trim()), DISCORD.fieldValue);
    const line = label ? `**${label}**: ${value}` : value;
    if (field.short && !line.includes('\n')) run.push(line);
    else {
      flush();
      lines.push(line);
    }
  }
  flush();
  return lines.join('\n');
}

/** The context as small text, each line `-# `. */
function contextLines(context: string): string {
  return toDiscord(context.trim())
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => `-# ${line}`)
    .join('\n');
}

/** The label of a rendered video's link button. */
export const DOWNLOAD_LABEL = 'Download MP4';

/**
 * The card's own controls, led by the rendered video's one link (it plays in the gallery; the link downloads
 * it, as Slack's Watch / Download button does).
 */
export const cardControls = (card: Card): Control[] => [
  ...(card.video && isWebUrl(card.video.url)
    ? [{ kind: 'link', label: DOWNLOAD_LABEL, url: card.video.url } satisfies Control]
    : []),
  ...(card.controls ?? []),
];

const galleryItem = (url: string, alt: string): APIMediaGalleryItem => ({
  media: { url },
  ...(alt.trim() ? { description: clip(alt.trim(), DISCORD.mediaDescription) } : {}),
});

/** The rendered video (a gallery plays an MP4 in place) and the card's image. */
function mediaOf(card: Card): APIMediaGalleryItem[] {
  const items: APIMediaGalleryItem[] = [];
  if (card.video && isWebUrl(card.video.url)) items.push(galleryItem(card.video.url, card.video.alt));
  if (card.image && isWebUrl(card.image.url)) items.push(galleryItem(card.image.url, card.image.alt));
  return items;
}

/** Components Discord counts against a message's 40: every component, nested ones included. */
export function componentCount(components: readonly { type: number }[]): number {
  return components.reduce((sum, c) => {
    const o = c as { components?: { type: number }[]; accessory?: { type: number } };
    return sum + 1 + componentCount(o.components ?? []) + (o.accessory ? 1 : 0);
  }, 0);
}

export function renderCard(card: Card, memory: RenderMemory): CardPayload {
  const ctx: ControlContext = { memory, taken: new Set() };
  const { gallery, blocks } = sectionParts(card.sections ?? [], ctx);
  const head: APIComponentInContainer[] = [textDisplay(header(card))];
  if (card.fields?.length) head.push(textDisplay(fieldLines(card.fields)));
  const media = mediaOf(card);
  if (media.length > 0) head.push({ type: ComponentType.MediaGallery, items: media });
  const middle: APIComponentInContainer[] = [];
  if (gallery || blocks.length > 0) middle.push(SEPARATOR);
  if (gallery) middle.push(gallery);
  const rendered = cardControls(card).flatMap((c) => renderControl(c, ctx) ?? []);
  const tail: APIComponentInContainer[] = rowsOf(rendered).slice(0, DISCORD.actionRows);
  if (card.context?.trim()) tail.push(textDisplay(contextLines(card.context)));

  const notify = notifyContent(card.notify);
  const fixed = 1 + (notify ? 1 : 0) + componentCount([...head, ...middle, ...tail]);
  middle.push(...fitSections(blocks, DISCORD.messageComponents - fixed));
  const container: APIContainerComponent = {
    type: ComponentType.Container,
    accent_color: TONE_COLORS[card.tone ?? 'neutral'] ?? TONE_COLORS.neutral,
    components: [...head, ...middle, ...tail],
  };
  const components: APIMessageTopLevelComponent[] = notify ? [textDisplay(notify), container] : [container];
  fitText(components);
  return {
    flags: MessageFlags.IsComponentsV2,
    components,
    allowed_mentions: allowedMentions(card.notify),
  };
}

/** One section as it sits in the container, and its text (kept when the section does not fit). */
interface Block {
  components: APIComponentInContainer[];
  text: string;
}

/**
 * Pictured sections (thumbnail variants) share one gallery, in their order, and each keeps its text and
 * button; a lone pictured section without controls shows its picture as a thumbnail beside its text.
 */
function sectionParts(
  sections: readonly Section[],
  ctx: ControlContext,
): { gallery?: APIMediaGalleryComponent; blocks: Block[] } {
  const pictured = sections.filter((s) => s.image && isWebUrl(s.image.url));
  const lone = pictured.length === 1 && !pictured[0]?.controls?.length ? pictured[0] : undefined;
  const inGallery = lone && sectionText(lone) ? [] : pictured.slice(0, DISCORD.galleryItems);
  const items = inGallery.flatMap((s) => (s.image ? [galleryItem(s.image.url, s.image.alt)] : []));
  const blocks = sections.map((s) => sectionBlock(s, { ctx, thumbnail: s === lone && !inGallery.length }));
  return {
    ...(items.length > 0 ? { gallery: { type: ComponentType.MediaGallery, items } } : {}),
    blocks: blocks.filter((b) => b.components.length > 0),
  };
}

function sectionText(section: Section): string {
  const text = section.text?.trim() ? toDiscord(section.text.trim()) : '';
  const fields = section.fields?.length ? fieldLines(section.fields) : '';
  return [text, fields].filter(Boolean).join('\n');
}

function sectionBlock(section: Section, how: { ctx: ControlContext; thumbnail: boolean }): Block {
  const controls = (section.controls ?? []).flatMap((c) => renderControl(c, how.ctx) ?? []);
  const words =
    sectionText(section) ||
    (controls.length > 0 && section.image ? toDiscord(literal(section.image.alt)) : '');
  const thumbnail = how.thumbnail && section.image ? thumbnailOf(section.image) : undefined;
  const first = thumbnail ? -1 : controls.findIndex((c) => c.type === ComponentType.Button);
  const accessory = thumbnail ?? (controls[first] as APIButtonComponent | undefined);
  const rest = controls.filter((_, i) => i !== first);
  const components: APIComponentInContainer[] = [];
  if (words && accessory) {
    const block: APISectionComponent = {
      type: ComponentType.Section,
      components: [textDisplay(words)],
      accessory,
    };
    components.push(block);
  } else if (words) components.push(textDisplay(words));
  else if (accessory && accessory.type === ComponentType.Button) rest.unshift(accessory);
  components.push(...rowsOf(rest));
  return { components, text: words };
}

const thumbnailOf = (image: Image) => ({
  type: ComponentType.Thumbnail as const,
  media: { url: image.url },
  ...(image.alt.trim() ? { description: clip(image.alt.trim(), DISCORD.mediaDescription) } : {}),
});

/** Sections in order while they fit `room` components; the rest as one text display (their words kept). */
function fitSections(blocks: readonly Block[], room: number): APIComponentInContainer[] {
  const kept: APIComponentInContainer[] = [];
  const overflow: string[] = [];
  let left = room;
  blocks.forEach((block, i) => {
    const cost = componentCount(block.components);
    const reserve = i < blocks.length - 1 ? 1 : 0;
    if (overflow.length === 0 && cost + reserve <= left) {
      kept.push(...block.components);
      left -= cost;
    } else if (block.text) overflow.push(block.text);
  });
  if (overflow.length > 0 && left >= 1) kept.push(textDisplay(overflow.join('\n\n')));
  return kept;
}

/**
 * The title of a card posted as V2 (its container's `###` heading, without a title link), read back from a
 * clicked message, e.g. to word a confirmation the adapter no longer remembers.
 */
export function titleOfComponents(components: readonly unknown[]): string | undefined {
  const container = components.find((c) => (c as { type?: number }).type === ComponentType.Container);
  const first = container ? textDisplays([container as { type: number }])[0] : undefined;
  const heading = first && /^### (.+)$/m.exec(first.content)?.[1];
  return heading ? (/^\[(.*)\]\(\S+\)$/.exec(heading)?.[1] ?? heading) : undefined;
}

/** Every text display of the message, nested ones included. */
export function textDisplays(components: readonly { type: number }[]): APITextDisplayComponent[] {
  return components.flatMap((c) => {
    if (c.type === ComponentType.TextDisplay) return [c as APITextDisplayComponent];
    const o = c as { components?: { type: number }[] };
    return textDisplays(o.components ?? []);
  });
}

/**
 * Fits the text displays into Discord's 4000 characters for a message: each into its own 4000 first, then the
 * longest shortened first (never below a readable floor).
 */
function fitText(components: readonly APIMessageTopLevelComponent[]): void {
  const texts = textDisplays(components);
  for (const t of texts) t.content = clip(t.content, DISCORD.textDisplayTotal);
  const size = () => texts.reduce((sum, t) => sum + [...t.content].length, 0);
  const FLOOR = 64;
  for (let over = size() - DISCORD.textDisplayTotal; over > 0; over = size() - DISCORD.textDisplayTotal) {
    const longest = texts.reduce<APITextDisplayComponent | undefined>(
      (best, t) => (t.content.length > FLOOR && t.content.length > (best?.content.length ?? 0) ? t : best),
      undefined,
    );
    if (!longest) break;
    const length = [...longest.content].length;
    longest.content = clip(longest.content, Math.max(FLOOR, length - Math.min(over, Math.ceil(length / 4))));
  }
}

/** Buttons five to a row; a select alone on its row. */
export function rowsOf(components: readonly Interactive[]): ActionRow[] {
  const rows: ActionRow[] = [];
  let buttons: APIButtonComponent[] = [];
  const flush = () => {
    if (buttons.length > 0) rows.push({ type: ComponentType.ActionRow, components: buttons });
    buttons = [];
  };
  for (const component of components) {
    if (component.type === ComponentType.StringSelect) {
      flush();
      rows.push({ type: ComponentType.ActionRow, components: [component] });
      continue;
    }
    buttons.push(component);
    if (buttons.length === DISCORD.buttonsPerRow) flush();
  }
  flush();
  return rows;
}

/** What rendering a card's controls shares: the memory of long values, and the custom ids already used. */
export interface ControlContext {
  memory: RenderMemory;
  taken: Set<string>;
}

/** A control as a button or select; undefined for a link Discord would refuse. */
export function renderControl(control: Control, { memory, taken }: ControlContext): Interactive | undefined {
  const label = clip(control.kind === 'select' ? '' : control.label, DISCORD.buttonLabel) || EMPTY;
  switch (control.kind) {
    case 'link':
      if (!isWebUrl(control.url) || control.url.length > DISCORD.linkUrl) return undefined;
      return { type: ComponentType.Button, style: ButtonStyle.Link, label, url: control.url };
    case 'button':
      return renderButton(control, { memory, taken }, label);
    case 'select':
      return renderSelect(control, { memory, taken });
  }
}

const STYLES = { primary: ButtonStyle.Primary, danger: ButtonStyle.Danger } as const;

function renderButton(button: Button, { memory, taken }: ControlContext, label: string): APIButtonComponent {
  const kind = button.confirm ? 'confirm' : 'action';
  if (button.confirm) memory.keepConfirm(button.action, button.value, button.confirm);
  const customId =
    actionId({ kind, action: button.action, value: button.value }, taken) ??
    stashedId(
      memory.keepAction({
        action: button.action,
        value: button.value,
        ...(button.confirm ? { confirm: button.confirm } : {}),
      }),
    );
  return {
    type: ComponentType.Button,
    style: button.style ? STYLES[button.style] : ButtonStyle.Secondary,
    label,
    custom_id: customId,
  };
}

function renderSelect(select: Select, { memory, taken }: ControlContext): APIStringSelectComponent {
  const customId =
    actionId({ kind: 'action', action: select.action, value: '' }, taken) ??
    stashedId(memory.keepAction({ action: select.action, value: '' }));
  const options = select.options.slice(0, DISCORD.selectOptions).map((o) => ({
    label: clip(o.label, DISCORD.selectOptionLabel) || EMPTY,
    value: o.value.length <= DISCORD.selectOptionValue ? o.value : memory.keepValue(o.value),
    ...(o.description ? { description: clip(o.description, DISCORD.selectOptionDescription) } : {}),
    ...(o.value === select.initial ? { default: true } : {}),
  }));
  return {
    type: ComponentType.StringSelect,
    custom_id: customId,
    placeholder: clip(select.placeholder, DISCORD.selectPlaceholder),
    min_values: 1,
    max_values: 1,
    options,
  };
}

/**
 * The "are you sure?" step of a destructive button: its confirm wording with the real action as a danger
 * button, and the deny label dismissing the question, on the same row.
 */
export function confirmPayload(
  confirm: Confirm,
  action: { action: string; value: string },
  memory: RenderMemory,
): CardPayload {
  const payload = renderCard(
    {
      title: confirm.title,
      tone: 'danger',
      text: confirm.text,
      controls: [
        {
          kind: 'button',
          action: action.action,
          value: action.value,
          label: confirm.confirm,
          style: 'danger',
        },
      ],
    },
    memory,
  );
  const container = payload.components.find((c) => c.type === ComponentType.Container);
  const row = container?.components.find((c) => c.type === ComponentType.ActionRow);
  row?.components.push({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label: clip(confirm.deny, DISCORD.buttonLabel) || EMPTY,
    custom_id: dismissId(),
  });
  return payload;
}
