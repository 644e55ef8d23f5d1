/**
 * A video's thumbnail options as its card shows them: the card's copy of the API's thumbnails (with who picked
 * in chat), and one section per option with its "Use this" button.
 */
import type { Button, Section } from '../text/cards.js';
import { type CardText, joinText, literal, md } from '../text/text.js';
import type { Thumbnails } from '../video-api/video-api.js';

export interface CardThumbnailVariant {
  id: string;
  url: string;
  hookText?: string;
  score?: number;
  grade?: string;
}

export interface CardThumbnails {
  status: string;
  selectedVariantId?: string;
  selectedBy?: string;
  /** Display name of whoever picked in chat, when the pick came from a click here. */
  pickedBy?: string;
  variants: CardThumbnailVariant[];
}

const PENDING_THUMBNAILS = new Set(['idle', 'queued', 'generating']);

/** True while thumbnails may still arrive (not generated yet, queued or generating). */
export const thumbnailsPending = (status: string | undefined): boolean =>
  status === undefined || PENDING_THUMBNAILS.has(status);

/** One section per thumbnail variant, with a "Use this" button on every option not already in use. */
export function thumbnailSections(videoId: string, t: CardThumbnails): Section[] {
  return t.variants.map((v, i) => {
    const selected = v.id === t.selectedVariantId;
    let badge = md``;
    if (selected) {
      badge =
        t.selectedBy === 'user'
          ? md` ✅ in use${t.pickedBy ? md` (picked by ${literal(t.pickedBy)})` : md` (your pick)`}`
          : md` ⭐ AI pick, in use`;
    }
    const facts = joinText(
      [
        v.grade ? md`grade ${literal(v.grade)}` : undefined,
        v.score !== undefined ? md`score ${v.score}` : undefined,
      ].filter((f) => f !== undefined),
      ' · ',
    );
    const lines: CardText[] = [];
    if (v.hookText) lines.push(md`“${literal(v.hookText)}”`);
    if (facts) lines.push(facts);
    const section: Section = {
      // A carousel card's title; the first line of the section's words elsewhere.
      title: md`**Option ${i + 1}**${badge}`,
      ...(lines.length > 0 ? { text: joinText(lines, '\n') } : {}),
      image: {
        url: v.url,
        alt: v.hookText ? `Thumbnail option ${i + 1}: ${v.hookText}` : `Thumbnail option ${i + 1}`,
      },
    };
    if (!(selected && t.selectedBy === 'user')) section.controls = [useThis(videoId, v.id)];
    return section;
  });
}

/** "Use this" carries `<videoId>:<variantId>`; the click is re-authorised with the clicker's key. */
const useThis = (videoId: string, variantId: string): Button => ({
  kind: 'button',
  action: 'thumbnail.pick',
  value: `${videoId}:${variantId}`,
  label: 'Use this',
  style: 'primary',
});

/**
 * The card's thumbnail part from the API's. Who picked in chat is only known to the card: it is kept while
 * the pick is unchanged. Variants the service sent as bare URLs keep the URL as id.
 */
export function cardThumbnailsOf(
  t: Thumbnails | undefined,
  previous?: CardThumbnails,
): CardThumbnails | undefined {
  if (!t) return undefined;
  const out: CardThumbnails = {
    status: t.status,
    variants: t.variants.map((v) => ({
      id: v.id,
      url: v.url,
      ...(v.hookText !== undefined ? { hookText: v.hookText } : {}),
      ...(v.score !== undefined ? { score: v.score } : {}),
      ...(v.grade !== undefined ? { grade: v.grade } : {}),
    })),
  };
  if (t.selectedVariantId) out.selectedVariantId = t.selectedVariantId;
  if (t.selectedBy) out.selectedBy = t.selectedBy;
  if (previous?.pickedBy && previous.selectedVariantId === out.selectedVariantId)
    out.pickedBy = previous.pickedBy;
  return out;
}
