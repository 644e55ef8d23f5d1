/**
 * A neutral `Card` → Discord embeds and message components, inside Discord's limits (limits.ts): the card is
 * the first embed (title, text, progress, fields, image, context as footer), each section an extra embed
 * (thumbnail variants with their image), controls become buttons and select menus in at most five rows.
 * Card markdown goes through `toDiscord` (text.ts: escapes, mention tokens). Text that does not fit is cut
 * with "…". Only the card's `notify` list pings: it is the message content, and `allowed_mentions` names
 * exactly those people.
 */
import {
  type APIActionRowComponent,
  type APIAllowedMentions,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Button, Card, Confirm, Control, Field, Select, Tone } from '../../src/core/cards.js';
import { progressBar } from '../../src/core/live/video-card.js';
import { actionId, dismissId, stashedId } from './custom-id.js';
import { clip, DISCORD } from './limits.js';
import { allowedMentions, notifyContent, plainText, toDiscord } from './text.js';

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

export interface MessagePayload {
  /** The mentions of the card's `notify` list: the only part of a message that pings. */
  content?: string;
  embeds: APIEmbed[];
  components: ActionRow[];
  /** Sent with every message: who `content` may ping, nobody else. */
  allowed_mentions: APIAllowedMentions;
}

/** An action that did not fit a `custom_id`, kept in memory under a key. */
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
const isWebUrl = (url: string) => /^https?:\/\/\S+$/i.test(url);

function fieldOf(field: Field): APIEmbedField {
  return {
    name: clip(toDiscord(field.label.trim()), DISCORD.fieldName) || EMPTY,
    value: clip(toDiscord(field.value.trim()), DISCORD.fieldValue) || EMPTY,
    inline: field.short === true,
  };
}

function progressLine(card: Card): string | undefined {
  if (!card.progress) return undefined;
  const percent = Number.isFinite(card.progress.percent) ? card.progress.percent : 0;
  return card.progress.label?.trim() ? toDiscord(card.progress.label.trim()) : progressBar(percent);
}

export function renderCard(card: Card, memory: RenderMemory): MessagePayload {
  const color = TONE_COLORS[card.tone ?? 'neutral'] ?? TONE_COLORS.neutral;
  const main: APIEmbed = { title: clip(toDiscord(card.title), DISCORD.embedTitle) || EMPTY, color };
  if (card.url && isWebUrl(card.url)) main.url = card.url;
  const text = card.text?.trim() ? toDiscord(card.text.trim()) : undefined;
  const description = [text, progressLine(card)].filter(Boolean).join('\n\n');
  if (description) main.description = description;
  if (card.fields?.length) main.fields = card.fields.slice(0, DISCORD.embedFields).map(fieldOf);
  if (card.image && isWebUrl(card.image.url)) main.image = { url: card.image.url };

  const embeds: APIEmbed[] = [main];
  const overflow: string[] = [];
  for (const section of card.sections ?? []) {
    const embed: APIEmbed = { color };
    const sectionText = section.text?.trim() ? toDiscord(section.text.trim()) : undefined;
    if (sectionText) embed.description = sectionText;
    if (section.fields?.length) embed.fields = section.fields.slice(0, DISCORD.embedFields).map(fieldOf);
    if (section.image && isWebUrl(section.image.url)) embed.image = { url: section.image.url };
    if (!embed.description && !embed.fields && !embed.image) continue;
    if (embeds.length < DISCORD.embedsPerMessage) embeds.push(embed);
    else if (sectionText) overflow.push(sectionText);
  }
  // Sections beyond ten embeds still say what they say, at the end of the last one.
  if (overflow.length > 0) {
    const last = embeds[embeds.length - 1] as APIEmbed;
    last.description = [last.description, ...overflow].filter(Boolean).join('\n\n');
  }
  if (card.context?.trim()) {
    (embeds[embeds.length - 1] as APIEmbed).footer = {
      text: clip(plainText(card.context.trim()), DISCORD.footerText),
    };
  }
  for (const embed of embeds) {
    if (embed.description) embed.description = clip(embed.description, DISCORD.embedDescription);
  }
  fitTotal(embeds);
  const content = notifyContent(card.notify);
  return {
    ...(content ? { content } : {}),
    embeds,
    components: renderControls(card, memory),
    allowed_mentions: allowedMentions(card.notify),
  };
}

/** Characters Discord counts against a message's 6000: titles, descriptions, fields, footers. */
export function embedsSize(embeds: readonly APIEmbed[]): number {
  return embeds.reduce(
    (sum, e) =>
      sum +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.fields ?? []).reduce((s, f) => s + f.name.length + f.value.length, 0),
    0,
  );
}

/**
 * Fits the message into Discord's 6000 characters: shortens the longest texts first (descriptions, field
 * values and names, footers; never below a readable floor), and only if that is not enough leaves out
 * section embeds from the end, then fields from the end.
 */
function fitTotal(embeds: APIEmbed[]): void {
  const over = () => embedsSize(embeds) - DISCORD.embedTotalChars;
  while (over() > 0) {
    let longest: { length: number; cut(max: number): void } | undefined;
    const consider = (text: string | undefined, floor: number, cut: (max: number) => void) => {
      if (text && text.length > floor && text.length > (longest?.length ?? 0)) {
        longest = { length: text.length, cut: (max) => cut(Math.max(floor, max)) };
      }
    };
    for (const embed of embeds) {
      consider(embed.description, 64, (max) => (embed.description = clip(embed.description ?? '', max)));
      if (embed.footer) {
        const footer = embed.footer;
        consider(footer.text, 64, (max) => (footer.text = clip(footer.text, max)));
      }
      for (const field of embed.fields ?? []) {
        consider(field.value, 64, (max) => (field.value = clip(field.value, max)));
        consider(field.name, 32, (max) => (field.name = clip(field.name, max)));
      }
    }
    if (!longest) break;
    longest.cut(longest.length - Math.min(over(), Math.ceil(longest.length / 4)));
  }
  while (over() > 0 && embeds.length > 1) embeds.pop();
  const main = embeds[0];
  while (over() > 0 && main?.fields?.length) main.fields.pop();
}

/**
 * Controls → rows: each section's controls on their own row, then the card's. Buttons of several sections are
 * numbered like the sections ("2 · Use this") since the rows sit below all the embeds. When that needs more
 * than five rows, buttons are packed five to a row; what still does not fit is left out.
 */
function renderControls(card: Card, memory: RenderMemory): ActionRow[] {
  const taken = new Set<string>();
  const withControls = (card.sections ?? []).filter((s) => s.controls?.length);
  const groups: { controls: Control[]; number?: number }[] = withControls.map((s, i) => ({
    controls: s.controls ?? [],
    ...(withControls.length > 1 ? { number: i + 1 } : {}),
  }));
  if (card.controls?.length) groups.push({ controls: card.controls });

  const rendered = groups.map((g) =>
    g.controls
      .map((c) => renderControl(c, { memory, taken }, g.number))
      .filter((c): c is APIButtonComponent | APIStringSelectComponent => c !== undefined),
  );
  let rows = rendered.flatMap(rowsOf);
  if (rows.length > DISCORD.actionRows) rows = rowsOf(rendered.flat());
  return rows.slice(0, DISCORD.actionRows);
}

function rowsOf(components: (APIButtonComponent | APIStringSelectComponent)[]): ActionRow[] {
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
interface ControlContext {
  memory: RenderMemory;
  taken: Set<string>;
}

function renderControl(
  control: Control,
  { memory, taken }: ControlContext,
  number: number | undefined,
): APIButtonComponent | APIStringSelectComponent | undefined {
  const numbered = (label: string) =>
    clip(number ? `${number} · ${label}` : label, DISCORD.buttonLabel) || EMPTY;
  switch (control.kind) {
    case 'link':
      if (!isWebUrl(control.url)) return undefined;
      return {
        type: ComponentType.Button,
        style: ButtonStyle.Link,
        label: numbered(control.label),
        url: control.url,
      };
    case 'button':
      return renderButton(control, { memory, taken }, numbered(control.label));
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
 * button, and the deny label dismissing the question.
 */
export function confirmPayload(
  confirm: Confirm,
  action: { action: string; value: string },
  memory: RenderMemory,
): MessagePayload {
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
  const row = payload.components[0];
  row?.components.push({
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    label: clip(confirm.deny, DISCORD.buttonLabel) || EMPTY,
    custom_id: dismissId(),
  });
  return payload;
}
