/**
 * The configurable fields of a series, shared by `series create` and `series edit`: the translation of their
 * flags (series-field-options.ts) into a POST/PATCH body. Everything is checked here before anything is sent;
 * catalog values are matched against the team's catalogs (series-catalog-lookups.ts).
 */

import { type CommandContext, UserError, userError } from '../dispatch/context.js';
import type { OptionKind, SeriesPatch } from '../video-api/video-api.js';
import {
  type Cadence,
  canonicalZone,
  parseDays,
  parseSchedule,
  parseTime,
  sortDays,
  WEEKDAYS,
} from './cadence.js';
import { catalogValue, resolveAccounts, resolveVoiceId } from './series-catalog-lookups.js';
import { LAYOUT_MAX, type SeriesFieldArgs } from './series-field-options.js';

const LAYOUT_NAME = /^[\p{L}\p{N}_-]+$/u;

/**
 * The schedule from `--schedule`, overridden piece by piece by `--time/--days/--timezone`. Pure: no calls.
 * On create an every-day schedule is omitted (the API's "every day"); on edit it is sent as all seven days,
 * since omitting it would leave the old days in place.
 */
export function scheduleFrom(args: SeriesFieldArgs, mode: 'create' | 'edit', defaultZone: string): Cadence {
  let cadence: Cadence = {};
  if (args.schedule !== undefined) cadence = unwrap(parseSchedule(args.schedule));
  if (args.time !== undefined) cadence.autoPostTime = unwrap(parseTime(args.time));
  if (args.days !== undefined) cadence.postingDays = unwrap(parseDays(args.days));
  if (args.timezone !== undefined) {
    const zone = canonicalZone(args.timezone);
    if (!zone) throw userError('bad-timezone', { value: args.timezone });
    cadence.timezone = zone;
  }
  // A time without a zone means the caller's wall clock, not the service's default zone.
  if (mode === 'create' && cadence.autoPostTime && !cadence.timezone) cadence.timezone = defaultZone;
  if (cadence.postingDays?.length === 7 && mode === 'create') cadence.postingDays = [];
  if (cadence.postingDays?.length === 0 && mode === 'edit') cadence.postingDays = sortDays([...WEEKDAYS]);
  return cadence;
}

const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: UserError }): T => {
  if (!r.ok) throw r.error;
  return r.value;
};

/**
 * Flags → body fields. Checks the local rules first (so a bad time never costs a catalog call), then resolves
 * catalog values, the voice and the accounts with the caller's key. Throws `UserError` with `params.option`
 * naming the flag, so a form can put the message next to the right input.
 */
export async function seriesFieldsFrom(
  ctx: CommandContext,
  args: SeriesFieldArgs,
  mode: 'create' | 'edit',
): Promise<SeriesPatch> {
  const body: SeriesPatch = {};
  // A time typed without a zone is the member's wall clock: ask for it first where the platform does not say it.
  const typedTime = args.timezone === undefined && (args.time !== undefined || args.schedule !== undefined);
  const timeZone = typedTime ? await ctx.timeZoneToRead() : await ctx.timeZone();
  const cadence = tagged('schedule', () => scheduleFrom(args, mode, timeZone));
  if (cadence.autoPostTime !== undefined) body.autoPostTime = cadence.autoPostTime;
  if (cadence.postingDays !== undefined && cadence.postingDays.length > 0)
    body.postingDays = cadence.postingDays;
  if (cadence.timezone !== undefined) body.timezone = cadence.timezone;
  if (args.duration !== undefined) body.duration = Number(args.duration) as 30 | 60 | 90;
  if (args.model !== undefined) body.brollModel = args.model;
  if (args.privacy !== undefined) body.youtubePrivacyStatus = args.privacy;
  if (args.destination !== undefined) body.destination = args.destination;
  if (args.music !== undefined) body.enableBackgroundMusic = args.music;
  if (args.thumbnails !== undefined) body.generateThumbnails = args.thumbnails;
  if (args.hashtags !== undefined) body.hashtags = args.hashtags;
  if (args.tone !== undefined) body.tone = args.tone;
  if (args.prompt !== undefined) body.customPrompt = args.prompt;
  if (args['random-background'] !== undefined) body.useRandomBackgroundVideo = args['random-background'];
  if (args.emojis !== undefined) body.showEmojis = args.emojis;
  if (args.layout !== undefined) body.layout = layoutName(args.layout);
  if (args['thumbnail-settings'] !== undefined)
    body.thumbnailSettings = thumbnailSettings(args['thumbnail-settings']);

  const catalogFields: [keyof SeriesFieldArgs, OptionKind, keyof SeriesPatch, string, boolean][] = [
    ['source', 'sources', 'source', 'source', true],
    ['niche', 'niches', 'niche', 'niche', true],
    ['style', 'styles', 'style', 'style', true],
    ['language', 'languages', 'language', 'language', true],
    ['mood', 'music', 'backgroundMusicMood', 'music mood', true],
    ['captions', 'captionThemes', 'captionStyle', 'caption theme', true],
    ['background', 'backgrounds', 'backgroundVideo', 'background video', true],
    // The subreddit catalog lists suggestions; any subreddit name can be used.
    ['subreddit', 'subreddits', 'subreddit', 'subreddit', false],
  ];
  for (const [flag, kind, field, what, strict] of catalogFields) {
    const value = args[flag];
    if (typeof value !== 'string') continue;
    (body as Record<string, unknown>)[field] = await catalogValue(ctx, {
      kind,
      value,
      what,
      strict,
      option: flag,
    });
  }
  if (args.voice !== undefined) body.voice = await resolveVoiceId(ctx, args.voice);
  if (args.accounts !== undefined)
    body.destinationAccounts = await resolveAccounts(ctx, args.accounts, args.destination);
  return body;
}

function layoutName(value: string): string {
  const name = value.trim();
  if (!LAYOUT_NAME.test(name) || name.length > LAYOUT_MAX)
    throw userError('series-bad-layout', { value, max: LAYOUT_MAX, option: 'layout' });
  return name;
}

/**
 * `--thumbnail-settings`: the object's contents are "not shown" by the spec, so the bot passes what it is
 * given: a JSON object, or `key=value` pairs whose yes/no and numbers become booleans and numbers.
 */
export function thumbnailSettings(text: string): Record<string, unknown> {
  const bad = () => userError('series-bad-thumbnail-settings', { value: text, option: 'thumbnail-settings' });
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw bad();
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
    return parsed as Record<string, unknown>;
  }
  const settings: Record<string, unknown> = {};
  for (const pair of trimmed.split(',').map((p) => p.trim())) {
    const match = /^([A-Za-z][\w.-]*)\s*[=:]\s*(.+)$/.exec(pair);
    if (!match) throw bad();
    settings[match[1] as string] = settingValue((match[2] as string).trim());
  }
  return settings;
}

function settingValue(raw: string): unknown {
  const lower = raw.toLowerCase();
  if (['yes', 'true', 'on'].includes(lower)) return true;
  if (['no', 'false', 'off'].includes(lower)) return false;
  if (/^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  return raw.replace(/^"(.*)"$/, '$1');
}

function tagged<T>(option: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof UserError) throw new UserError(e.code, { ...e.params, option });
    throw e;
  }
}

/** Which fields a patch touches, in words, for the confirmation reply. */
export const FIELD_LABELS: Record<string, string> = {
  name: 'name',
  source: 'source',
  niche: 'niche',
  customPrompt: 'prompt',
  voice: 'voice',
  style: 'style',
  language: 'language',
  duration: 'duration',
  destination: 'destination',
  destinationAccounts: 'accounts',
  generateThumbnails: 'thumbnails',
  thumbnailSettings: 'thumbnail settings',
  layout: 'layout',
  backgroundVideo: 'background video',
  useRandomBackgroundVideo: 'random background',
  showEmojis: 'emojis',
  autoPostTime: 'posting time',
  postingDays: 'posting days',
  timezone: 'time zone',
  captionStyle: 'caption theme',
  subreddit: 'subreddit',
  brollModel: 'model',
  enableBackgroundMusic: 'music',
  backgroundMusicMood: 'music mood',
  hashtags: 'hashtags',
  tone: 'tone',
  youtubePrivacyStatus: 'YouTube privacy',
  paused: 'paused',
};
