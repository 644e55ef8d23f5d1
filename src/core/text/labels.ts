/**
 * Words, not internal values (STYLE rule 16): the one labelling path for what a person reads. Catalog values
 * (`ai_story`, `scary_stories`, `motion_pro`) read as the catalogs name them ("AI-written story"), platform
 * values as platform names ("YouTube"), and ids as the names of the videos and series they stand for.
 * A value no catalog names is humanised ("true_crime" → "True crime"), never shown as snake_case.
 */
import type { CommandContext } from '../dispatch/context.js';
import { UserError } from '../dispatch/context.js';
import { type OptionItem, type OptionKind, VideoApiError } from '../video-api/video-api.js';

export { platformName } from '../platforms/names.js';

/** Short words a humanised value keeps in capitals. */
const ACRONYMS = new Set(['ai', 'tv', '3d', 'ui', 'ux', 'uk', 'us', 'eu']);

/** `scary_stories` → "Scary stories", `ai_story` → "AI story", `public` → "Public": when no catalog names a value. */
export function humanise(value: string): string {
  const words = value
    .trim()
    .split(/[\s_]+/)
    .filter(Boolean);
  const text = words.map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The catalog's items for `kind`, empty when the catalog cannot be read (the labels then humanise). */
async function catalogItems(ctx: CommandContext, kind: OptionKind): Promise<OptionItem[]> {
  try {
    return (await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), kind)).items;
  } catch (error) {
    if (error instanceof VideoApiError || error instanceof UserError) return [];
    throw error;
  }
}

/** A catalog value as the catalog (and so the forms) name it: `ai_story` → "AI-written story". */
export async function catalogLabel(ctx: CommandContext, kind: OptionKind, value: string): Promise<string> {
  return labelIn(await catalogItems(ctx, kind), value);
}

/** `value` as `items` name it, else humanised. */
export function labelIn(items: readonly OptionItem[], value: string): string {
  return items.find((i) => i.value === value)?.name || humanise(value);
}

/** Labels several values of one catalog with one read: for lists. */
export async function catalogLabeller(
  ctx: CommandContext,
  kind: OptionKind,
): Promise<(value: string) => string> {
  const items = await catalogItems(ctx, kind);
  return (value) => labelIn(items, value);
}

/** What a look-up of ids found: the names of those it could read, and the ids the service no longer knows. */
export interface IdNames {
  names: Map<string, string>;
  gone: Set<string>;
}

/**
 * Names for video ids: one list call, then a look at each id it did not name (at most `MAX_LOOKS`). `gone`
 * holds the ids the service no longer knows (deleted); an id it could not read either way is in neither.
 */
export async function videoNames(ctx: CommandContext, ids: readonly string[]): Promise<IdNames> {
  const names = new Map<string, string>();
  const gone = new Set<string>();
  if (ids.length === 0) return { names, gone };
  const api = await ctx.api();
  try {
    const { items } = await api.videos.list({ page: 1, limit: 100 });
    for (const v of items) if (v.name) names.set(v.id, v.name);
  } catch (error) {
    if (!(error instanceof VideoApiError)) throw error;
  }
  const missing = [...new Set(ids)].filter((id) => !names.has(id)).slice(0, MAX_LOOKS);
  await Promise.all(
    missing.map(async (id) => {
      try {
        const video = await api.videos.get(id);
        if (video.name) names.set(id, video.name);
      } catch (error) {
        if (!(error instanceof VideoApiError)) throw error;
        if (error.type === 'not_found') gone.add(id);
      }
    }),
  );
  return { names, gone };
}

/** Videos looked at one by one when the newest page does not name them. */
const MAX_LOOKS = 10;

/** Names for series ids (one list call: GET /series is not paged); `gone` holds the ids it no longer lists. */
export async function seriesNames(ctx: CommandContext, ids: readonly string[]): Promise<IdNames> {
  const names = new Map<string, string>();
  const gone = new Set<string>();
  if (ids.length === 0) return { names, gone };
  try {
    const api = await ctx.api();
    for (const s of await api.series.list()) if (s.name) names.set(s.id, s.name);
  } catch (error) {
    if (!(error instanceof VideoApiError)) throw error;
    return { names, gone };
  }
  for (const id of ids) if (!names.has(id)) gone.add(id);
  return { names, gone };
}
