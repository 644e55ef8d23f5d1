/** The small pieces every part of a V2 card is built from, and Discord's count of a message's components. */
import type { APIMediaGalleryItem, APITextDisplayComponent } from 'discord.js';
import { ComponentType } from 'discord.js';
import type { Field } from '../../../src/core/index.js';
import { clip, DISCORD } from '../limits.js';
import { toDiscord } from '../text.js';

export const EMPTY = '\u200b';
export const isWebUrl = (url: string) => /^https?:\/\/\S+$/i.test(url);

export const textDisplay = (content: string): APITextDisplayComponent => ({
  type: ComponentType.TextDisplay,
  content: content || EMPTY,
});

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

export const galleryItem = (url: string, alt: string): APIMediaGalleryItem => ({
  media: { url },
  ...(alt.trim() ? { description: clip(alt.trim(), DISCORD.mediaDescription) } : {}),
});

/** Components Discord counts against a message's 40: every component, nested ones included. */
export function componentCount(components: readonly { type: number }[]): number {
  return components.reduce((sum, c) => {
    const o = c as { components?: { type: number }[]; accessory?: { type: number } };
    return sum + 1 + componentCount(o.components ?? []) + (o.accessory ? 1 : 0);
  }, 0);
}
