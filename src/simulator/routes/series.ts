import { z } from 'zod';
import { ApiError, invalidInput } from '../errors.js';
import {
  episodeStatus,
  generateEpisode,
  SERIES_DEFAULTS,
  startCadence,
  startSeries,
} from '../jobs/series.js';
import type { SeriesRec, TeamRec } from '../records.js';
import type { Route } from '../router.js';
import { createSeriesBody, patchSeriesBody, type SeriesInput } from '../schemas/series.js';
import { paginate, paginationQuery, requireOption } from '../validation.js';
import { iso, newestFirst, statusUrl } from '../views.js';
import { MINUTE, PLATFORMS } from '../vocabulary.js';
import { defineRoute, ok } from './define.js';
import { ownSeries, pathId } from './lookup.js';
import { requireVoice } from './team-voices.js';

/** Catalog-backed series fields and the team's accounts/voices they refer to. */
function checkReferences(team: TeamRec, input: SeriesInput): void {
  requireOption('sources', 'source', input.source);
  requireOption('niches', 'niche', input.niche);
  requireOption('styles', 'style', input.style);
  requireOption('languages', 'language', input.language);
  requireOption('captionThemes', 'captionStyle', input.captionStyle);
  requireOption('backgrounds', 'backgroundVideo', input.backgroundVideo);
  requireOption('music', 'backgroundMusicMood', input.backgroundMusicMood);
  requireVoice(team, 'voice', input.voice);
  const known = new Set(PLATFORMS.flatMap((p) => team.accounts[p].map((a) => a.authId)));
  input.destinationAccounts?.forEach((id, i) => {
    if (!known.has(id))
      throw invalidInput(`destinationAccounts[${i}]: unknown account '${id}'; see GET /accounts`);
  });
}

function seriesSummary(series: SeriesRec) {
  const c = series.config;
  return { id: series.id, name: c.name, source: c.source, niche: c.niche, paused: series.paused };
}

/** The configuration with the defaults the simulator applies. */
function seriesDetail(series: SeriesRec) {
  return {
    id: series.id,
    ...SERIES_DEFAULTS,
    ...series.config,
    paused: series.paused,
    createdAt: iso(series.createdAt),
  };
}

const CADENCE_FIELDS = ['autoPostTime', 'timezone', 'postingDays'] as const;

export const seriesRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/series',
    scope: 'series:write',
    idempotent: true,
    limit: { max: 5, windowMs: 5 * MINUTE },
    body: createSeriesBody,
    handle: ({ engine, team, now }, { body }) => {
      checkReferences(team, body);
      const series: SeriesRec = {
        id: engine.newId(now),
        teamId: team.id,
        seq: engine.store.nextSeq(),
        createdAt: now,
        config: { ...body },
        paused: false,
        deleted: false,
        cadenceVersion: 0,
        episodeCount: 0,
      };
      engine.store.series.set(series.id, series);
      // No credits at creation; the first episode (charged on its own) starts generating right away.
      startSeries(engine, series, now);
      return ok(
        { id: series.id, name: body.name, source: body.source, niche: body.niche, createdAt: iso(now) },
        201,
      );
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/series',
    scope: 'series:read',
    handle: ({ engine, team }) =>
      ok(
        newestFirst([...engine.store.series.values()].filter((s) => s.teamId === team.id && !s.deleted)).map(
          seriesSummary,
        ),
      ),
  }),

  defineRoute({
    method: 'GET',
    pattern: '/series/{id}',
    scope: 'series:read',
    handle: (ctx) => ok(seriesDetail(ownSeries(ctx, pathId(ctx)))),
  }),

  defineRoute({
    method: 'PATCH',
    pattern: '/series/{id}',
    scope: 'series:write',
    body: patchSeriesBody,
    handle: (ctx, { body }) => {
      const series = ownSeries(ctx, pathId(ctx));
      checkReferences(ctx.team, body);
      const { paused, ...config } = body;
      Object.assign(series.config, config);
      if (paused !== undefined) series.paused = paused;
      if (CADENCE_FIELDS.some((f) => body[f] !== undefined)) startCadence(ctx.engine, series, ctx.now);
      return ok({ id: series.id, name: series.config.name, ...body });
    },
  }),

  defineRoute({
    method: 'DELETE',
    pattern: '/series/{id}',
    scope: 'series:write',
    handle: (ctx) => {
      // Stops future generation; episodes already generated (and their videos) stay.
      ownSeries(ctx, pathId(ctx)).deleted = true;
      return ok({ deleted: true });
    },
  }),

  defineRoute({
    method: 'POST',
    pattern: '/series/{id}/generate',
    scope: 'series:write',
    idempotent: true,
    limit: { max: 5, windowMs: 5 * MINUTE },
    handle: (ctx) => {
      const series = ownSeries(ctx, pathId(ctx));
      const result = generateEpisode(ctx.engine, series, { at: ctx.now, mode: 'manual' });
      if (result instanceof ApiError) throw result;
      return ok({ projectId: result.video.id, statusUrl: statusUrl(result.video.id) });
    },
  }),

  defineRoute({
    method: 'GET',
    pattern: '/series/{id}/episodes',
    scope: 'series:read',
    query: z.strictObject(paginationQuery),
    handle: (ctx, { query }) => {
      const series = ownSeries(ctx, pathId(ctx));
      const { engine } = ctx;
      const episodes = newestFirst(
        [...engine.store.episodes.values()].filter((e) => e.seriesId === series.id),
      );
      const { items, pagination } = paginate(episodes, query);
      const data = items.map((e) => ({
        id: e.id,
        projectId: e.projectId,
        status: episodeStatus(engine, e),
        scheduledTime: iso(e.scheduledAt),
        createdAt: iso(e.createdAt),
      }));
      return { status: 200, data, pagination };
    },
  }),
];
