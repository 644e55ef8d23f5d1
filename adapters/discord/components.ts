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
 * The sections are laid out in `components/sections.ts`, buttons and selects in `components/controls.ts`, from
 * the pieces in `components/parts.ts`.
 *
 * Messages posted before V2 (embeds) are updated in their old shape when a click answers them (embeds.ts); the
 * outbox's channel edits upgrade them (sender.ts).
 */
import {
  type APIAllowedMentions,
  type APIComponentInContainer,
  type APIContainerComponent,
  type APIEmbed,
  type APIMediaGalleryItem,
  type APIMessageTopLevelComponent,
  type APITextDisplayComponent,
  ButtonStyle,
  ComponentType,
  MessageFlags,
  SeparatorSpacingSize,
} from 'discord.js';
import type { Card, Confirm, Control, Table, Tone } from '../../src/core/index.js';
import { chartText, fitTableLines, progressBar, say } from '../../src/core/index.js';
import { type ActionRow, type ControlContext, renderControl, rowsOf } from './components/controls.js';
import { componentCount, EMPTY, fieldLines, galleryItem, isWebUrl, textDisplay } from './components/parts.js';
import { fitSections, sectionParts } from './components/sections.js';
import { dismissId } from './custom-id.js';
import { chartFilename } from './files.js';
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

export function progressLine(card: Card): string | undefined {
  if (!card.progress) return undefined;
  const percent = Number.isFinite(card.progress.percent) ? card.progress.percent : 0;
  return card.progress.label?.trim() ? toDiscord(card.progress.label.trim()) : progressBar(percent);
}

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

/** The rendered video (a gallery plays an MP4 in place) and the card's image. */
function mediaOf(card: Card): APIMediaGalleryItem[] {
  const items: APIMediaGalleryItem[] = [];
  if (card.video && isWebUrl(card.video.url)) items.push(galleryItem(card.video.url, card.video.alt));
  if (card.image && isWebUrl(card.image.url)) items.push(galleryItem(card.image.url, card.image.alt));
  return items;
}

/**
 * A table as one bulleted line per row (Discord draws no tables), as many whole rows as leave the card's
 * other text room, then how many more there are.
 */
function tableText(table: Table): string {
  const { lines, left } = fitTableLines(table, { rows: Infinity, characters: DISCORD.tableText });
  const more = left > 0 ? [say('table-more-rows', { count: left })] : [];
  return toDiscord([...lines.map((line) => `• ${line}`), ...more].join('\n'));
}

/**
 * The card's charts, each a PNG attached with the message (files.ts draws them) and shown in a media gallery
 * with its numbers as the alt text.
 */
const chartsOf = (card: Card): APIMediaGalleryItem[] =>
  (card.charts ?? [])
    .slice(0, DISCORD.chartsPerCard)
    .map((chart, i) => galleryItem(`attachment://${chartFilename(i)}`, chartText(chart)));

export function renderCard(card: Card, memory: RenderMemory): CardPayload {
  const ctx: ControlContext = { memory, taken: new Set() };
  const { gallery, blocks } = sectionParts(card.sections ?? [], ctx);
  const head: APIComponentInContainer[] = [textDisplay(header(card))];
  if (card.fields?.length) head.push(textDisplay(fieldLines(card.fields)));
  const charts = chartsOf(card);
  if (charts.length > 0) head.push({ type: ComponentType.MediaGallery, items: charts });
  if (card.table?.rows.length) head.push(textDisplay(tableText(card.table)));
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
