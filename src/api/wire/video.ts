import { z } from 'zod';
import type {
  CreatedCaption,
  CreatedVideo,
  PatchedVideo,
  Render,
  RenderStarted,
  ThumbnailSelection,
  Video,
  VideoListItem,
  VideoStatus,
} from '../../core/video-api/video-api.js';
import {
  compact,
  optId,
  optList,
  optName,
  optNumber,
  optPart,
  optText,
  optUrl,
  reqId,
  reqText,
} from './common.js';
import { PostBlocksWire, toPostMetadata } from './post-blocks.js';
import { ThumbnailsWire, toThumbnails } from './thumbnails.js';

/** GET /videos items: one without an id is dropped from the page; a missing name reads as the id. */
export const VideoListItemWire = z.object({
  id: reqId(),
  name: optName(),
  model: optText(),
  renderedVideoUrl: optUrl(),
  thumbnailUrl: optUrl(),
  createdAt: optText(),
});

export function toVideoListItem(wire: z.output<typeof VideoListItemWire>): VideoListItem {
  const { id, name, model, renderedVideoUrl, thumbnailUrl, createdAt } = wire;
  return compact({
    id,
    name: name ?? id,
    model,
    renderedVideoUrl: renderedVideoUrl ?? null,
    thumbnailUrl,
    createdAt,
  });
}

/** GET /videos/{id}. */
export const VideoWire = VideoListItemWire.extend({
  /** Open: the spec gives no values. */
  platform: optText(),
  script: optText(),
  voiceId: optId(),
  /** §4 lists the field as "voice" once; accepted as a fallback for `voiceId`. */
  voice: optId(),
  status: optText(),
  thumbnails: optPart(ThumbnailsWire),
}).extend(PostBlocksWire.shape);

export function toVideo(wire: z.output<typeof VideoWire>): Video {
  return compact({
    ...toVideoListItem(wire),
    platform: wire.platform,
    script: wire.script,
    voiceId: wire.voiceId ?? wire.voice,
    status: wire.status,
    thumbnails: wire.thumbnails ? toThumbnails(wire.thumbnails) : undefined,
    posts: toPostMetadata(wire),
  });
}

/** POST /videos: the video exists and was charged once this answers; only its id is needed. */
export const CreatedVideoWire = z.object({
  id: reqId(),
  name: optName(),
  model: optText(),
  creditsUsed: optNumber(),
});
/** A name the service left out is the one sent (or '' when none was: the caller names it). */
export const toCreatedVideo = (wire: z.output<typeof CreatedVideoWire>, sentName?: string): CreatedVideo =>
  compact({ ...wire, name: wire.name ?? sentName ?? '' });

export const CreatedCaptionWire = z.object({ id: reqId() });
export const toCreatedCaption = (wire: z.output<typeof CreatedCaptionWire>): CreatedCaption => ({
  id: wire.id,
});

/** PATCH /videos/{id}: the change is made once this answers; what it left out is what was sent. */
export const PatchedVideoWire = z.object({ id: optId(), name: optName() }).extend(PostBlocksWire.shape);

export function toPatchedVideo(
  wire: z.output<typeof PatchedVideoWire>,
  sent: { id: string; name?: string | undefined },
): PatchedVideo {
  return { id: wire.id ?? sent.id, name: wire.name ?? sent.name ?? '', posts: toPostMetadata(wire) };
}

/** POST /videos/{id}/thumbnail: the pick is made once this answers. */
export const ThumbnailSelectionWire = z.object({ thumbnails: optPart(ThumbnailsWire) });
export function toThumbnailSelection(
  wire: z.output<typeof ThumbnailSelectionWire>,
  id: string,
): ThumbnailSelection {
  return compact({ id, thumbnails: wire.thumbnails ? toThumbnails(wire.thumbnails) : undefined });
}

/** GET /videos/{id}/status: `status` is needed; its per-step events have no documented shape and are ignored. */
export const VideoStatusWire = z.object({
  id: optId(),
  status: reqText(),
  percentCompleted: optNumber(),
  errorMessages: optList(z.string()),
});
export function toVideoStatus(wire: z.output<typeof VideoStatusWire>, id: string): VideoStatus {
  return {
    id: wire.id ?? id,
    status: wire.status,
    percentCompleted: wire.percentCompleted ?? (wire.status === 'completed' ? 100 : 0),
    errorMessages: wire.errorMessages ?? [],
  };
}

export const RenderStartedWire = z.object({ renderId: reqId() });
export const toRenderStarted = (wire: z.output<typeof RenderStartedWire>): RenderStarted => ({
  renderId: wire.renderId,
});

/** GET /renders/{id}: `status` is needed. */
export const RenderWire = z.object({
  renderId: optId(),
  /** Open: in-progress, done, error. */
  status: reqText(),
  overallProgress: optNumber(),
  url: optUrl(),
});
export function toRender(wire: z.output<typeof RenderWire>, renderId: string): Render {
  return compact({
    renderId: wire.renderId ?? renderId,
    status: wire.status,
    overallProgress: wire.overallProgress ?? (wire.status === 'done' ? 1 : 0),
    url: wire.url,
  });
}
