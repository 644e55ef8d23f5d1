/**
 * A card's sections in the container: pictured ones share one gallery, each keeps its text with its first
 * button beside it, and those that do not fit Discord's 40 components are merged into one text display.
 */
import {
  type APIButtonComponent,
  type APIComponentInContainer,
  type APIMediaGalleryComponent,
  type APISectionComponent,
  ComponentType,
} from 'discord.js';
import type { Image, Section } from '../../../src/core/index.js';
import { literal, sectionWords } from '../../../src/core/index.js';
import { clip, DISCORD } from '../limits.js';
import { toDiscord } from '../text.js';
import { type ControlContext, renderControl, rowsOf } from './controls.js';
import { componentCount, fieldLines, galleryItem, isWebUrl, textDisplay } from './parts.js';

/** One section as it sits in the container, and its text (kept when the section does not fit). */
interface Block {
  components: APIComponentInContainer[];
  text: string;
}

/**
 * Pictured sections (thumbnail variants) share one gallery, in their order, and each keeps its text and
 * button; a lone pictured section without controls shows its picture as a thumbnail beside its text.
 */
export function sectionParts(
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
  const words = sectionWords(section);
  const text = words ? toDiscord(words) : '';
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
export function fitSections(blocks: readonly Block[], room: number): APIComponentInContainer[] {
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
