/**
 * A video or series is named by id, a unique name prefix, or `last` (the caller's most recent).
 * Resolution reads the team's lists with the caller's key, so another team's ids are simply not found.
 */
import { type CommandContext, userError } from '../dispatch/context.js';
import { isNotFound, readOrNotFound } from '../text/not-found.js';
import { code, literal } from '../text/text.js';
import { videoPages } from './video-pages.js';

export interface Ref {
  id: string;
  name: string;
}

/** Pages of 100 a name is looked for in: the newest 5,000 videos, at most 50 reads of the list. */
const NAME_PAGES = 50;
/** Pages read before a name that only starts with the reference is taken for it. */
const PREFIX_PAGES = 3;
/** What the service's ids look like (24 hexadecimal digits), not a name a person gives. */
const ID_LIKE = /^[0-9a-f]{16,}$/i;

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

/**
 * A video by id, `last`, or name. Names are looked for newest first, a page of 100 at a time, until a video
 * has exactly that name (the newest ones of that name are meant), or the newest `PREFIX_PAGES` pages hold one
 * whose name starts with it, or after `NAME_PAGES` pages. An id not on the newest page is one read away.
 */
export async function resolveVideo(ctx: CommandContext, ref: string): Promise<Ref> {
  const api = await ctx.api();
  const wanted = ref.trim();
  const last = await lastOf(ctx, { wanted, kind: 'video' });
  if (last) return byId(ctx, last, wanted);
  const candidates: Ref[] = [];
  let readById = false;
  for await (const { page, items, more } of videoPages(api, { maxPages: NAME_PAGES })) {
    for (const v of items) {
      if (v.id === wanted) return { id: v.id, name: v.name };
      candidates.push({ id: v.id, name: v.name });
    }
    if (!more || found(candidates, wanted, page)) break;
    // Not on the newest page: an id (never with spaces) is one read away, instead of more pages.
    if (page === 1 && !/\s/.test(wanted)) {
      const read = await byIdOrUndefined(ctx, wanted);
      if (read) return read;
      readById = true;
      // An id the service does not know is no name either: no need to read further pages for it.
      if (ID_LIKE.test(wanted)) break;
    }
  }
  const picked = pick(candidates, wanted, 'video');
  if (picked) return picked;
  if (readById) throw userError('not-found-video', { ref: wanted });
  return byId(ctx, wanted, wanted);
}

/**
 * Whether the walk has read enough: a name that is exactly `wanted` (case-insensitive), or, after the newest
 * `PREFIX_PAGES` pages, one that starts with it. Before that, a later page may still hold the exact name.
 */
function found(candidates: Ref[], wanted: string, page: number): boolean {
  const lower = wanted.toLowerCase();
  const names = candidates.map((c) => c.name.toLowerCase());
  return names.includes(lower) || (page >= PREFIX_PAGES && names.some((n) => n.startsWith(lower)));
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
