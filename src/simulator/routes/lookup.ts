import { notFound } from '../errors.js';
import { OBJECT_ID } from '../random.js';
import type { RenderRec, SeriesRec, Store, VideoRec } from '../records.js';
import type { RouteContext } from '../router.js';

/**
 * A finder of one kind of resource (`what`, kept in `collection`). Resources are found only by a
 * well-formed object id within the caller's team: unknown ids, malformed ids and other teams' resources are
 * all the same 404 (spec §5, §7).
 */
function ownIn<T extends { teamId: string }>(
  what: string,
  collection: (store: Store) => ReadonlyMap<string, T>,
): (ctx: RouteContext, id: string) => T {
  return (ctx, id) => {
    const rec = OBJECT_ID.test(id) ? collection(ctx.engine.store).get(id) : undefined;
    if (!rec || rec.teamId !== ctx.team.id) throw notFound(`${what} '${id.slice(0, 64)}' not found`);
    return rec;
  };
}

export const ownVideo: (ctx: RouteContext, id: string) => VideoRec = ownIn('Video', (s) => s.videos);
export const ownRender: (ctx: RouteContext, id: string) => RenderRec = ownIn('Render', (s) => s.renders);
const ownAnySeries = ownIn('Series', (s) => s.series);

export function ownSeries(ctx: RouteContext, id: string): SeriesRec {
  const series = ownAnySeries(ctx, id);
  if (series.deleted) throw notFound(`Series '${id}' not found`);
  return series;
}

export function pathId(ctx: RouteContext): string {
  return ctx.params.id ?? '';
}
