/**
 * Turning what a user typed into catalog values before anything is sent: voices by name, prefix or id
 * (optionally within a language), styles and languages by value or display name, models with their cost.
 */
import type { CommandContext } from '../dispatch/context.js';
import { userError } from '../dispatch/context.js';
import { code, literal } from '../text/text.js';
import { type OptionItem, type OptionKind, VideoApiError, type Voice } from '../video-api/video-api.js';

const norm = (s: string): string => s.trim().toLowerCase();

/** `en` matches `en`, `en-US` and `English`-labelled values only through the catalog value (normalised first). */
export function speaks(voice: Voice, language: string): boolean {
  const wanted = norm(language).split(/[-_]/)[0] as string;
  const spoken = [voice.labels?.language, ...(voice.targetLanguages ?? [])]
    .filter((l): l is string => typeof l === 'string')
    .map((l) => norm(l).split(/[-_]/)[0]);
  return spoken.includes(wanted);
}

/** Whether `language` is the voice's own (its label), not only one it can also read. */
const native = (voice: Voice, language: string): boolean =>
  norm(voice.labels?.language ?? '').split(/[-_]/)[0] === norm(language).split(/[-_]/)[0];

/**
 * The default voice: the first recommended voice speaking `language` (native speakers before voices that
 * merely list it), then the first voice speaking it, then the first recommended voice, then the first voice.
 */
export function defaultVoice(voices: readonly Voice[], language?: string): Voice | undefined {
  if (!language) return voices.find((v) => v.isRecommended) ?? voices[0];
  const speakers = voices.filter((v) => speaks(v, language));
  const recommended = speakers.filter((v) => v.isRecommended);
  return (
    recommended.find((v) => native(v, language)) ??
    recommended[0] ??
    speakers.find((v) => native(v, language)) ??
    speakers[0] ??
    voices.find((v) => v.isRecommended) ??
    voices[0]
  );
}

/** A voice named by id (exact), name (case-insensitive) or a unique name prefix, within `language` if given. */
export function pickVoice(voices: readonly Voice[], ref: string, language?: string): Voice {
  const wanted = norm(ref);
  const byId = voices.find((v) => v.id === ref.trim());
  if (byId) return byId;
  const pool = language ? voices.filter((v) => speaks(v, language)) : [...voices];
  const exact = pool.filter((v) => norm(v.name) === wanted);
  if (exact.length === 1) return exact[0] as Voice;
  const prefixed = exact.length > 1 ? exact : pool.filter((v) => norm(v.name).startsWith(wanted));
  if (prefixed.length === 1) return prefixed[0] as Voice;
  if (prefixed.length > 1) {
    const matches = prefixed
      .slice(0, 5)
      .map((v) => `${literal(v.name)} (${code(v.id)})`)
      .join(', ');
    throw userError('ambiguous-voice', { ref, matches });
  }
  if (language && voices.some((v) => norm(v.name).startsWith(wanted))) {
    throw userError('voice-wrong-language', { ref, language });
  }
  throw userError('not-found-voice', { ref });
}

export async function loadVoices(ctx: CommandContext): Promise<Voice[]> {
  return ctx.deps.catalog.voices(await ctx.api(), await ctx.apiKeyId());
}

/**
 * A catalog value (style, language…) typed as its value or display name, case-insensitively. When the
 * catalog cannot be read (e.g. the key lacks `catalog:read`) the value goes through as typed and the
 * service judges it.
 */
export async function catalogValue(
  ctx: CommandContext,
  { kind, option, typed }: { kind: OptionKind; option: string; typed: string },
): Promise<string> {
  let items: OptionItem[];
  try {
    items = (await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), kind)).items;
  } catch (error) {
    if (error instanceof VideoApiError) return typed.trim();
    throw error;
  }
  if (items.length === 0) return typed.trim();
  const wanted = norm(typed);
  const hit = items.find((i) => norm(i.value) === wanted) ?? items.find((i) => norm(i.name) === wanted);
  if (hit) return hit.value;
  throw userError('bad-choice', { option, value: typed, allowed: items.map((i) => i.value).join(', ') });
}

/** The models catalog with credits (GET /options?kind=models, cached). */
export async function modelCatalog(ctx: CommandContext): Promise<OptionItem[]> {
  return (await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), 'models')).items;
}

/** `motion_pro (100 credits)` */
export const modelWithCost = (item: OptionItem): string =>
  item.credits === undefined ? item.value : `${item.value} (${item.credits} credits)`;
