/**
 * Option declarations several commands share, so their wording and rules are written once.
 */

/** The video a command acts on, taking the rest of the text so a name with spaces needs no quotes. */
export const VIDEO_REST_OPTION = {
  name: 'video',
  kind: 'video',
  positional: true,
  rest: true,
  required: true,
  description: 'Video id, name (or its start) or `last`',
} as const;

/** The video as the first of several positionals (`meta <video> <platform> …`). */
export const VIDEO_OPTION = {
  name: 'video',
  kind: 'video',
  description: 'Video name, id or `last`',
  positional: true,
  required: true,
} as const;

/**
 * The series a `series …` command acts on, positional; a name with spaces is quoted
 * (`series pause "Night Terrors"`).
 */
export const SERIES_OPTION = {
  name: 'series',
  kind: 'series',
  positional: true,
  required: true,
  description: 'Series name, id or `last`',
} as const;

/** One platform, positional. */
export const PLATFORM_OPTION = {
  name: 'platform',
  kind: 'platform',
  description: 'youtube, tiktok, instagram, x, facebook, linkedin or threads',
  positional: true,
  required: true,
} as const;
