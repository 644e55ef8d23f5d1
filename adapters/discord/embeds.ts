/**
 * A neutral `Card` → Discord embeds and legacy action rows: how cards were sent before Components V2
 * (components.ts), still used for one case: answering a click on a message that was posted without the
 * IS_COMPONENTS_V2 flag (before the change) by updating it through the interaction. Discord documents the
 * upgrade of an existing message to V2 only for the edit endpoints (channel message, webhook message), so an
 * interaction's UPDATE_MESSAGE of an old message keeps the old shape; the outbox's next edit upgrades it.
 *
 * The card is the first embed (title, text, progress, fields, image, context as footer), each section an extra
 * embed (thumbnail variants with their image), controls become buttons and select menus in at most five rows.
 */
import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Card, Control, Field } from '../../src/core/index.js';
import { sectionWords } from '../../src/core/index.js';
import { type ActionRow, renderControl, rowsOf } from './components/controls.js';
import { isWebUrl } from './components/parts.js';
import {
  cardControls,
  type EmbedPayload,
  progressLine,
  type RenderMemory,
  TONE_COLORS,
} from './components.js';
import { clip, DISCORD } from './limits.js';
import { allowedMentions, notifyContent, plainText, toDiscord } from './text.js';

const EMPTY = '\u200b';

function fieldOf(field: Field): APIEmbedField {
  return {
    name: clip(toDiscord(field.label.trim()), DISCORD.fieldName) || EMPTY,
    value: clip(toDiscord(field.value.trim()), DISCORD.fieldValue) || EMPTY,
    inline: field.short === true,
  };
}

export function renderEmbedCard(card: Card, memory: RenderMemory): EmbedPayload {
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
    const words = sectionWords(section);
    const sectionText = words ? toDiscord(words) : undefined;
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
    components: embedControls(card, memory),
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
function embedControls(card: Card, memory: RenderMemory): ActionRow[] {
  const taken = new Set<string>();
  const withControls = (card.sections ?? []).filter((s) => s.controls?.length);
  const groups: { controls: Control[]; number?: number }[] = withControls.map((s, i) => ({
    controls: s.controls ?? [],
    ...(withControls.length > 1 ? { number: i + 1 } : {}),
  }));
  const own = cardControls(card);
  if (own.length > 0) groups.push({ controls: own });

  const rendered = groups.map((g) =>
    g.controls.flatMap((c) => {
      const numbered = g.number && c.kind !== 'select' ? { ...c, label: `${g.number} · ${c.label}` } : c;
      const one = renderControl(numbered, { memory, taken });
      return one ? [one] : [];
    }),
  );
  let rows = rendered.flatMap(rowsOf);
  if (rows.length > DISCORD.actionRows) rows = rowsOf(rendered.flat());
  return rows.slice(0, DISCORD.actionRows);
}
