import { invalidInput } from '../errors.js';
import { generationEvents } from '../jobs/generation.js';
import { startRender } from '../jobs/renders.js';
import type { Route } from '../router.js';
import { renderBody, selectThumbnailBody } from '../schemas/videos.js';
import {
  API_PREFIX,
  effectiveThumbnailUrl,
  renderedVideoUrl,
  renderView,
  thumbnailsCompact,
  videoProgress,
} from '../views.js';
import { MINUTE } from '../vocabulary.js';
import { defineRoute, ok } from './define.js';
import { ownRender, ownVideo, pathId } from './lookup.js';

/** The asynchronous side of a video: generation status, thumbnail pick, renders. */
export const videoJobRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    pattern: '/videos/{id}/status',
    scope: 'videos:read',
    handle: (ctx) => {
      const video = ownVideo(ctx, pathId(ctx));
      return ok({
        id: video.id,
        status: video.status,
        ...videoProgress(video, ctx.now),
        errorMessages: [...video.errorMessages],
        renderedVideoUrl: renderedVideoUrl(video, ctx.origin),
        events: generationEvents(video, ctx.now),
      });
    },
  }),

  defineRoute({
    method: 'POST',
    pattern: '/videos/{id}/thumbnail',
    scope: 'videos:write',
    body: selectThumbnailBody,
    handle: (ctx, { body }) => {
      const video = ownVideo(ctx, pathId(ctx));
      const thumbs = video.thumbnails;
      if (!thumbs.variants.some((v) => v.id === body.variantId)) {
        const why =
          thumbs.variants.length === 0
            ? `the video has no thumbnail variants (thumbnails.status is '${thumbs.status}')`
            : 'pick one of thumbnails.variants[].id from GET /videos/{id}';
        throw invalidInput(`variantId: no variant '${body.variantId}' on this video; ${why}`);
      }
      thumbs.selectedVariantId = body.variantId;
      thumbs.selectedBy = 'user';
      return ok({
        id: video.id,
        thumbnailUrl: effectiveThumbnailUrl(video, ctx.origin),
        thumbnails: thumbnailsCompact(video, ctx.origin),
      });
    },
  }),

  defineRoute({
    method: 'POST',
    pattern: '/videos/{id}/render',
    scope: 'videos:write',
    idempotent: true,
    limit: { max: 10, windowMs: 5 * MINUTE },
    body: renderBody,
    handle: (ctx, { body }) => {
      const video = ownVideo(ctx, pathId(ctx));
      if (video.status !== 'completed') {
        throw invalidInput(
          `status: the video's generation status is '${video.status}'; rendering requires 'completed'`,
        );
      }
      const render = startRender(ctx.engine, video, { codec: body.codec, at: ctx.now });
      return ok({ renderId: render.id, statusUrl: `${API_PREFIX}/renders/${render.id}` }, 202);
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/renders/{id}',
    scope: 'videos:read',
    handle: (ctx) => ok(renderView(ownRender(ctx, pathId(ctx)), ctx.now, ctx.origin)),
  }),
];
