/**
 * Domain types of the video service (spec §2 and §4), as the core sees them: the shapes `VideoApi`
 * methods take and return. Values the spec leaves open are plain strings, not closed enums.
 */
import type { AnalyticsPlatform, CalendarStatus, Model, Platform, Privacy } from './video-api.js';

export interface Page {
  page: number;
  limit: number;
  total: number;
}
export interface Paged<T> {
  items: T[];
  pagination: Page;
}
export interface PageQuery {
  page?: number;
  limit?: number;
}

/**
 * GET /me. The newer reference drops `team.id`, `auth.keyPrefix` and `auth.legacy`; tell teams apart with
 * `teamIdentity` (team-identity.ts). `scopes` is absent when the service did not list them.
 */
export interface Me {
  team: { id?: string; name: string; credits: number };
  plan?: string;
  auth: { via?: string; keyPrefix?: string; scopes?: string[]; legacy?: boolean };
}

export interface LedgerEntry {
  credits: number;
  /** `spending` for spends; other values are left open by the spec. */
  type: string;
  description: string;
  createdAt: string;
}
export interface Credits {
  balance: number;
  history: LedgerEntry[];
  pagination: Page;
}

/** Post metadata blocks, keyed by platform; limits per spec §2. */
export interface PostBlocks {
  youtube: { title: string; description?: string; privacyStatus?: Privacy };
  tiktok: { title: string };
  instagram: { caption: string };
  x: { text: string };
  facebook: { description: string };
  linkedin: { description: string };
  threads: { text: string };
}
export type PostMetadata = { [P in Platform]?: PostBlocks[P] };

export interface ThumbnailVariant {
  id: string;
  url: string;
  hookText?: string;
  score?: number;
  grade?: string;
}
export interface Thumbnails {
  /** idle, queued, generating, ready, partial, failed (open). */
  status: string;
  selectedVariantId?: string;
  /** `ai` or `user`. */
  selectedBy?: string;
  /** Variants as objects; when the service sent bare URLs, `id` is the URL itself. */
  variants: ThumbnailVariant[];
}

export type GenerationStatus = 'pending' | 'processing' | 'completed' | 'failed' | (string & {});

export interface VideoListItem {
  id: string;
  name: string;
  model?: string;
  renderedVideoUrl: string | null;
  thumbnailUrl?: string;
  createdAt?: string;
}

export interface Video extends VideoListItem {
  platform?: string;
  script?: string;
  voiceId?: string;
  status?: GenerationStatus;
  thumbnails?: Thumbnails;
  posts: PostMetadata;
}

export interface CreateVideoInput {
  script: string;
  voiceId: string;
  model?: Model;
  style?: string;
  language?: string;
  name?: string;
  enableBackgroundMusic?: boolean;
  masterStyle?: string;
  globalNegativePrompt?: string;
}
export interface CreatedVideo {
  id: string;
  /** '' when the service did not say and none was sent. */
  name: string;
  model?: string;
  creditsUsed?: number;
}
export interface CaptionInput {
  videoUrl?: string;
  audioUrl?: string;
  name?: string;
  language?: string;
}
export interface CreatedCaption {
  id: string;
}
export interface VideoPatch {
  name?: string;
  posts?: PostMetadata;
}
export interface PatchedVideo {
  id: string;
  name: string;
  posts: PostMetadata;
}
export interface VideoStatus {
  id: string;
  status: GenerationStatus;
  percentCompleted: number;
  errorMessages: string[];
}
export interface ThumbnailSelection {
  id: string;
  thumbnails?: Thumbnails;
}
export interface RenderStarted {
  renderId: string;
}
export interface Render {
  renderId: string;
  /** in-progress, done, error (open). */
  status: string;
  overallProgress: number;
  url?: string;
}

export interface SeriesInput {
  name: string;
  source: string;
  niche?: string;
  customPrompt?: string;
  voice?: string;
  style?: string;
  language?: string;
  duration?: 30 | 60 | 90;
  destination?: string;
  destinationAccounts?: string[];
  generateThumbnails?: boolean;
  thumbnailSettings?: Record<string, unknown>;
  autoPostTime?: string;
  postingDays?: string[];
  timezone?: string;
  captionStyle?: string;
  subreddit?: string;
  backgroundVideo?: string;
  useRandomBackgroundVideo?: boolean;
  layout?: string;
  brollModel?: Model;
  showEmojis?: boolean;
  enableBackgroundMusic?: boolean;
  backgroundMusicMood?: string;
  hashtags?: string;
  tone?: string;
  youtubePrivacyStatus?: Privacy;
}
export type SeriesPatch = Partial<SeriesInput> & { paused?: boolean };
export interface SeriesSummary {
  id: string;
  name: string;
  source?: string;
  niche?: string;
  paused?: boolean;
  createdAt?: string;
}
/** GET /series/{id}: the configuration fields the bot shows and edits, in one form whichever the service sent. */
export interface Series
  extends SeriesSummary,
    Partial<
      Pick<
        SeriesInput,
        | 'customPrompt'
        | 'voice'
        | 'style'
        | 'language'
        | 'destination'
        | 'destinationAccounts'
        | 'generateThumbnails'
        | 'autoPostTime'
        | 'timezone'
        | 'captionStyle'
        | 'subreddit'
        | 'brollModel'
        | 'enableBackgroundMusic'
        | 'backgroundMusicMood'
        | 'hashtags'
        | 'tone'
        | 'youtubePrivacyStatus'
        | 'layout'
        | 'backgroundVideo'
        | 'useRandomBackgroundVideo'
        | 'showEmojis'
        | 'thumbnailSettings'
      >
    > {
  /** Seconds. */
  duration?: number;
  /** Lower-case weekday names (the service may send numbers 0–6, 0 = Sunday). */
  postingDays?: string[];
}
export interface Episode {
  id: string;
  projectId?: string;
  /** a posted episode shows `posted`; other values open. */
  status: string;
  scheduledTime?: string;
}
export interface GeneratedEpisode {
  projectId: string;
}

export interface PublishInput {
  videoId: string;
  platform: Platform;
  title?: string;
  description?: string;
  privacyStatus?: Privacy;
  authId?: string;
  /** An https MP4 made elsewhere, published instead of the video's own render (spec §4, POST /posts). */
  videoUrl?: string;
}
export interface Published {
  postUrl?: string;
}
export interface ScheduleInput {
  videoId: string;
  platforms: Platform[];
  /** ISO 8601, in the future. */
  scheduledTime: string;
}
export interface Scheduled {
  scheduledTime: string;
}
export interface CalendarQuery {
  /** YYYY-MM-DD, inclusive. */
  startDate: string;
  endDate: string;
  platform?: Platform;
  status?: CalendarStatus;
}
export interface CalendarEntry {
  id: string;
  projectId: string;
  platform: string;
  status: string;
  scheduledTime: string;
}

export interface Account {
  authId: string;
  label: string;
  isDefault: boolean;
}
export type Accounts = Record<string, Account[]>;

export interface Voice {
  id: string;
  name: string;
  previewUrl?: string;
  isCustom: boolean;
  labels?: { language?: string; gender?: string; accent?: string };
  isRecommended?: boolean;
  qualityTier?: string;
  targetLanguages?: string[];
}
export interface OptionItem {
  value: string;
  name: string;
  credits?: number;
}
export interface OptionCatalog {
  kind: string;
  items: OptionItem[];
}

export interface AssetInput {
  url: string;
  name?: string;
  fileType?: string;
}
export interface Asset {
  id: string;
  url: string;
  name?: string;
}

export interface AnalyticsQuery {
  platform?: AnalyticsPlatform;
  authId?: string;
  range?: 7 | 28 | 90;
}
/** Both documented shapes normalised into one. */
export interface Analytics {
  rangeDays: number;
  totalViews: number;
  viewsGained?: number;
  postsSynced: number;
  posts7d?: number;
  likes?: number;
  ready: boolean;
  byPlatform: Record<string, { totalViews: number; postsSynced: number; viewsGained28d?: number }>;
  topPosts: { platform: string; title: string; views: number; postUrl?: string }[];
}
