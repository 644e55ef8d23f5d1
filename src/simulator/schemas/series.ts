import { z } from 'zod';
import { isTimeZone, parseWeekday } from '../cadence.js';
import { MODELS, PLATFORMS, PRIVACY_STATUSES, SERIES_DURATIONS } from '../vocabulary.js';
import { nonEmpty } from './common.js';

const weekday = z.string().transform((value, ctx) => {
  const day = parseWeekday(value);
  if (day === undefined) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a weekday name (monday … sunday)` });
    return z.NEVER;
  }
  return day;
});

/** Every field of the POST /series body, each as it is when present. */
const seriesFields = {
  name: nonEmpty.max(120),
  source: nonEmpty,
  niche: nonEmpty,
  customPrompt: z.string().max(5000),
  voice: nonEmpty,
  style: nonEmpty,
  language: nonEmpty,
  duration: z.literal(SERIES_DURATIONS),
  destination: z.enum(PLATFORMS),
  destinationAccounts: z.array(nonEmpty),
  generateThumbnails: z.boolean(),
  // Its contents are not described by the spec, so any object is accepted.
  thumbnailSettings: z.record(z.string(), z.unknown()),
  autoPostTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'must be HH:mm (24-hour), e.g. 09:30' }),
  postingDays: z.array(weekday).min(1),
  timezone: z.string().refine(isTimeZone, { message: 'must be an IANA time zone name, e.g. Europe/Paris' }),
  captionStyle: nonEmpty,
  subreddit: nonEmpty,
  backgroundVideo: nonEmpty,
  useRandomBackgroundVideo: z.boolean(),
  layout: nonEmpty,
  brollModel: z.enum(MODELS),
  showEmojis: z.boolean(),
  enableBackgroundMusic: z.boolean(),
  backgroundMusicMood: nonEmpty,
  hashtags: z.string(),
  tone: z.string(),
  youtubePrivacyStatus: z.enum(PRIVACY_STATUSES),
};

export const createSeriesBody = z
  .strictObject({ ...seriesFields })
  .partial()
  .required({ name: true, source: true });

export const patchSeriesBody = z.strictObject({ ...seriesFields, paused: z.boolean() }).partial();

export type SeriesInput = z.output<typeof patchSeriesBody>;
