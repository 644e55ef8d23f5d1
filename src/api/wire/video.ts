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
} from '../../core/video-api.js';
import { compact, opt } from './common.js';
import { PostBlocksWire, toPostMetadata } from './post-blocks.js';
import { ThumbnailsWire, toThumbnails } from './thumbnails.js';

export const VideoListItemWire = z.object({
  id: z.string(),
  name: z.string(),
  /** Open: the spec gives no values. */
  platform: opt(z.string()),
  model: opt(z.string()),
  renderedVideoUrl: opt(z.string()),
  thumbnailUrl: opt(z.string()),
  createdAt: opt(z.string()),
});

export function toVideoListItem(wire: z.output<typeof VideoListItemWire>): VideoListItem {
  const { id, name, platform, model, renderedVideoUrl, thumbnailUrl, createdAt } = wire;
  return compact({
    id,
    name,
    platform,
    model,
    renderedVideoUrl: renderedVideoUrl ?? null,
    thumbnailUrl,
    createdAt,
  });
}

export const VideoWire = VideoListItemWire.extend({
  script: opt(z.string()),
  voiceId: opt(z.string()),
  /** §4 lists the field as "voice" once; accepted as a fallback for `voiceId`. */
  voice: opt(z.string()),
  status: opt(z.string()),
  thumbnails: opt(ThumbnailsWire),
}).extend(PostBlocksWire.shape);

export function toVideo(wire: z.output<typeof VideoWire>): Video {
  return compact({
    ...toVideoListItem(wire),
    script: wire.script,
    voiceId: wire.voiceId ?? wire.voice,
    status: wire.status,
    thumbnails: wire.thumbnails ? toThumbnails(wire.thumbnails) : undefined,
    posts: toPostMetadata(wire),
  });
}

export const CreatedVideoWire = z.object({
  id: z.string(),
  name: z.string(),
  model: opt(z.string()),
  status: z.string(),
  creditsUsed: z.number(),
  statusUrl: opt(z.string()),
});
export const toCreatedVideo = (wire: z.output<typeof CreatedVideoWire>): CreatedVideo => compact(wire);

export const CreatedCaptionWire = z.object({
  id: z.string(),
  status: z.string(),
  statusUrl: opt(z.string()),
});
export const toCreatedCaption = (wire: z.output<typeof CreatedCaptionWire>): CreatedCaption => compact(wire);

export const PatchedVideoWire = z
  .object({
    id: z.string(),
    name: z.string(),
    thumbnailUrl: opt(z.string()),
    thumbnails: opt(ThumbnailsWire),
  })
  .extend(PostBlocksWire.shape);

export function toPatchedVideo(wire: z.output<typeof PatchedVideoWire>): PatchedVideo {
  return compact({
    id: wire.id,
    name: wire.name,
    posts: toPostMetadata(wire),
    thumbnailUrl: wire.thumbnailUrl,
    thumbnails: wire.thumbnails ? toThumbnails(wire.thumbnails) : undefined,
  });
}

export const ThumbnailSelectionWire = z.object({
  id: z.string(),
  thumbnailUrl: opt(z.string()),
  thumbnails: ThumbnailsWire,
});
export function toThumbnailSelection(wire: z.output<typeof ThumbnailSelectionWire>): ThumbnailSelection {
  return compact({ ...wire, thumbnails: toThumbnails(wire.thumbnails) });
}

/** GET /videos/{id}/status; its per-step events have no documented shape and are ignored. */
export const VideoStatusWire = z.object({
  id: z.string(),
  status: z.string(),
  percentCompleted: z.number(),
  readyForEditing: opt(z.boolean()),
  errorMessages: opt(z.array(z.string())),
  renderedVideoUrl: opt(z.string()),
});
export function toVideoStatus(wire: z.output<typeof VideoStatusWire>): VideoStatus {
  return {
    id: wire.id,
    status: wire.status,
    percentCompleted: wire.percentCompleted,
    readyForEditing: wire.readyForEditing ?? false,
    errorMessages: wire.errorMessages ?? [],
    renderedVideoUrl: wire.renderedVideoUrl ?? null,
  };
}

export const RenderStartedWire = z.object({ renderId: z.string(), statusUrl: opt(z.string()) });
export const toRenderStarted = (wire: z.output<typeof RenderStartedWire>): RenderStarted => compact(wire);

export const RenderWire = z.object({
  renderId: z.string(),
  /** Open: in-progress, done, error. */
  status: z.string(),
  overallProgress: opt(z.number()),
  url: opt(z.string()),
});
export function toRender(wire: z.output<typeof RenderWire>): Render {
  return compact({ ...wire, overallProgress: wire.overallProgress ?? (wire.status === 'done' ? 1 : 0) });
}
