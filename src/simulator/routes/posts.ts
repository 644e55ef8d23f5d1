import { conflict, invalidInput } from '../errors.js';
import {
  accountFor,
  cancelScheduled,
  postTitle,
  queueScheduledPost,
  recordPublished,
} from '../jobs/posting.js';
import { latestRender, startRender } from '../jobs/renders.js';
import type { CalendarRec } from '../records.js';
import type { Route } from '../router.js';
import { calendarQuery, publishBody, scheduleBody } from '../schemas/posts.js';
import { calendarView, iso } from '../views.js';
import { DAY, MINUTE, POST_BLOCK_KEYS } from '../vocabulary.js';
import { defineRoute, ok } from './define.js';
import { ownVideo, pathId } from './lookup.js';

/** Publishing now, scheduling, unscheduling and the calendar. */
export const postRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/posts',
    scope: 'posts:write',
    idempotent: true,
    limit: { max: 10, windowMs: 5 * MINUTE },
    body: publishBody,
    handle: (ctx, { body }) => {
      const video = ownVideo(ctx, body.videoId);
      if (video.renderedPath === null && body.videoUrl === undefined) {
        throw invalidInput(
          `videoId: video '${video.id}' has not been rendered; render it first (POST /videos/{id}/render) or pass videoUrl`,
        );
      }
      const account = accountFor(ctx.team, body.platform, body.authId);
      if (!account) {
        throw invalidInput(
          body.authId === undefined
            ? `platform: no ${body.platform} account is connected; connect one in the dashboard`
            : `authId: no connected ${body.platform} account has authId '${body.authId}'; see GET /accounts`,
        );
      }
      if (ctx.engine.knobs.publishFailurePlatforms.includes(body.platform)) {
        throw invalidInput(
          `platform: ${body.platform} refused the upload: the account's authorization has expired; reconnect it in the dashboard`,
        );
      }
      const post = recordPublished(ctx.engine, {
        team: ctx.team,
        video,
        platform: body.platform,
        account,
        title: postTitle(video, body.platform, body.title),
        at: ctx.now,
      });
      return ok({ platform: body.platform, videoId: video.id, postUrl: post.postUrl });
    },
  }),

  defineRoute({
    method: 'POST',
    pattern: '/posts/schedule',
    scope: 'posts:write',
    idempotent: true,
    limit: { max: 20, windowMs: 5 * MINUTE },
    body: scheduleBody,
    handle: (ctx, { body }) => {
      const { engine, team, now } = ctx;
      const video = ownVideo(ctx, body.videoId);
      const scheduledAt = Date.parse(body.scheduledTime);
      if (scheduledAt <= now) {
        throw invalidInput(`scheduledTime: must be in the future (it is now ${iso(now)})`);
      }
      const duplicate = body.platforms.find((p, i) => body.platforms.indexOf(p) !== i);
      if (duplicate !== undefined) throw invalidInput(`platforms: ${duplicate} is listed more than once`);
      const missing = body.platforms.filter((p) => video.posts[POST_BLOCK_KEYS[p]] === undefined);
      if (missing.length > 0) {
        const needs = missing.map((p) => `${p} (${POST_BLOCK_KEYS[p]})`).join(', ');
        throw invalidInput(
          `platforms: no post metadata stored on the video for ${needs}; set it first with PATCH /videos/{id}`,
        );
      }
      if (video.status === 'failed') {
        throw invalidInput(`videoId: video '${video.id}' failed to generate and cannot be scheduled`);
      }
      // "Renders the video first if needed"; a video still generating is rendered when it completes.
      const render = latestRender(engine, video.id);
      if (video.status === 'completed' && video.renderedPath === null && render?.status !== 'in-progress') {
        startRender(engine, video, { codec: 'h264', at: now });
      }
      const taskId = engine.newId(now);
      for (const platform of body.platforms) {
        const entry: CalendarRec = {
          id: engine.newId(now),
          teamId: team.id,
          seq: engine.store.nextSeq(),
          taskId,
          videoId: video.id,
          platform,
          scheduledAt,
          status: 'scheduled',
        };
        engine.store.calendar.set(entry.id, entry);
        queueScheduledPost(engine, entry);
      }
      return ok({ taskId, platforms: [...body.platforms], scheduledTime: iso(scheduledAt) }, 201);
    },
  }),

  defineRoute({
    method: 'DELETE',
    pattern: '/posts/{id}',
    scope: 'posts:write',
    handle: (ctx) => {
      const video = ownVideo(ctx, pathId(ctx));
      if (cancelScheduled(ctx.engine, video.id) === 0) {
        throw conflict(`Nothing is scheduled for video '${video.id}' any more; re-read GET /calendar`);
      }
      return ok({ cancelled: true });
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/calendar',
    scope: 'posts:read',
    query: calendarQuery,
    handle: ({ engine, team }, { query }) => {
      const start = parseDateBound('startDate', query.startDate, 'start');
      const end = parseDateBound('endDate', query.endDate, 'end');
      if (end < start) throw invalidInput('endDate: must not be before startDate');
      const entries = [...engine.store.calendar.values()]
        .filter(
          (e) =>
            e.teamId === team.id &&
            e.status !== 'cancelled' &&
            e.scheduledAt >= start &&
            e.scheduledAt <= end &&
            (query.platform === undefined || e.platform === query.platform) &&
            (query.status === undefined || e.status === query.status),
        )
        .sort((a, b) => a.scheduledAt - b.scheduledAt || a.seq - b.seq);
      return ok(entries.map(calendarView));
    },
  }),
];

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Inclusive bounds: a calendar date (YYYY-MM-DD, a UTC day) covers the whole day; a full ISO 8601
 * timestamp is taken as the exact instant.
 */
function parseDateBound(field: string, value: string, side: 'start' | 'end'): number {
  const date = CALENDAR_DATE.exec(value);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]) - 1, Number(date[3])];
    const ms = Date.UTC(y, m, d);
    const check = new Date(ms);
    if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m || check.getUTCDate() !== d) {
      throw invalidInput(`${field}: '${value}' is not a calendar date`);
    }
    return side === 'start' ? ms : ms + DAY - 1;
  }
  const ms = ISO_TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidInput(`${field}: must be a date YYYY-MM-DD or an ISO 8601 timestamp`);
  return ms;
}
