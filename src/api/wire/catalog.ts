import { z } from 'zod';
import type { OptionCatalog, OptionItem, Voice } from '../../core/video-api/video-api.js';
import {
  compact,
  optBoolean,
  optId,
  optList,
  optName,
  optNumber,
  optPart,
  optText,
  optUrl,
  reqId,
  reqList,
} from './common.js';

/** The full shape; the older one carries only id, name, previewUrl and isCustom (spec §2). */
export const VoiceWire = z.object({
  id: reqId(),
  name: optName(),
  previewUrl: optUrl(),
  isCustom: optBoolean(),
  labels: optPart(z.object({ language: optText(), gender: optText(), accent: optText() })),
  isRecommended: optBoolean(),
  qualityTier: optText(),
  targetLanguages: optList(z.string()),
});

export function toVoice(wire: z.output<typeof VoiceWire>): Voice {
  return compact({
    ...wire,
    name: wire.name ?? wire.id,
    isCustom: wire.isCustom ?? false,
    labels: wire.labels ? compact(wire.labels) : undefined,
  });
}

/**
 * Only `models` items have a documented shape ({ value, name, credits }); other catalogs are "not shown",
 * so an item may be a bare value or an object naming itself by value, id, name or label.
 */
export const OptionItemWire = z.preprocess(
  (item) =>
    typeof item === 'string' || typeof item === 'number' ? { value: String(item) } : numbersAsText(item),
  z
    .object({ value: optId(), id: optId(), name: optName(), label: optName(), credits: optNumber() })
    .refine((item) => [item.value, item.id, item.name, item.label].some((v) => v !== undefined), {
      message: 'an option item needs a value, id, name or label',
      path: ['value'],
    }),
);

/** A catalog value may well be a number (a duration in seconds): not drift, just its text. */
function numbersAsText(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const { value, id } = item as Record<string, unknown>;
  return {
    ...item,
    ...(typeof value === 'number' ? { value: String(value) } : {}),
    ...(typeof id === 'number' ? { id: String(id) } : {}),
  };
}

function toOptionItem(wire: z.output<typeof OptionItemWire>): OptionItem {
  const value = (wire.value ?? wire.id ?? wire.name ?? wire.label) as string;
  return compact({ value, name: wire.name ?? wire.label ?? value, credits: wire.credits });
}

export const OptionCatalogWire = z.object({ items: reqList(OptionItemWire) });

export function toOptionCatalog(wire: z.output<typeof OptionCatalogWire>, requested: string): OptionCatalog {
  return { kind: requested, items: wire.items.map(toOptionItem) };
}

/** GET /options without `kind`: the listing's shape is "not shown"; a list, `{ kinds: [...] }` or an object keyed by kind. */
export const OptionKindsWire = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]);

/** A kind is a string, or an object naming it by `kind`, `value` or `name`. */
function kindName(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { kind, value, name } = entry as Record<string, unknown>;
  return [kind, value, name].find((v): v is string => typeof v === 'string');
}

/**
 * The kinds, from any of those forms. Keyed by kind, only keys holding a description (an object, a list or a
 * path) count: a number, boolean or null beside them (`__v: 0`, `total: 10`) is bookkeeping.
 */
export function toOptionKinds(wire: z.output<typeof OptionKindsWire>): string[] {
  const list = Array.isArray(wire) ? wire : Array.isArray(wire.kinds) ? (wire.kinds as unknown[]) : undefined;
  if (!list)
    return Object.entries(wire)
      .filter(([, v]) => typeof v === 'string' || (typeof v === 'object' && v !== null))
      .map(([kind]) => kind);
  return list.map(kindName).filter((kind): kind is string => kind !== undefined);
}
