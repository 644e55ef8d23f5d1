import { z } from 'zod';
import { type Episode, MODELS, PRIVACY, type Series, type SeriesSummary } from '../../core/video-api.js';
import { compact, opt } from './common.js';

export const SeriesSummaryWire = z.object({
  id: z.string(),
  name: z.string(),
  source: opt(z.string()),
  niche: opt(z.string()),
  paused: opt(z.boolean()),
  createdAt: opt(z.string()),
});
export const toSeriesSummary = (wire: z.output<typeof SeriesSummaryWire>): SeriesSummary => compact(wire);

/** The configuration fields of a series record (spec §4, POST /series), each read on its own. */
const CONFIG_FIELDS = {
  customPrompt: z.string(),
  voice: z.string(),
  style: z.string(),
  language: z.string(),
  duration: z.union([z.literal(30), z.literal(60), z.literal(90)]),
  destination: z.string(),
  destinationAccounts: z.array(z.string()),
  generateThumbnails: z.boolean(),
  thumbnailSettings: z.record(z.string(), z.unknown()),
  autoPostTime: z.string(),
  postingDays: z.array(z.string()),
  timezone: z.string(),
  captionStyle: z.string(),
  subreddit: z.string(),
  backgroundVideo: z.string(),
  useRandomBackgroundVideo: z.boolean(),
  layout: z.string(),
  brollModel: z.enum(MODELS),
  showEmojis: z.boolean(),
  enableBackgroundMusic: z.boolean(),
  backgroundMusicMood: z.string(),
  hashtags: z.string(),
  tone: z.string(),
  youtubePrivacyStatus: z.enum(PRIVACY),
} as const;

type Config = { -readonly [K in keyof typeof CONFIG_FIELDS]?: z.output<(typeof CONFIG_FIELDS)[K]> };

/**
 * GET and PATCH /series/{id}: the record's exact fields are "not shown" beyond the create body, so every
 * field is kept: known ones typed, anything else — including a known field with an unexpected value — in `extra`.
 */
export const SeriesWire = z.looseObject(SeriesSummaryWire.shape);

export function toSeries(wire: z.output<typeof SeriesWire>): Series {
  const summaryKeys: ReadonlySet<string> = new Set(Object.keys(SeriesSummaryWire.shape));
  const config: Config = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wire)) {
    if (summaryKeys.has(key) || value === undefined || value === null) continue;
    const schema = Object.hasOwn(CONFIG_FIELDS, key) ? CONFIG_FIELDS[key as keyof Config] : undefined;
    const parsed = schema?.safeParse(value);
    if (parsed?.success) (config as Record<string, unknown>)[key] = parsed.data;
    else extra[key] = value;
  }
  const { id, name, source, niche, paused, createdAt } = wire;
  return { ...toSeriesSummary({ id, name, source, niche, paused, createdAt }), ...config, extra };
}

export const EpisodeWire = z.object({
  id: z.string(),
  projectId: opt(z.string()),
  /** Open; a posted episode shows `posted`. */
  status: z.string(),
  scheduledTime: opt(z.string()),
});
export const toEpisode = (wire: z.output<typeof EpisodeWire>): Episode => compact(wire);

export const GeneratedEpisodeWire = z.object({ projectId: z.string(), statusUrl: opt(z.string()) });
