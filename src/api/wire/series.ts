import { z } from 'zod';
import {
  type Episode,
  MODELS,
  PRIVACY,
  type Series,
  type SeriesSummary,
} from '../../core/video-api/video-api.js';
import {
  compact,
  optBoolean,
  optEnum,
  optId,
  optList,
  optName,
  optNumber,
  optSettings,
  optText,
  reqId,
  reqText,
} from './common.js';

/** POST /series, GET /series items: an item without an id is dropped from the list. */
export const SeriesSummaryWire = z.object({
  id: reqId(),
  name: optName(),
  source: optText(),
  niche: optText(),
  paused: optBoolean(),
  createdAt: optText(),
});

/** A name the service left out reads as the id (or as the name that was sent, on create). */
export const toSeriesSummary = (wire: z.output<typeof SeriesSummaryWire>, sentName?: string): SeriesSummary =>
  compact({ ...wire, name: wire.name ?? sentName ?? wire.id });

/** Index = `Date#getDay()` (0 = Sunday), the newer form of `postingDays`. */
const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Weekday names (older), their three-letter forms, or numbers 0–6 (newer) → lower-case full names. */
function weekdayName(day: unknown): unknown {
  const n = typeof day === 'string' && /^\s*\d\s*$/.test(day) ? Number(day) : day;
  if (typeof n === 'number') return Number.isInteger(n) ? (WEEKDAY_NAMES[n] ?? day) : day;
  if (typeof n !== 'string') return day;
  const word = n.trim().toLowerCase();
  return WEEKDAY_NAMES.find((name) => name === word || name.slice(0, 3) === word) ?? day;
}

/** `destinationAccounts`: an array of ids (older) or ids per platform, `{ "youtube": ["authId"] }` (newer). */
function accountIds(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.values(value).flatMap((ids) => (Array.isArray(ids) ? ids : [ids]));
}

/**
 * GET and PATCH /series/{id}: the summary plus the configuration the bot shows and edits (spec §4,
 * POST /series). `duration` may come as a numeric string, `postingDays` as numbers, and
 * `destinationAccounts` per platform; all are normalised to one form.
 */
export const SeriesWire = SeriesSummaryWire.extend({
  customPrompt: optText(),
  voice: optId(),
  style: optText(),
  language: optText(),
  duration: optNumber(),
  destination: optText(),
  destinationAccounts: z.preprocess(accountIds, optList(z.string())),
  generateThumbnails: optBoolean(),
  autoPostTime: optText(),
  postingDays: z.preprocess(
    (days) => (Array.isArray(days) ? days.map(weekdayName) : days),
    optList(z.enum(WEEKDAY_NAMES)),
  ),
  timezone: optText(),
  captionStyle: optText(),
  subreddit: optText(),
  brollModel: optEnum(MODELS),
  enableBackgroundMusic: optBoolean(),
  backgroundMusicMood: optText(),
  hashtags: optText(),
  tone: optText(),
  youtubePrivacyStatus: optEnum(PRIVACY),
  layout: optText(),
  backgroundVideo: optText(),
  useRandomBackgroundVideo: optBoolean(),
  showEmojis: optBoolean(),
  thumbnailSettings: optSettings(),
});

export function toSeries(wire: z.output<typeof SeriesWire>): Series {
  return compact({ ...wire, name: wire.name ?? wire.id });
}

/** An episode without an id or status is dropped from the page. */
export const EpisodeWire = z.object({
  id: reqId(),
  projectId: optId(),
  /** Open; a posted episode shows `posted`. */
  status: reqText(),
  scheduledTime: optText(),
});
export const toEpisode = (wire: z.output<typeof EpisodeWire>): Episode => compact(wire);

export const GeneratedEpisodeWire = z.object({ projectId: reqId() });
