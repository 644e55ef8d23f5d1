/**
 * The thumbnail phase of a `generation` watch: after completion, the card follows the video's thumbnails
 * until they are made, fail, or are not coming.
 */

import type { Watch } from '../ports/index.js';
import { command, md } from '../text/text.js';
import { cardModel, type GenerationState, result } from './generation-state.js';
import { onClock } from './service-time.js';
import { cardThumbnailsOf, thumbnailsPending } from './thumbnail-options.js';
import type { VideoEffects } from './video-card.js';
import type { WatchContext, WatchResult } from './watcher.js';

const SECOND = 1000;
/** Thumbnails come within seconds to a minute of completion: look more often. */
export const THUMBNAIL_BOUNDS = { min: 5 * SECOND, max: 15 * SECOND } as const;
/** Thumbnails that never settle stop being awaited after this. */
export const THUMBNAIL_WAIT_MS = 10 * 60 * SECOND;
/** `idle` means "never generated": after completion it should turn `queued` at once; if not, none are coming. */
export const IDLE_WAIT_MS = 2 * 60 * SECOND;

/** A look after completion: show the thumbnails as they change; stop when settled, or when none are coming. */
export async function checkThumbnails(
  ctx: WatchContext,
  watch: Watch,
  state: GenerationState,
): Promise<WatchResult> {
  const videoId = watch.target;
  const key = watch.cardKey ?? `video:${videoId}`;
  const video = await ctx.api.videos.get(videoId);
  const thumbnails = cardThumbnailsOf(video.thumbnails, (await cardModel(ctx.store, watch))?.thumbnails);
  const status = thumbnails?.status ?? 'idle';
  const pending = thumbnailsPending(status);
  const waited = ctx.now - (state.completedAt ?? ctx.now);
  const next: GenerationState = { ...state, thumbnails: status };
  const effects: VideoEffects = {};
  if (status !== state.thumbnails && thumbnails) {
    effects.patch = { thumbnails };
    effects.dedupe = `${key}:thumbnails:${status}:${thumbnails.variants.length}`;
  }
  if (status === 'idle' && waited >= onClock(IDLE_WAIT_MS, ctx.serviceSpeed)) {
    // None were ever started: show the video as complete without thumbnails rather than "on the way".
    effects.patch = { thumbnails: { status: 'none', variants: [] } };
    effects.dedupe = `${key}:thumbnails:none`;
    return result(watch, { state: next, done: true, effects });
  }
  if (pending && waited >= onClock(THUMBNAIL_WAIT_MS, ctx.serviceSpeed)) {
    effects.patch = {
      ...(effects.patch ?? {}),
      notice: md`Thumbnails are taking long; ${command('thumbnails', [videoId])} shows them once they are made.`,
    };
    effects.dedupe = `${key}:thumbnails:gave-up`;
    return result(watch, { state: next, done: true, effects });
  }
  return result(watch, {
    state: next,
    done: !pending,
    next: pending ? onClock(THUMBNAIL_BOUNDS.max / 2, ctx.serviceSpeed) : undefined,
    effects,
  });
}
