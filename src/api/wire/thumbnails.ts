import { z } from 'zod';
import type { Thumbnails, ThumbnailVariant } from '../../core/video-api/video-api.js';
import { compact, optId, optList, optNumber, optText, reqId, reqText, reqUrl } from './common.js';

/**
 * Full objects on GET /videos/{id}; bare URL strings on PATCH and thumbnail-select responses (spec §2).
 * A bare URL is its own id: it is what the service gave to tell variants apart. A variant without an id
 * or url is dropped.
 */
export const VariantWire = z.preprocess(
  (variant) => (typeof variant === 'string' ? { id: variant, url: variant } : variant),
  z.object({ id: reqId(), url: reqUrl(), hookText: optText(), score: optNumber(), grade: optText() }),
);

/** Dropped whole (counted) when it has no status. */
export const ThumbnailsWire = z.object({
  /** Open: idle, queued, generating, ready, partial, failed. */
  status: reqText(),
  selectedVariantId: optId(),
  selectedBy: optText(),
  variants: optList(VariantWire),
});

const toVariant = (wire: z.output<typeof VariantWire>): ThumbnailVariant => compact(wire);

export function toThumbnails(wire: z.output<typeof ThumbnailsWire>): Thumbnails {
  return compact({ ...wire, variants: (wire.variants ?? []).map(toVariant) });
}
