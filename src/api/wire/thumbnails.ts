import { z } from 'zod';
import type { Thumbnails, ThumbnailVariant } from '../../core/video-api.js';
import { compact, opt } from './common.js';

const VariantObjectWire = z.object({
  id: z.string(),
  url: z.string(),
  hookText: opt(z.string()),
  source: opt(z.string()),
  score: opt(z.number()),
  grade: opt(z.string()),
});

/** Full objects on GET /videos/{id}; bare URL strings on PATCH and thumbnail-select responses (spec §2). */
const VariantWire = z.union([z.string(), VariantObjectWire]);

export const ThumbnailsWire = z.object({
  /** Open: idle, queued, generating, ready, partial, failed. */
  status: z.string(),
  generation: opt(z.number()),
  aspect: opt(z.string()),
  selectedVariantId: opt(z.string()),
  selectedBy: opt(z.string()),
  variants: opt(z.array(VariantWire)),
});

function toVariant(wire: z.output<typeof VariantWire>): ThumbnailVariant {
  // A bare URL is its own id: it is what the service gave to tell variants apart.
  return typeof wire === 'string' ? { id: wire, url: wire } : compact(wire);
}

export function toThumbnails(wire: z.output<typeof ThumbnailsWire>): Thumbnails {
  return compact({ ...wire, variants: (wire.variants ?? []).map(toVariant) });
}
