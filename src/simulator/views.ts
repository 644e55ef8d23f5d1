/** Wire shapes of the simulator's responses (video-api.md §2 and §4). */
import { percentCompleted } from './jobs/generation.js';
import { renderMediaPath, renderProgress } from './jobs/renders.js';
import type {
  CalendarRec,
  LedgerRec,
  PostBlock,
  RenderRec,
  ThumbnailsRec,
  VariantRec,
  VideoRec,
} from './records.js';
import { PLATFORMS, POST_BLOCK_KEYS } from './vocabulary.js';

export const iso = (ms: number): string => new Date(ms).toISOString();

export const API_PREFIX = '/api/v1';

export function thumbMediaPath(videoId: string, variant: VariantRec): string {
  return `/media/thumb/${videoId}/${variant.n}.svg`;
}

export function brollMediaPath(videoId: string): string {
  return `/media/broll/${videoId}/0.svg`;
}

function selectedVariant(thumbs: ThumbnailsRec): VariantRec | undefined {
  return thumbs.variants.find((v) => v.id === thumbs.selectedVariantId);
}

/** The thumbnail in use, falling back to the first b-roll frame only when no thumbnail exists. */
export function effectiveThumbnailUrl(video: VideoRec, origin: string): string {
  const selected = selectedVariant(video.thumbnails);
  return origin + (selected ? thumbMediaPath(video.id, selected) : brollMediaPath(video.id));
}

export function renderedVideoUrl(video: VideoRec, origin: string): string | null {
  return video.renderedPath === null ? null : origin + video.renderedPath;
}

/** Selection fields are omitted until there is a selection (never generated, or every variant failed). */
function selection(thumbs: ThumbnailsRec): { selectedVariantId?: string; selectedBy?: string } {
  if (thumbs.selectedVariantId === undefined) return {};
  return {
    selectedVariantId: thumbs.selectedVariantId,
    ...(thumbs.selectedBy ? { selectedBy: thumbs.selectedBy } : {}),
  };
}

export function thumbnailsFull(video: VideoRec, origin: string) {
  const t = video.thumbnails;
  return {
    status: t.status,
    generation: t.generation,
    aspect: t.aspect,
    ...selection(t),
    variants: t.variants.map((v) => ({
      id: v.id,
      url: origin + thumbMediaPath(video.id, v),
      hookText: v.hookText,
      source: v.source,
      score: v.score,
      grade: v.grade,
    })),
  };
}

/** PATCH and thumbnail-select responses carry `variants` as URL strings (spec §2). */
export function thumbnailsCompact(video: VideoRec, origin: string) {
  const t = video.thumbnails;
  return {
    status: t.status,
    ...selection(t),
    variants: t.variants.map((v) => origin + thumbMediaPath(video.id, v)),
  };
}

export function storedBlocks(video: VideoRec): Record<string, PostBlock> {
  const out: Record<string, PostBlock> = {};
  for (const platform of PLATFORMS) {
    const key = POST_BLOCK_KEYS[platform];
    const block = video.posts[key];
    if (block) out[key] = { ...block };
  }
  return out;
}

export function videoListItem(video: VideoRec, origin: string) {
  return {
    id: video.id,
    name: video.name,
    platform: video.platform,
    model: video.model,
    renderedVideoUrl: renderedVideoUrl(video, origin),
    thumbnailUrl: effectiveThumbnailUrl(video, origin),
    createdAt: iso(video.createdAt),
  };
}

export function videoDetail(video: VideoRec, origin: string) {
  return {
    id: video.id,
    name: video.name,
    platform: video.platform,
    model: video.model,
    script: video.script,
    voiceId: video.voiceId,
    status: video.status,
    renderedVideoUrl: renderedVideoUrl(video, origin),
    thumbnailUrl: effectiveThumbnailUrl(video, origin),
    thumbnails: thumbnailsFull(video, origin),
    ...storedBlocks(video),
    ...video.options,
    archived: video.archived,
    ...(video.seriesId === undefined ? {} : { seriesId: video.seriesId }),
    createdAt: iso(video.createdAt),
  };
}

export function statusUrl(videoId: string): string {
  return `${API_PREFIX}/videos/${videoId}/status`;
}

export function videoProgress(video: VideoRec, now: number) {
  return {
    percentCompleted: percentCompleted(video, now),
    readyForEditing: video.status === 'completed',
  };
}

export function renderView(render: RenderRec, now: number, origin: string) {
  return {
    renderId: render.id,
    videoId: render.videoId,
    codec: render.codec,
    status: render.status,
    overallProgress: renderProgress(render, now),
    ...(render.status === 'done' ? { url: origin + renderMediaPath(render) } : {}),
  };
}

export function ledgerView(entry: LedgerRec) {
  return {
    id: entry.id,
    credits: entry.credits,
    type: entry.type,
    description: entry.description,
    createdAt: iso(entry.createdAt),
  };
}

export function calendarView(entry: CalendarRec) {
  return {
    id: entry.id,
    projectId: entry.videoId,
    platform: entry.platform,
    status: entry.status,
    scheduledTime: iso(entry.scheduledAt),
  };
}

/** Newest first, creation order breaking ties between records created in the same millisecond. */
export function newestFirst<T extends { createdAt: number; seq: number }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
}
