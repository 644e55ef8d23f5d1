/**
 * A video or series is named by id, a unique name prefix, or `last` (the caller's most recent).
 * Resolution reads the team's lists with the caller's key, so another team's ids are simply not found.
 */
import { type CommandContext, userError } from '../dispatch/context.js';
import { isNotFound, readOrNotFound } from '../text/not-found.js';
import { code, literal } from '../text/text.js';

export interface Ref {
  id: string;
  name: string;
}

const LIST_PAGES = 3;

/** The id this member last worked on when `wanted` is `last` (refused when there is none), else undefined. */
async function lastOf(
  ctx: CommandContext,
  { wanted, kind }: { wanted: string; kind: 'video' | 'series' },
): Promise<string | undefined> {
  if (wanted.toLowerCase() !== 'last') return undefined;
  const id = await ctx.deps.store.users.getLast(ctx.req.user, kind);
  if (!id) throw userError('no-last', { kind });
  return id;
}

export async function resolveVideo(ctx: CommandContext, ref: string): Promise<Ref> {
  const api = await ctx.api();
  const wanted = ref.trim();
  const last = await lastOf(ctx, { wanted, kind: 'video' });
  if (last) return byId(ctx, last, wanted);
  const candidates: Ref[] = [];
  let readById = false;
  for (let page = 1; page <= LIST_PAGES; page++) {
    const { items, pagination } = await api.videos.list({ page, limit: 100 });
    for (const v of items) {
      if (v.id === wanted) return { id: v.id, name: v.name };
      candidates.push({ id: v.id, name: v.name });
    }
    if (page * pagination.limit >= pagination.total) break;
    // Not on the newest page: an id (never with spaces) is one read away, instead of two more pages.
    if (page === 1 && !/\s/.test(wanted)) {
      const found = await byIdOrUndefined(ctx, wanted);
      if (found) return found;
      readById = true;
    }
  }
  const picked = pick(candidates, wanted, 'video');
  if (picked) return picked;
  if (readById) throw userError('not-found-video', { ref: wanted });
  return byId(ctx, wanted, wanted);
}

export async function resolveSeries(ctx: CommandContext, ref: string): Promise<Ref> {
  const api = await ctx.api();
  const wanted = ref.trim();
  const last = await lastOf(ctx, { wanted, kind: 'series' });
  if (last) return { id: last, name: (await getSeries(ctx, last, wanted)).name };
  const all = await api.series.list();
  const exact = all.find((s) => s.id === wanted);
  if (exact) return { id: exact.id, name: exact.name };
  const picked = pick(
    all.map((s) => ({ id: s.id, name: s.name })),
    wanted,
    'series',
  );
  if (picked) return picked;
  return { id: wanted, name: (await getSeries(ctx, wanted, wanted)).name };
}

/** Exact name (case-insensitive) wins; otherwise a unique prefix; several prefixes is ambiguous. */
function pick(candidates: Ref[], wanted: string, kind: 'video' | 'series'): Ref | undefined {
  const lower = wanted.toLowerCase();
  const exact = candidates.filter((c) => c.name.toLowerCase() === lower);
  if (exact.length === 1) return exact[0];
  const prefixed =
    exact.length > 1 ? exact : candidates.filter((c) => c.name.toLowerCase().startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  if (prefixed.length > 1) {
    const matches = prefixed
      .slice(0, 5)
      .map((c) => `${literal(c.name)} (${code(c.id)})`)
      .join(', ');
    throw userError(`ambiguous-${kind}`, { ref: wanted, matches });
  }
  return undefined;
}

async function byIdOrUndefined(ctx: CommandContext, id: string): Promise<Ref | undefined> {
  try {
    const api = await ctx.api();
    const v = await api.videos.get(id);
    return { id: v.id, name: v.name };
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function byId(ctx: CommandContext, id: string, ref: string): Promise<Ref> {
  const found = await byIdOrUndefined(ctx, id);
  if (!found) throw userError('not-found-video', { ref });
  return found;
}

const getSeries = (ctx: CommandContext, id: string, ref: string) =>
  readOrNotFound(async () => (await ctx.api()).series.get(id), 'not-found-series', ref);
