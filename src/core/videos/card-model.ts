/**
 * Building a video card model from API reads, for commands that post or show a card about an existing
 * video (status, render, thumbnails) rather than one they just created.
 */

import { videoState } from '../live/projections.js';
import { type CardThumbnails, cardThumbnailsOf } from '../live/thumbnail-options.js';
import type { VideoCardModel } from '../live/video-card.js';
import type { Store } from '../ports/index.js';
import type { Thumbnails, Video, VideoStatus } from '../video-api/video-api.js';

/** The thumbnail part of a card model (see `cardThumbnailsOf`). */
export const cardThumbnails = (t: Thumbnails | undefined): CardThumbnails | undefined => cardThumbnailsOf(t);

/** The phase a card shows for a generation status. */
export function phaseOf(status: string | undefined): VideoCardModel['phase'] {
  if (status === 'completed') return 'completed';
  if (status === 'failed') return 'failed';
  return 'generating';
}

/** A card model from GET /videos/{id} (and its status when known), merged over the video's card state. */
export async function modelFromVideo(
  store: Store,
  { video, status }: { video: Video; status?: VideoStatus | undefined },
): Promise<VideoCardModel> {
  const base: Partial<VideoCardModel> = (await videoState(store, video.id)) ?? {};
  const model: VideoCardModel = {
    ...base,
    videoId: video.id,
    name: video.name,
    phase: phaseOf(status?.status ?? video.status),
  };
  // A fresh read supersedes notes about an earlier watch and any stale estimate.
  delete model.notice;
  delete model.deletedBy;
  delete model.etaMs;
  if (video.model) model.model = video.model;
  if (status) model.percent = status.percentCompleted;
  if (status?.errorMessages.length) model.errorMessages = status.errorMessages;
  const thumbnails = cardThumbnailsOf(video.thumbnails, base.thumbnails);
  if (thumbnails) model.thumbnails = thumbnails;
  if (!model.render && video.renderedVideoUrl) {
    model.render = { renderId: '', status: 'done', progress: 1, url: video.renderedVideoUrl };
  }
  return model;
}
