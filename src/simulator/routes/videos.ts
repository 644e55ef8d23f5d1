import { z } from 'zod';
import { invalidInput } from '../errors.js';
import { chargeForVideo, paymentRefusal, refusalFor } from '../jobs/billing.js';
import { createVideo, nameFromScript } from '../jobs/generation.js';
import { cancelScheduled } from '../jobs/posting.js';
import type { Route } from '../router.js';
import { captionsBody, createVideoBody, patchVideoBody } from '../schemas/videos.js';
import { paginate, paginationQuery, queryBoolean, requireOption } from '../validation.js';
import {
  effectiveThumbnailUrl,
  newestFirst,
  statusUrl,
  storedBlocks,
  thumbnailsCompact,
  videoDetail,
  videoListItem,
} from '../views.js';
import { MINUTE, MODEL_CREDITS, PLATFORMS, POST_BLOCK_KEYS } from '../vocabulary.js';
import { defineRoute, ok } from './define.js';
import { ownVideo, pathId } from './lookup.js';
import { requireVoice } from './team-voices.js';

/** Video projects: create (script or captions), list, read, edit, delete. */
export const videoRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/videos',
    scope: 'videos:write',
    idempotent: true,
    limit: { max: 10, windowMs: MINUTE },
    body: createVideoBody,
    handle: ({ engine, team, now }, { body }) => {
      requireVoice(team, 'voiceId', body.voiceId);
      requireOption('styles', 'style', body.style);
      requireOption('languages', 'language', body.language);
      const cost = MODEL_CREDITS[body.model];
      const refusal = refusalFor(engine, team, cost) ?? paymentRefusal(engine, cost);
      if (refusal) throw refusal;
      const { script, voiceId, model, name, ...options } = body;
      const video = createVideo(engine, team, {
        kind: 'script',
        name: name ?? nameFromScript(script),
        platform: 'youtube',
        model,
        script,
        voiceId,
        options,
        generateThumbnails: true,
        at: now,
      });
      chargeForVideo(engine, team, {
        credits: cost,
        description: `Video generation (${model}): ${video.name}`,
        videoId: video.id,
        at: now,
      });
      return ok(
        {
          id: video.id,
          name: video.name,
          model: video.model,
          status: video.status,
          creditsUsed: cost,
          statusUrl: statusUrl(video.id),
        },
        201,
      );
    },
  }),

  defineRoute({
    method: 'POST',
    pattern: '/videos/captions',
    scope: 'videos:write',
    idempotent: true,
    limit: { max: 10, windowMs: 5 * MINUTE },
    body: captionsBody,
    handle: ({ engine, team, now }, { body }) => {
      const source = body.videoUrl ?? body.audioUrl;
      if (source === undefined) throw invalidInput('videoUrl: provide videoUrl or audioUrl (a public URL)');
      requireOption('languages', 'language', body.language);
      const refusal = refusalFor(engine, team, 0);
      if (refusal) throw refusal;
      const { name, ...options } = body;
      const video = createVideo(engine, team, {
        kind: 'captions',
        name: name ?? fileNameOf(source),
        platform: 'youtube',
        model: 'storyboard',
        script: '',
        voiceId: '',
        options,
        generateThumbnails: true,
        at: now,
      });
      return ok({ id: video.id, status: video.status, statusUrl: statusUrl(video.id) }, 201);
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/videos',
    scope: 'videos:read',
    query: z.strictObject({ ...paginationQuery, archived: queryBoolean.optional() }),
    handle: ({ engine, team, origin }, { query }) => {
      const archived = query.archived === true;
      const videos = newestFirst(engine.store.videosOf(team.id).filter((v) => v.archived === archived));
      const { items, pagination } = paginate(videos, query);
      return { status: 200, data: items.map((v) => videoListItem(v, origin)), pagination };
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/videos/{id}',
    scope: 'videos:read',
    handle: (ctx) => ok(videoDetail(ownVideo(ctx, pathId(ctx)), ctx.origin)),
  }),

  defineRoute({
    method: 'PATCH',
    pattern: '/videos/{id}',
    scope: 'videos:write',
    body: patchVideoBody,
    handle: (ctx, { body }) => {
      const video = ownVideo(ctx, pathId(ctx));
      if (body.name !== undefined) video.name = body.name;
      // A block is replaced as a whole: what is sent is what is stored.
      for (const platform of PLATFORMS) {
        const key = POST_BLOCK_KEYS[platform];
        const block = body[key];
        if (block !== undefined) video.posts[key] = { ...block };
      }
      return ok({
        id: video.id,
        name: video.name,
        ...storedBlocks(video),
        thumbnailUrl: effectiveThumbnailUrl(video, ctx.origin),
        thumbnails: thumbnailsCompact(video, ctx.origin),
      });
    },
  }),

  defineRoute({
    method: 'DELETE',
    pattern: '/videos/{id}',
    scope: 'videos:write',
    handle: (ctx) => {
      const video = ownVideo(ctx, pathId(ctx));
      const { store } = ctx.engine;
      cancelScheduled(ctx.engine, video.id);
      store.videos.delete(video.id);
      // "Permanently deletes the video and its generated assets": its renders go too. No refund.
      for (const render of [...store.renders.values()])
        if (render.videoId === video.id) store.renders.delete(render.id);
      return ok({ deleted: true });
    },
  }),
];

function fileNameOf(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop();
  if (!last) return 'Captioned video';
  try {
    return decodeURIComponent(last).slice(0, 120);
  } catch {
    return last.slice(0, 120);
  }
}
