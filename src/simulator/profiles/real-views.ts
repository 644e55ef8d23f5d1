/**
 * Response `data` as the real service shows it, derived from the spec view the common handler built (and
 * the records behind it). Only optional, nice-to-have fields change type; ids, status, percentCompleted and
 * name never do.
 */
import type { VoiceRec } from '../catalog.js';
import type { RouteContext } from '../router.js';
import { WEEKDAYS } from '../vocabulary.js';
import { realOptions } from './real-options.js';
import { realEvents, realMessages, realPercent, realReadyForEditing, realStage } from './real-progress.js';
import { realVoices, shownVoiceId } from './real-voices.js';

type Json = Record<string, unknown>;
export type View = (data: unknown, ctx: RouteContext) => unknown;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Platforms whose accounts GET /accounts lists in the older `{ id, channelName }` shape. */
const OLDER_ACCOUNT_SHAPE = new Set(['youtube', 'x']);

/** The Mongo version key the real service leaks on its documents. */
const VERSION_KEY = { __v: 0 };

/** Any other endpoint: an unknown field on the object, or on each item of a list. */
export function decorate(data: unknown): unknown {
  if (Array.isArray(data)) return data.map((item) => (isObject(item) ? { ...item, ...VERSION_KEY } : item));
  return isObject(data) ? { ...data, ...VERSION_KEY } : data;
}

function videoRec(ctx: RouteContext, data: unknown) {
  const id = isObject(data) ? data.id : undefined;
  return typeof id === 'string' ? ctx.engine.store.videos.get(id) : undefined;
}

function compactThumbnails(data: unknown): unknown {
  if (!isObject(data) || !isObject(data.thumbnails)) return decorate(data);
  return { ...data, thumbnails: { ...data.thumbnails, engine: 'thumbgen-2' }, ...VERSION_KEY };
}

function fullThumbnails(thumbnails: Json): Json {
  const variants = Array.isArray(thumbnails.variants) ? thumbnails.variants : [];
  return {
    ...thumbnails,
    generation: String(thumbnails.generation),
    variants: variants.map((v: Json) => ({ ...v, score: String(v.score), width: 1080, height: 1920 })),
    engine: 'thumbgen-2',
  };
}

function videoDetail(data: unknown, ctx: RouteContext): unknown {
  const video = videoRec(ctx, data);
  if (!video || !isObject(data) || !isObject(data.thumbnails)) return decorate(data);
  return {
    ...data,
    platform: 'tts',
    voiceId: shownVoiceId(ctx.team, data.voiceId),
    thumbnails: fullThumbnails(data.thumbnails),
    createdAt: video.createdAt,
    userId: ctx.team.id,
    ...VERSION_KEY,
  };
}

/** List items: `platform` "tts", `thumbnailUrl` left out of every other item, extra fields. */
function videoList(data: unknown, ctx: RouteContext): unknown {
  if (!Array.isArray(data)) return data;
  return data.map((item: Json, i) => {
    const { thumbnailUrl, ...rest } = item;
    const video = videoRec(ctx, item);
    return {
      ...rest,
      platform: 'tts',
      ...(i % 2 === 1 ? {} : { thumbnailUrl }),
      status: video?.status,
      ...VERSION_KEY,
    };
  });
}

function videoStatus(data: unknown, ctx: RouteContext): unknown {
  const video = videoRec(ctx, data);
  if (!video || !isObject(data)) return decorate(data);
  const { now, origin } = ctx;
  return {
    id: data.id,
    status: data.status,
    percentCompleted: realPercent(video, now),
    readyForEditing: realReadyForEditing(video),
    errorMessages: realMessages(video, now),
    // A low-resolution preview is linked while it is still generating.
    renderedVideoUrl:
      video.status === 'processing' ? `${origin}${previewMediaPath(video.id)}` : data.renderedVideoUrl,
    events: realEvents(video, now),
    stage: realStage(video, now),
  };
}

export function previewMediaPath(videoId: string): string {
  return `/media/preview/${videoId}.mp4`;
}

/** `{ team: { name, credits }, plan, auth: { via, scopes } }`: no team id, key prefix or legacy flag. */
function me(data: unknown): unknown {
  if (!isObject(data) || !isObject(data.team) || !isObject(data.auth)) return data;
  return {
    team: { name: data.team.name, credits: data.team.credits, seats: 5 },
    plan: data.plan,
    auth: { via: data.auth.via, scopes: data.auth.scopes, lastUsedAt: null },
    features: ['series', 'autopost', 'thumbnails'],
  };
}

function accounts(data: unknown): unknown {
  if (!isObject(data)) return data;
  const out: Json = {};
  for (const [platform, list] of Object.entries(data)) {
    out[platform] = (list as Json[]).map((a) =>
      OLDER_ACCOUNT_SHAPE.has(platform)
        ? { id: a.authId, channelName: a.label, avatarUrl: null }
        : { ...a, status: 'active' },
    );
  }
  return out;
}

/** The older analytics shape: `totals{posts, views, likes}` and `platforms{<platform>{posts, views}}` only. */
function analytics(data: unknown): unknown {
  if (!isObject(data) || !isObject(data.totals) || !isObject(data.byPlatform)) return data;
  const views = Number(data.totals.totalViews);
  const platforms: Json = {};
  for (const [platform, stats] of Object.entries(data.byPlatform as Record<string, Json>)) {
    platforms[platform] = { posts: stats.postsSynced, views: stats.totalViews };
  }
  return {
    totals: { posts: data.totals.postsSynced, views, likes: Math.floor(views * 0.06) },
    platforms,
  };
}

/** Series configuration fields in the real service's forms (GET one, PATCH answer). */
function seriesConfig(data: unknown, ctx: RouteContext): unknown {
  if (!isObject(data)) return data;
  const out: Json = { ...data };
  if (Array.isArray(data.postingDays)) {
    out.postingDays = data.postingDays.map((day) => WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]));
  }
  if (Array.isArray(data.destinationAccounts)) {
    const byPlatform: Record<string, string[]> = {};
    for (const id of data.destinationAccounts as string[]) {
      const platform =
        Object.entries(ctx.team.accounts).find(([, list]) => list.some((a) => a.authId === id))?.[0] ??
        String(data.destination ?? 'youtube');
      byPlatform[platform] = [...(byPlatform[platform] ?? []), id];
    }
    out.destinationAccounts = byPlatform;
  }
  if (typeof data.duration === 'number') out.duration = String(data.duration);
  if ('voice' in data) out.voice = shownVoiceId(ctx.team, data.voice);
  return { ...out, ...VERSION_KEY };
}

export const REAL_VIEWS: Record<string, View> = {
  'GET /me': me,
  'GET /accounts': accounts,
  'GET /options': realOptions,
  'GET /voices': (data) => realVoices(data as VoiceRec[]),
  'GET /analytics': analytics,
  'GET /videos': videoList,
  'GET /videos/{id}': videoDetail,
  'GET /videos/{id}/status': videoStatus,
  'PATCH /videos/{id}': compactThumbnails,
  'POST /videos/{id}/thumbnail': compactThumbnails,
  'GET /series/{id}': seriesConfig,
  'PATCH /series/{id}': seriesConfig,
  'GET /credits': (data) =>
    isObject(data) ? { ...data, history: decorate(data.history), currency: 'credits' } : data,
};
