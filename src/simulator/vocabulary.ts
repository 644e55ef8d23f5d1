/** Closed value sets of video-api.md, written down once for the simulator (never shared with the client). */

export const PLATFORMS = ['youtube', 'tiktok', 'instagram', 'x', 'facebook', 'linkedin', 'threads'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Platforms GET /analytics reports on (spec §4: its `platform` enum is narrower than PLATFORMS). */
export const ANALYTICS_PLATFORMS = ['youtube', 'tiktok', 'instagram', 'facebook'] as const;
export type AnalyticsPlatform = (typeof ANALYTICS_PLATFORMS)[number];

export const SCOPES = [
  'credits:read',
  'videos:read',
  'videos:write',
  'series:read',
  'series:write',
  'posts:read',
  'posts:write',
  'accounts:read',
  'catalog:read',
  'assets:write',
  'analytics:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const MODELS = ['storyboard', 'motion_lite', 'motion_pro'] as const;
export type Model = (typeof MODELS)[number];

/** Credits charged per video by model (spec §2 "Credit costs per video"). */
export const MODEL_CREDITS: Record<Model, number> = { storyboard: 20, motion_lite: 50, motion_pro: 100 };

export const PRIVACY_STATUSES = ['public', 'unlisted', 'private'] as const;
export const CODECS = ['h264', 'vp8'] as const;
export const CALENDAR_STATUSES = ['scheduled', 'posted', 'failed'] as const;
export const SERIES_DURATIONS = [30, 60, 90] as const;
export const ANALYTICS_RANGES = [7, 28, 90] as const;

/** The per-platform post metadata block stored on a video, keyed by platform. */
export const POST_BLOCK_KEYS = {
  youtube: 'youtubePost',
  tiktok: 'tiktokPost',
  instagram: 'instagramPost',
  x: 'xPost',
  facebook: 'facebookPost',
  linkedin: 'linkedinPost',
  threads: 'threadsPost',
} as const satisfies Record<Platform, string>;
export type PostBlockKey = (typeof POST_BLOCK_KEYS)[Platform];

export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
