/**
 * The flags of every series setting but the name and source, shared by `series create` and `series edit`,
 * and the typed values a handler gets from them (`series-fields.ts` turns those into a POST/PATCH body).
 */

import type { OptionSpec } from '../parse/command-spec.js';
import { command } from '../text/text.js';
import { MODELS, type Model, PRIVACY, type Privacy } from '../video-api/video-api.js';

export const DURATIONS = ['30', '60', '90'] as const;
/** Layout names have no documented list: one word, bounded, so a typo of shape is caught before sending. */
export const LAYOUT_MAX = 40;

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
