/**
 * The video service as the core sees it: domain types and the `VideoApi` port.
 * `src/api` implements this port over HTTP (wire schemas live there, validated once at the boundary);
 * the core never sees wire shapes. Values the spec leaves open are plain strings, not closed enums.
 */

export const PLATFORMS = ['youtube', 'tiktok', 'instagram', 'x', 'facebook', 'linkedin', 'threads'] as const;
export type Platform = (typeof PLATFORMS)[number];
export const MODELS = ['storyboard', 'motion_lite', 'motion_pro'] as const;
export type Model = (typeof MODELS)[number];
export const PRIVACY = ['public', 'unlisted', 'private'] as const;
export type Privacy = (typeof PRIVACY)[number];
export const CODECS = ['h264', 'vp8'] as const;
export type Codec = (typeof CODECS)[number];
export const OPTION_KINDS = [
  'sources',
  'styles',
  'niches',
  'languages',
  'durations',
  'models',
  'captionThemes',
  'music',
  'backgrounds',
  'subreddits',
] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];
export const ANALYTICS_PLATFORMS = ['youtube', 'tiktok', 'instagram', 'facebook'] as const;
export type AnalyticsPlatform = (typeof ANALYTICS_PLATFORMS)[number];
export const CALENDAR_STATUSES = ['scheduled', 'posted', 'failed'] as const;
export type CalendarStatus = (typeof CALENDAR_STATUSES)[number];
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

export interface Me {
  team: { id: string; name: string; credits: number };
  plan: string;
  auth: { via: string; keyPrefix: string; scopes: string[]; legacy: boolean };
}

export interface LedgerEntry {
  id: string;
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
  source?: string;
  score?: number;
  grade?: string;
}
export interface Thumbnails {
  /** idle, queued, generating, ready, partial, failed (open). */
  status: string;
  generation?: number;
  aspect?: string;
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
  platform?: string;
  model?: string;
  renderedVideoUrl: string | null;
  thumbnailUrl?: string;
  createdAt?: string;
}

export interface Video extends VideoListItem {
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
  name: string;
  model?: string;
  status: GenerationStatus;
  creditsUsed: number;
  statusUrl?: string;
}
export interface CaptionInput {
  videoUrl?: string;
  audioUrl?: string;
  name?: string;
  language?: string;
}
export interface CreatedCaption {
  id: string;
  status: GenerationStatus;
  statusUrl?: string;
}
export interface VideoPatch {
  name?: string;
  posts?: PostMetadata;
}
export interface PatchedVideo {
  id: string;
  name: string;
  posts: PostMetadata;
  thumbnailUrl?: string;
  thumbnails?: Thumbnails;
}
export interface VideoStatus {
  id: string;
  status: GenerationStatus;
  percentCompleted: number;
  readyForEditing: boolean;
  errorMessages: string[];
  renderedVideoUrl: string | null;
}
export interface ThumbnailSelection {
  id: string;
  thumbnailUrl?: string;
  thumbnails: Thumbnails;
}
export interface RenderStarted {
  renderId: string;
  statusUrl?: string;
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
/** GET /series/{id}: the configuration; fields beyond these are kept as-is in `extra`. */
export interface Series extends SeriesSummary, Partial<Omit<SeriesInput, 'name' | 'source' | 'niche'>> {
  extra: Record<string, unknown>;
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
  statusUrl?: string;
}

export interface PublishInput {
  videoId: string;
  platform: Platform;
  title?: string;
  description?: string;
  privacyStatus?: Privacy;
  authId?: string;
}
export interface Published {
  platform: string;
  videoId: string;
  postUrl?: string;
}
export interface ScheduleInput {
  videoId: string;
  platforms: Platform[];
  /** ISO 8601, in the future. */
  scheduledTime: string;
}
export interface Scheduled {
  taskId?: string;
  platforms: string[];
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
  baseVoiceId?: string;
  labels?: { language?: string; gender?: string; accent?: string };
  isRecommended?: boolean;
  qualityTier?: string;
  modelPolicy?: string;
  targetLanguages?: string[];
}
export interface OptionItem {
  value: string;
  name: string;
  credits?: number;
  /** Every other field the service sent, kept for display. */
  extra?: Record<string, unknown>;
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

/** Per call options. `idempotencyKey` is required on the service's idempotent POSTs. */
export interface CallOptions {
  signal?: AbortSignal;
  /** `background` calls (the poller) may use at most half of the key's budget. */
  priority?: 'interactive' | 'background';
}
export interface IdempotentCallOptions extends CallOptions {
  idempotencyKey: string;
}

/** The whole video API, one method per endpoint (spec §4). */
export interface VideoApi {
  me: { get(o?: CallOptions): Promise<Me> };
  credits: { get(q?: PageQuery, o?: CallOptions): Promise<Credits> };
  videos: {
    create(body: CreateVideoInput, o: IdempotentCallOptions): Promise<CreatedVideo>;
    caption(body: CaptionInput, o: IdempotentCallOptions): Promise<CreatedCaption>;
    list(q?: PageQuery & { archived?: boolean }, o?: CallOptions): Promise<Paged<VideoListItem>>;
    get(id: string, o?: CallOptions): Promise<Video>;
    update(id: string, patch: VideoPatch, o?: CallOptions): Promise<PatchedVideo>;
    delete(id: string, o?: CallOptions): Promise<{ deleted: boolean }>;
    selectThumbnail(id: string, variantId: string, o?: CallOptions): Promise<ThumbnailSelection>;
    status(id: string, o?: CallOptions): Promise<VideoStatus>;
    render(id: string, body: { codec?: Codec }, o: IdempotentCallOptions): Promise<RenderStarted>;
  };
  renders: { get(renderId: string, o?: CallOptions): Promise<Render> };
  series: {
    create(body: SeriesInput, o: IdempotentCallOptions): Promise<SeriesSummary>;
    list(o?: CallOptions): Promise<SeriesSummary[]>;
    get(id: string, o?: CallOptions): Promise<Series>;
    update(id: string, patch: SeriesPatch, o?: CallOptions): Promise<Series>;
    delete(id: string, o?: CallOptions): Promise<{ deleted: boolean }>;
    generate(id: string, o: IdempotentCallOptions): Promise<GeneratedEpisode>;
    episodes(id: string, q?: PageQuery, o?: CallOptions): Promise<Paged<Episode>>;
  };
  posts: {
    publish(body: PublishInput, o: IdempotentCallOptions): Promise<Published>;
    schedule(body: ScheduleInput, o: IdempotentCallOptions): Promise<Scheduled>;
    cancel(videoId: string, o?: CallOptions): Promise<{ cancelled: boolean }>;
    calendar(q: CalendarQuery, o?: CallOptions): Promise<CalendarEntry[]>;
  };
  accounts: { list(o?: CallOptions): Promise<Accounts> };
  voices: { list(o?: CallOptions): Promise<Voice[]> };
  options: {
    get(kind: OptionKind, o?: CallOptions): Promise<OptionCatalog>;
    kinds(o?: CallOptions): Promise<string[]>;
  };
  assets: { create(body: AssetInput, o: IdempotentCallOptions): Promise<Asset> };
  analytics: { get(q?: AnalyticsQuery, o?: CallOptions): Promise<Analytics> };
}

/** Builds a client for one team API key (the key of the chat user who caused the call). */
export type VideoApiFactory = (apiKey: string) => VideoApi;

/** The documented `error.type` values, plus the client's own transport failures. Open: unknown types pass through. */
export type ApiErrorType =
  | 'invalid_input'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'forbidden_scope'
  | 'usage_limit_reached'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'internal_error'
  | 'connection_error'
  | 'timeout'
  | 'invalid_response'
  | (string & {});

/**
 * A failed call to the video API. The client throws subclasses of this (one per type); the core branches
 * on `type`, never on `message` (messages can change, types do not).
 */
export class VideoApiError extends Error {
  override readonly name: string = 'VideoApiError';
  constructor(
    readonly type: ApiErrorType,
    message: string,
    readonly details: {
      status?: number;
      /** Seconds, from `Retry-After` on 429. */
      retryAfter?: number;
      requestId?: string;
      method?: string;
      path?: string;
    } = {},
  ) {
    super(message);
  }
  get status(): number | undefined {
    return this.details.status;
  }
}
