/**
 * Documented example responses (video-api.md, both shapes where two exist) for every response schema exported from
 * src/api/wire.
 */
import * as account from '../../src/api/wire/account.js';
import * as analytics from '../../src/api/wire/analytics.js';
import * as asset from '../../src/api/wire/asset.js';
import * as catalog from '../../src/api/wire/catalog.js';
import * as common from '../../src/api/wire/common.js';
import * as credits from '../../src/api/wire/credits.js';
import * as postBlocks from '../../src/api/wire/post-blocks.js';
import * as posts from '../../src/api/wire/posts.js';
import * as series from '../../src/api/wire/series.js';
import * as thumbnails from '../../src/api/wire/thumbnails.js';
import * as video from '../../src/api/wire/video.js';
import {
  ACCOUNTS_NEW,
  ACCOUNTS_OLD,
  ANALYTICS_NEW,
  ANALYTICS_OLD,
  CREDITS,
  ME,
  SERIES_CONFIG,
  STATUS,
  VARIANTS,
  VIDEO,
  VIDEO_LIST_ITEM,
  VOICE_FULL,
  VOICE_SHORT,
} from './fixtures.js';

export const MODULES = {
  account,
  analytics,
  asset,
  catalog,
  common,
  credits,
  postBlocks,
  posts,
  series,
  thumbnails,
  video,
};

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = (string | number)[];

/** How an example is wrapped: in `{ success, data }`, in a paginated envelope, or not at all. */
export type Wrap = 'data' | 'paged' | 'none';

export interface Example {
  /** The `data` of a documented response (or the whole body when `wrap` is `none`). */
  body: Json;
  /** Dotted paths (in `body`) whose removal fails the schema: what the operation cannot do without. */
  required: string[];
  wrap?: Wrap;
  /** A required field reported under another name (either of two ids missing names the newer one). */
  reportedAs?: Record<string, string>;
}

export const PAGE = { page: 1, limit: 20, total: 2 };
const BLOCKS = {
  youtubePost: VIDEO.youtubePost,
  tiktokPost: VIDEO.tiktokPost,
  instagramPost: VIDEO.instagramPost,
  xPost: VIDEO.xPost,
  facebookPost: VIDEO.facebookPost,
  linkedinPost: VIDEO.linkedinPost,
  threadsPost: VIDEO.threadsPost,
};
export const CREATED_VIDEO = {
  id: 'vid_2',
  name: 'Launch',
  model: 'storyboard',
  status: 'processing',
  creditsUsed: 20,
  statusUrl: '/api/v1/videos/vid_2/status',
};
export const CREATED_CAPTION = {
  id: 'vid_3',
  status: 'processing',
  statusUrl: '/api/v1/videos/vid_3/status',
};
export const RENDER_STARTED = { renderId: 'r_1', statusUrl: '/api/v1/renders/r_1' };
export const RENDER = {
  renderId: 'r_1',
  status: 'done',
  overallProgress: 1,
  url: 'https://cdn.test/r_1.mp4',
};
export const SERIES_CREATED = {
  id: 'ser_1',
  name: 'Daily facts',
  source: 'ai_topics',
  niche: 'science',
  createdAt: '2026-02-01T10:00:00Z',
};
export const SERIES_NEWER = {
  ...SERIES_CONFIG,
  duration: '60',
  postingDays: [1, 3],
  destinationAccounts: { youtube: ['acc_yt_1'] },
  platformPostTimes: { youtube: '09:30' },
};
const EPISODE = {
  id: 'ep_1',
  projectId: 'vid_9',
  status: 'posted',
  scheduledTime: '2026-02-02T09:30:00Z',
};
const CALENDAR_ENTRY = {
  id: 'cal_1',
  projectId: 'vid_1',
  platform: 'youtube',
  status: 'scheduled',
  scheduledTime: '2026-03-01T09:00:00Z',
};
export const MODELS_CATALOG = {
  kind: 'models',
  items: [
    { value: 'storyboard', name: 'Storyboard', credits: 20 },
    { value: 'motion_lite', name: 'Motion lite', credits: 50 },
  ],
};
const THUMBNAILS_STRINGS = {
  status: 'ready',
  selectedVariantId: 'v2',
  selectedBy: 'user',
  variants: VARIANTS.map((v) => v.url),
};

/** Every response schema exported from src/api/wire, with documented examples. */
export const TABLE: Record<string, Example[]> = {
  MeWire: [{ body: ME, required: ['team', 'team.name', 'team.credits'] }],
  AccountEntryWire: [
    { body: ACCOUNTS_NEW.youtube[0] as Json, required: ['authId'] },
    { body: ACCOUNTS_OLD.youtube[0] as Json, required: ['id'], reportedAs: { id: 'authId' } },
  ],
  AccountsWire: [
    { body: ACCOUNTS_NEW, required: [] },
    { body: ACCOUNTS_OLD, required: [] },
  ],
  AnalyticsWire: [
    { body: ANALYTICS_NEW, required: [] },
    { body: ANALYTICS_OLD, required: ['totals', 'totals.views'] },
  ],
  AssetWire: [{ body: { id: 'as_1', url: 'https://cdn.test/a.mp4', name: 'a' }, required: ['id'] }],
  VoiceWire: [
    { body: VOICE_FULL, required: ['id'] },
    { body: VOICE_SHORT, required: ['id'] },
  ],
  OptionItemWire: [
    { body: MODELS_CATALOG.items[0] as Json, required: [] },
    { body: 'storyboard', required: [] },
  ],
  OptionCatalogWire: [{ body: MODELS_CATALOG, required: ['items'] }],
  OptionKindsWire: [
    { body: ['sources', 'models'], required: [] },
    { body: { kinds: ['sources', 'models'] }, required: [] },
  ],
  PageWire: [{ body: PAGE, required: ['total'], wrap: 'none' }],
  ErrorBodyWire: [
    {
      body: { success: false, error: { type: 'payment_failed', message: 'Payment failed' } },
      required: ['error'],
      wrap: 'none',
    },
  ],
  DeletedWire: [{ body: { deleted: true }, required: [] }],
  LedgerEntryWire: [{ body: CREDITS.history[0] as Json, required: ['credits', 'type', 'createdAt'] }],
  CreditsWire: [{ body: CREDITS, required: ['balance'], wrap: 'paged' }],
  PostBlocksWire: [{ body: BLOCKS, required: [] }],
  PublishedWire: [
    { body: { platform: 'youtube', videoId: 'vid_1', postUrl: 'https://youtu.be/x' }, required: [] },
  ],
  ScheduledWire: [
    {
      body: { taskId: 't_1', platforms: ['youtube', 'x'], scheduledTime: '2026-03-01T09:00:00Z' },
      required: [],
    },
  ],
  CancelledWire: [{ body: { cancelled: true }, required: [] }],
  CalendarEntryWire: [
    { body: CALENDAR_ENTRY, required: ['id', 'projectId', 'platform', 'status', 'scheduledTime'] },
  ],
  SeriesSummaryWire: [
    { body: SERIES_CREATED, required: ['id'] },
    { body: { id: 's', name: 'S', source: 'x', niche: null, paused: true }, required: ['id'] },
  ],
  SeriesWire: [
    { body: SERIES_CONFIG, required: ['id'] },
    { body: SERIES_NEWER, required: ['id'] },
  ],
  EpisodeWire: [{ body: EPISODE, required: ['id', 'status'] }],
  GeneratedEpisodeWire: [
    { body: { projectId: 'vid_9', statusUrl: '/api/v1/videos/vid_9/status' }, required: ['projectId'] },
  ],
  VariantWire: [
    { body: VARIANTS[0] as Json, required: ['id', 'url'] },
    { body: VARIANTS[0]?.url as Json, required: [] },
  ],
  ThumbnailsWire: [
    { body: VIDEO.thumbnails, required: ['status'] },
    { body: THUMBNAILS_STRINGS, required: ['status'] },
  ],
  VideoListItemWire: [{ body: VIDEO_LIST_ITEM, required: ['id'] }],
  VideoWire: [{ body: VIDEO as unknown as Json, required: ['id'] }],
  CreatedVideoWire: [{ body: CREATED_VIDEO, required: ['id'] }],
  CreatedCaptionWire: [{ body: CREATED_CAPTION, required: ['id'] }],
  PatchedVideoWire: [
    {
      body: {
        id: 'vid_1',
        name: 'N',
        ...BLOCKS,
        thumbnailUrl: VARIANTS[1]?.url ?? '',
        thumbnails: THUMBNAILS_STRINGS,
      },
      required: [],
    },
  ],
  ThumbnailSelectionWire: [
    {
      body: { id: 'vid_1', thumbnailUrl: VARIANTS[1]?.url ?? '', thumbnails: THUMBNAILS_STRINGS },
      required: [],
    },
  ],
  VideoStatusWire: [
    { body: STATUS as unknown as Json, required: ['status'] },
    {
      body: { id: 'vid_1', status: 'failed', percentCompleted: 60, errorMessages: ['voice unavailable'] },
      required: ['status'],
    },
  ],
  RenderStartedWire: [{ body: RENDER_STARTED, required: ['renderId'] }],
  RenderWire: [{ body: RENDER, required: ['status'] }],
};
