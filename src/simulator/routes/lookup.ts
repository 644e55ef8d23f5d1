import { notFound } from '../errors.js';
import { OBJECT_ID } from '../random.js';
import type { RenderRec, SeriesRec, VideoRec } from '../records.js';
import type { RouteContext } from '../router.js';

/**
 * Resources are found only by a well-formed object id within the caller's team: unknown ids, malformed
 * ids and other teams' resources are all the same 404 (spec §5, §7).
 */
function own<T extends { teamId: string }>(
  ctx: RouteContext,
  map: ReadonlyMap<string, T>,
  id: string,
  what: string,
): T {
  const rec = OBJECT_ID.test(id) ? map.get(id) : undefined;
  if (!rec || rec.teamId !== ctx.team.id) throw notFound(`${what} '${id.slice(0, 64)}' not found`);
  return rec;
}

export const ownVideo = (ctx: RouteContext, id: string): VideoRec =>
  own(ctx, ctx.engine.store.videos, id, 'Video');
export const ownRender = (ctx: RouteContext, id: string): RenderRec =>
  own(ctx, ctx.engine.store.renders, id, 'Render');

export function ownSeries(ctx: RouteContext, id: string): SeriesRec {
  const series = own(ctx, ctx.engine.store.series, id, 'Series');
  if (series.deleted) throw notFound(`Series '${id}' not found`);
  return series;
}

export function pathId(ctx: RouteContext): string {
  return ctx.params.id ?? '';
}
