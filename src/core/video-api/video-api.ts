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

export * from './video-api-types.js';

import type {
  Accounts,
  Analytics,
  AnalyticsQuery,
  Asset,
  AssetInput,
  CalendarEntry,
  CalendarQuery,
  CaptionInput,
  CreatedCaption,
  CreatedVideo,
  CreateVideoInput,
  Credits,
  Episode,
  GeneratedEpisode,
  Me,
  OptionCatalog,
  Paged,
  PageQuery,
  PatchedVideo,
  Published,
  PublishInput,
  Render,
  RenderStarted,
  Scheduled,
  ScheduleInput,
  Series,
  SeriesInput,
  SeriesPatch,
  SeriesSummary,
  ThumbnailSelection,
  Video,
  VideoListItem,
  VideoPatch,
  VideoStatus,
  Voice,
} from './video-api-types.js';

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

/**
 * Builds a client for one team API key (the key of the chat user who caused the call). `unchecked`: a key
 * the service has not accepted yet (the link form's check), which the logs must not learn to mask everywhere.
 */
export type VideoApiFactory = (apiKey: string, options?: { unchecked?: boolean }) => VideoApi;

/** The documented `error.type` values, plus the client's own transport failures. Open: unknown types pass through. */
export type ApiErrorType =
  | 'invalid_input'
  | 'unauthorized'
  | 'insufficient_credits'
  /** 402 seen from the real service (not in the spec): the payment failed; nothing charged or created. */
  | 'payment_failed'
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
