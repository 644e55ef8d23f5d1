/**
 * What changed in a video between two reads, in the words an approver needs (`YouTube title: “Launch” →
 * “Launch v2”`, `Thumbnail: option 1 → option 3`): only what a post carries (the name, the listed
 * platforms' post details, the thumbnail pick). Used by `content-guard.ts` on the new request's card.
 */
import { BLOCKS, platformName } from '../platforms/post-blocks.js';
import { type CardText, literal, md } from '../text/text.js';
import type { Platform, Video } from '../video-api/video-api.js';

const quoted = (v: string | undefined): CardText =>
  v === undefined || v === '' ? md`(empty)` : md`“${literal(v)}”`;

function fieldOf(video: Video, platform: Platform, key: string): string | undefined {
  const block = video.posts[platform] as Record<string, unknown> | undefined;
  const value = block?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The post details of one platform that differ: one line per field. */
function blockChanges(before: Video, after: Video, platform: Platform): CardText[] {
  const spec = BLOCKS[platform];
  const keys = [spec.main, ...spec.extra].map((f) => ({ key: f.key, label: f.label.toLowerCase() }));
  if (spec.privacy) keys.push({ key: 'privacyStatus', label: 'visibility' });
  return keys.flatMap(({ key, label }) => {
    const old = fieldOf(before, platform, key);
    const now = fieldOf(after, platform, key);
    return (old ?? '') === (now ?? '')
      ? []
      : [md`${platformName(platform)} ${literal(label)}: ${quoted(old)} → ${quoted(now)}`];
  });
}

/** `option 3` for the picked variant (1-based, as the cards number them); the video's own otherwise. */
function pickOf(video: Video): CardText {
  const t = video.thumbnails;
  const index = t?.variants.findIndex((v) => v.id === t.selectedVariantId) ?? -1;
  return index >= 0 ? md`option ${index + 1}` : md`the video’s own`;
}

/** Card markdown lines, one per change; empty when nothing a post carries changed. */
export function contentChanges(before: Video, after: Video, platforms: readonly Platform[]): CardText[] {
  const lines: CardText[] = [];
  if (before.name !== after.name) lines.push(md`Name: ${quoted(before.name)} → ${quoted(after.name)}`);
  for (const p of platforms) lines.push(...blockChanges(before, after, p));
  if (before.thumbnails?.selectedVariantId !== after.thumbnails?.selectedVariantId)
    lines.push(md`Thumbnail: ${pickOf(before)} → ${pickOf(after)}`);
  return lines;
}
