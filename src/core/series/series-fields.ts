/**
 * The configurable fields of a series, shared by `series create` and `series edit`: their flags, and the
 * translation of flags into a POST/PATCH body. Everything is checked here before anything is sent; catalog
 * values are matched against the team's catalogs (GETs only) so a typo is answered with the real choices.
 */

import { type CommandContext, UserError, userError } from '../dispatch/context.js';
import type { OptionSpec } from '../parse/command-spec.js';
import { code, command } from '../text/text.js';
import {
  MODELS,
  type Model,
  type OptionKind,
  PRIVACY,
  type Privacy,
  type SeriesPatch,
  VideoApiError,
} from '../video-api/video-api.js';
import {
  type Cadence,
  canonicalZone,
  parseDays,
  parseSchedule,
  parseTime,
  sortDays,
  WEEKDAYS,
} from './cadence.js';

export const DURATIONS = ['30', '60', '90'] as const;
/** Layout names have no documented list: one word, bounded, so a typo of shape is caught before sending. */
const LAYOUT_MAX = 40;
const LAYOUT_NAME = /^[\p{L}\p{N}_-]+$/u;

export const SOURCE_DESCRIPTION = `Content source (see ${command('options', ['sources'])})`;

/** Flags for every series setting but the name and source (required on create, optional on edit). */
export const SERIES_FIELD_OPTIONS = [
  {
    name: 'niche',
    kind: 'string',
    catalog: 'niches',
    description: `Niche (see ${command('options', ['niches'])})`,
  },
  { name: 'voice', kind: 'voice', description: 'Narrator voice, by name or id' },
  {
    name: 'style',
    kind: 'string',
    catalog: 'styles',
    description: `Visual style (see ${command('options', ['styles'])})`,
  },
  {
    name: 'language',
    kind: 'string',
    catalog: 'languages',
    description: `Language (see ${command('options', ['languages'])})`,
  },
  { name: 'duration', kind: 'choice', choices: DURATIONS, description: 'Episode length in seconds' },
  {
    name: 'model',
    kind: 'choice',
    choices: MODELS,
    description: 'Visual model; sets the credits per episode',
  },
  { name: 'destination', kind: 'platform', description: 'Platform episodes are posted to' },
  {
    name: 'accounts',
    kind: 'string',
    advanced: true,
    description: 'Account names or ids to post to, comma-separated',
  },
  { name: 'schedule', kind: 'string', description: 'Posting schedule, e.g. "daily 09:00 Europe/Paris"' },
  { name: 'time', kind: 'string', advanced: true, description: 'Posting time, HH:mm' },
  {
    name: 'days',
    kind: 'string',
    advanced: true,
    description: 'Posting days: daily, weekdays or mon,wed,fri',
  },
  {
    name: 'timezone',
    kind: 'string',
    advanced: true,
    description: 'IANA time zone of the schedule, e.g. Europe/Paris',
  },
  { name: 'music', kind: 'boolean', advanced: true, description: 'Background music on or off' },
  {
    name: 'mood',
    kind: 'string',
    advanced: true,
    catalog: 'music',
    description: `Background music mood (see ${command('options', ['music'])})`,
  },
  {
    name: 'captions',
    kind: 'string',
    advanced: true,
    catalog: 'captionThemes',
    description: `Caption theme (see ${command('options', ['captionThemes'])})`,
  },
  { name: 'hashtags', kind: 'string', advanced: true, description: 'Hashtags appended to post captions' },
  { name: 'tone', kind: 'string', advanced: true, description: 'Tone of the narration, e.g. "playful"' },
  {
    name: 'privacy',
    kind: 'choice',
    choices: PRIVACY,
    advanced: true,
    description: 'YouTube privacy of posted episodes',
  },
  {
    name: 'prompt',
    kind: 'text',
    advanced: true,
    maxLength: 5000,
    description: 'Custom prompt steering every episode',
  },
  {
    name: 'subreddit',
    kind: 'string',
    advanced: true,
    catalog: 'subreddits',
    description: 'Subreddit, when the source is Reddit',
  },
  {
    name: 'thumbnails',
    kind: 'boolean',
    advanced: true,
    description: 'Generate AI thumbnails per episode (free)',
  },
  {
    name: 'thumbnail-settings',
    kind: 'text',
    advanced: true,
    maxLength: 2000,
    description: 'Thumbnail settings as key=value pairs (e.g. style=bold,faces=yes) or a JSON object',
  },
  {
    name: 'layout',
    kind: 'string',
    advanced: true,
    maxLength: LAYOUT_MAX,
    description: 'Video layout, by the name the dashboard gives it',
  },
  {
    name: 'background',
    kind: 'string',
    advanced: true,
    catalog: 'backgrounds',
    description: `Background video (see ${command('options', ['backgrounds'])})`,
  },
  {
    name: 'random-background',
    kind: 'boolean',
    advanced: true,
    description: 'Pick a random background video for each episode',
  },
  { name: 'emojis', kind: 'boolean', advanced: true, description: 'Show emojis in the captions' },
] as const satisfies readonly OptionSpec[];

/** The typed values of those flags (what `ArgsOf` gives a handler). */
export interface SeriesFieldArgs {
  source?: string | undefined;
  niche?: string | undefined;
  voice?: string | undefined;
  style?: string | undefined;
  language?: string | undefined;
  duration?: (typeof DURATIONS)[number] | undefined;
  model?: Model | undefined;
  destination?: string | undefined;
  accounts?: string | undefined;
  schedule?: string | undefined;
  time?: string | undefined;
  days?: string | undefined;
  timezone?: string | undefined;
  music?: boolean | undefined;
  mood?: string | undefined;
  captions?: string | undefined;
  hashtags?: string | undefined;
  tone?: string | undefined;
  privacy?: Privacy | undefined;
  prompt?: string | undefined;
  subreddit?: string | undefined;
  thumbnails?: boolean | undefined;
  'thumbnail-settings'?: string | undefined;
  layout?: string | undefined;
  background?: string | undefined;
  'random-background'?: boolean | undefined;
  emojis?: boolean | undefined;
}

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

/**
 * A catalog value given by value or display name (case-insensitive). When the catalog cannot be read
 * (no `catalog:read` scope, service hiccup) the text is sent as typed and the service judges it.
 */
export async function catalogValue(
  ctx: CommandContext,
  input: { kind: OptionKind; value: string; what: string; strict: boolean; option: string },
): Promise<string> {
  let items: { value: string; name: string }[];
  try {
    items = (await ctx.deps.catalog.options(await ctx.api(), await ctx.apiKeyId(), input.kind)).items;
  } catch (e) {
    if (e instanceof VideoApiError) return input.value;
    throw e;
  }
  if (items.length === 0) return input.value;
  const lower = input.value.trim().toLowerCase();
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ')
      .trim();
  const hit =
    items.find((i) => i.value.toLowerCase() === lower) ??
    items.find((i) => i.name.toLowerCase() === lower) ??
    items.find((i) => norm(i.value) === norm(input.value) || norm(i.name) === norm(input.value));
  if (hit) return hit.value;
  if (!input.strict) return input.value.trim();
  throw userError('series-unknown-value', {
    value: input.value,
    what: input.what,
    allowed: items
      .slice(0, 25)
      .map((i) => code(i.value))
      .join(', '),
    option: input.option,
  });
}

/** Voice by id, exact name, or unique name prefix (case-insensitive). */
export async function resolveVoiceId(ctx: CommandContext, ref: string): Promise<string> {
  const voices = await ctx.deps.catalog.voices(await ctx.api(), await ctx.apiKeyId());
  const wanted = ref.trim().toLowerCase();
  const byId = voices.find((v) => v.id.toLowerCase() === wanted);
  if (byId) return byId.id;
  const exact = voices.filter((v) => v.name.toLowerCase() === wanted);
  const prefixed = exact.length > 0 ? exact : voices.filter((v) => v.name.toLowerCase().startsWith(wanted));
  if (prefixed.length === 1) return (prefixed[0] as { id: string }).id;
  throw userError('not-found-voice', { ref, option: 'voice' });
}

/** `Main channel, @brand` → account ids, matched by id or label, preferring the destination platform. */
async function resolveAccounts(ctx: CommandContext, text: string, platform?: string): Promise<string[]> {
  const accounts = await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId());
  const entries = Object.entries(accounts).flatMap(([p, list]) => list.map((a) => ({ ...a, platform: p })));
  entries.sort((a, b) => Number(b.platform === platform) - Number(a.platform === platform));
  const out: string[] = [];
  for (const ref of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const lower = ref.toLowerCase();
    const hit = entries.find((a) => a.authId === ref) ?? entries.find((a) => a.label.toLowerCase() === lower);
    if (!hit)
      throw userError('not-found-account', { ref, platform: platform ?? 'connected', option: 'accounts' });
    if (!out.includes(hit.authId)) out.push(hit.authId);
  }
  return out;
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
