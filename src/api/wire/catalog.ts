import { z } from 'zod';
import type { OptionCatalog, OptionItem, Voice } from '../../core/video-api.js';
import { compact, opt } from './common.js';

/** The full shape; the older one carries only id, name, previewUrl and isCustom (spec §2). */
export const VoiceWire = z.object({
  id: z.string(),
  name: z.string(),
  previewUrl: opt(z.string()),
  isCustom: opt(z.boolean()),
  baseVoiceId: opt(z.string()),
  labels: opt(z.object({ language: opt(z.string()), gender: opt(z.string()), accent: opt(z.string()) })),
  isRecommended: opt(z.boolean()),
  qualityTier: opt(z.string()),
  modelPolicy: opt(z.string()),
  targetLanguages: opt(z.array(z.string())),
});

export function toVoice(wire: z.output<typeof VoiceWire>): Voice {
  return compact({
    ...wire,
    isCustom: wire.isCustom ?? false,
    labels: wire.labels ? compact(wire.labels) : undefined,
  });
}

const Scalar = z.union([z.string(), z.number()]);
const ItemObject = z.looseObject({
  value: opt(Scalar),
  id: opt(Scalar),
  name: opt(z.string()),
  label: opt(z.string()),
  credits: opt(z.number()),
});

/**
 * Only `models` items have a documented shape ({ value, name, credits }); other catalogs are "not shown",
 * so an item may be a bare value or an object naming itself by value, id, name or label.
 */
const OptionItemWire = z
  .union([Scalar, ItemObject])
  .refine(
    (item) =>
      typeof item !== 'object' || [item.value, item.id, item.name, item.label].some((v) => v !== undefined),
    { message: 'an option item needs a value, id, name or label' },
  );

const ITEM_KEYS: ReadonlySet<string> = new Set(['value', 'name', 'credits']);

function toOptionItem(wire: z.output<typeof OptionItemWire>): OptionItem {
  if (typeof wire !== 'object') return { value: String(wire), name: String(wire) };
  const value = String(wire.value ?? wire.id ?? wire.name ?? wire.label);
  const extra = Object.fromEntries(Object.entries(wire).filter(([key]) => !ITEM_KEYS.has(key)));
  return compact({
    value,
    name: wire.name ?? wire.label ?? value,
    credits: wire.credits,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}

export const OptionCatalogWire = z.object({ kind: opt(z.string()), items: z.array(OptionItemWire) });

export function toOptionCatalog(wire: z.output<typeof OptionCatalogWire>, requested: string): OptionCatalog {
  return { kind: wire.kind ?? requested, items: wire.items.map(toOptionItem) };
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

export function toOptionKinds(wire: z.output<typeof OptionKindsWire>): string[] {
  const list = Array.isArray(wire) ? wire : Array.isArray(wire.kinds) ? (wire.kinds as unknown[]) : undefined;
  if (!list) return Object.keys(wire);
  return list.map(kindName).filter((kind): kind is string => kind !== undefined);
}
