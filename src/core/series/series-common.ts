/**
 * Small pieces the series commands share: cost and voice look-ups, the configuration fields of a series
 * card, and re-reading a series by id from a button. (Idempotency keys: src/core/dispatch/request-id.ts.)
 */

import type { CommandContext } from '../dispatch/context.js';
import type { Field } from '../text/cards.js';
import { catalogLabeller, humanise, platformName } from '../text/labels.js';
import { readOrNotFound } from '../text/not-found.js';
import { literal } from '../text/text.js';
import { type Series, VideoApiError } from '../video-api/video-api.js';
import { type Cadence, daysOf, describeSchedule, formatWhen, nextPostTime } from './cadence.js';

/** The service's default model for a series when none was chosen (spec §4: brollModel optional). */
export const DEFAULT_SERIES_MODEL = 'storyboard';

/** Credits one episode costs with this model, from GET /options?kind=models; undefined if unreadable. */
export async function episodeCost(ctx: CommandContext, model: string): Promise<number | undefined> {
  try {
    return await ctx.deps.catalog.modelCost(await ctx.api(), await ctx.apiKeyId(), model);
  } catch (e) {
    if (e instanceof VideoApiError) return undefined;
    throw e;
  }
}

/** A voice's display name; the id when the catalog cannot say. */
export async function voiceName(ctx: CommandContext, id: string): Promise<string> {
  try {
    const voices = await ctx.deps.catalog.voices(await ctx.api(), await ctx.apiKeyId());
    return voices.find((v) => v.id === id)?.name ?? id;
  } catch (e) {
    if (e instanceof VideoApiError) return id;
    throw e;
  }
}

/** A video's name (episodes are named by the service); `fallback` when it cannot be read. */
export async function videoName(ctx: CommandContext, id: string, fallback: string): Promise<string> {
  try {
    const api = await ctx.api();
    return (await api.videos.get(id)).name || fallback;
  } catch (e) {
    if (e instanceof VideoApiError) return fallback;
    throw e;
  }
}

/** The team's balance from GET /me; undefined if unreadable (the message then omits it). */
export async function balance(ctx: CommandContext): Promise<number | undefined> {
  try {
    const api = await ctx.api();
    return (await api.me.get()).team.credits;
  } catch (e) {
    if (e instanceof VideoApiError) return undefined;
    throw e;
  }
}

/** GET /series/{id} for a button's id; a deleted series reads as "not found" in words. */
export const getSeriesById = (ctx: CommandContext, id: string): Promise<Series> =>
  readOrNotFound(async () => (await ctx.api()).series.get(id), 'not-found-series', id);

export const cadenceOf = (s: Series): Cadence => {
  const c: Cadence = { postingDays: daysOf(s.postingDays) };
  if (s.autoPostTime) c.autoPostTime = s.autoPostTime;
  if (s.timezone) c.timezone = s.timezone;
  return c;
};

/** "Tue 3 Mar, 09:00 (Europe/Paris) · 08:00 your time": the series' zone, and the caller's when different. */
export async function nextPostText(ctx: CommandContext, s: Series): Promise<string | undefined> {
  if (s.paused) return undefined;
  const at = nextPostTime(cadenceOf(s), ctx.now());
  if (at === undefined) return undefined;
  const zone = s.timezone ?? 'UTC';
  const mine = await ctx.timeZone();
  return zone === mine ? formatWhen(at, zone) : `${formatWhen(at, zone)} · ${formatWhen(at, mine)} your time`;
}

const onOff = (v: boolean | undefined) => (v === undefined ? undefined : v ? 'on' : 'off');

/** The configuration as card fields (values escaped, in words); `full` adds the less common settings (`series show`). */
export async function configFields(ctx: CommandContext, s: Series, full: boolean): Promise<Field[]> {
  const model = s.brollModel ?? DEFAULT_SERIES_MODEL;
  const cost = await episodeCost(ctx, model);
  const [source, niche, models] = await Promise.all([
    catalogLabeller(ctx, 'sources'),
    catalogLabeller(ctx, 'niches'),
    catalogLabeller(ctx, 'models'),
  ]);
  const label = (of: (v: string) => string, v: string | undefined) => (v ? of(v) : undefined);
  const rows: [string, string | undefined, boolean][] = [
    ['Status', s.paused ? '⏸️ Paused' : '▶️ Active', true],
    ['Source', label(source, s.source), true],
    ['Niche', label(niche, s.niche), true],
    ['Voice', s.voice ? await voiceName(ctx, s.voice) : undefined, true],
    ['Model', cost === undefined ? models(model) : `${models(model)} · ${cost} credits per episode`, true],
    ['Duration', s.duration ? `${s.duration} s` : undefined, true],
    ['Schedule', describeSchedule(cadenceOf(s)), false],
    ['Next post', await nextPostText(ctx, s), false],
    [
      'Posts to',
      s.destination
        ? `${platformName(s.destination)}${s.destinationAccounts?.length ? ` (${s.destinationAccounts.length} account${s.destinationAccounts.length === 1 ? '' : 's'})` : ''}`
        : undefined,
      true,
    ],
  ];
  if (full) {
    const [style, language, music, captions, subreddit, background] = await Promise.all([
      catalogLabeller(ctx, 'styles'),
      catalogLabeller(ctx, 'languages'),
      catalogLabeller(ctx, 'music'),
      catalogLabeller(ctx, 'captionThemes'),
      catalogLabeller(ctx, 'subreddits'),
      catalogLabeller(ctx, 'backgrounds'),
    ]);
    rows.push(
      ['Style', label(style, s.style), true],
      ['Language', label(language, s.language), true],
      [
        'Music',
        [onOff(s.enableBackgroundMusic), label(music, s.backgroundMusicMood)].filter(Boolean).join(' · ') ||
          undefined,
        true,
      ],
      ['Captions', label(captions, s.captionStyle), true],
      ['Thumbnails', onOff(s.generateThumbnails), true],
      ['YouTube privacy', label(humanise, s.youtubePrivacyStatus), true],
      ['Subreddit', label(subreddit, s.subreddit), true],
      ['Tone', s.tone, true],
      ['Layout', label(humanise, s.layout), true],
      ['Background', label(background, s.backgroundVideo), true],
      ['Random background', onOff(s.useRandomBackgroundVideo), true],
      ['Emojis', onOff(s.showEmojis), true],
      ['Thumbnail settings', settingsText(s.thumbnailSettings), false],
      ['Hashtags', s.hashtags, false],
      ['Prompt', s.customPrompt ? clip(s.customPrompt, 300) : undefined, false],
    );
  }
  return rows
    .filter((r): r is [string, string, boolean] => typeof r[1] === 'string' && r[1] !== '')
    .map(([label, text, short]) => {
      const value = literal(text);
      return short ? { label: literal(label), value, short } : { label: literal(label), value };
    });
}

/** `style: bold · faces: on`: an open settings object in words (values as given, booleans on/off). */
function settingsText(settings: Record<string, unknown> | undefined): string | undefined {
  if (!settings) return undefined;
  const parts = Object.entries(settings).map(([key, value]) => {
    const shown =
      typeof value === 'boolean'
        ? onOff(value)
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
    return `${key}: ${shown}`;
  });
  return parts.length > 0 ? clip(parts.join(' · '), 300) : undefined;
}

export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Button values carry ids, never names; keep them inside the platforms' limit. */
export const joinValue = (...parts: string[]): string => parts.join(':');
export function splitValue(value: string): [string, string] {
  const at = value.lastIndexOf(':');
  return at === -1 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
}
