/**
 * The `generation` watch: follows one video from POST /videos (or /videos/captions) until it completes or
 * fails, editing its status card in place. Percent changes edit the card once per 5 % step; completion
 * fetches the video for its thumbnails and keeps watching them while they are queued or generating; a
 * milestone ("✅ … is ready" / "❌ … failed") goes once to the card's thread.
 *
 * The interval adapts (10–30 s of the service's time, the API's advice for status polling; service-time.ts
 * for the demo's faster simulator): the percent rate estimates the finish
 * and the next look lands just after it. That look reads the video itself (GET /videos/{id}) rather than its
 * status: when the estimate was right, one call says "completed" and carries the name and thumbnails the
 * card needs. Measured in bench/poller-scale (docs/performance.md).
 */

import type { Store, Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { isNotFound } from '../text/not-found.js';
import { type CardText, command, joinText, literal, md } from '../text/text.js';
import type { Video, VideoStatus } from '../video-api/video-api.js';
import { lastSeenOf, videoCardTrouble } from './look-trouble.js';
import {
  estimateRemainingMs,
  GENERATION_BOUNDS,
  type ProgressSample,
  planNextLook,
  rateSamples,
} from './progress-estimate.js';
import { applyVideoEffects, updateVideoCard, watchedVideoState } from './projections.js';
import { onClock } from './service-time.js';
import {
  cardThumbnailsOf,
  thumbnailsPending,
  type VideoCardModel,
  type VideoCardPatch,
  type VideoEffects,
} from './video-card.js';
import { keyTrouble, readOrUnusable, type WatchContext, type Watcher, type WatchResult } from './watcher.js';

const SECOND = 1000;
/** Thumbnails come within seconds to a minute of completion: look more often. */
export const THUMBNAIL_BOUNDS = { min: 5 * SECOND, max: 15 * SECOND } as const;
/** Thumbnails that never settle stop being awaited after this. */
export const THUMBNAIL_WAIT_MS = 10 * 60 * SECOND;
/** `idle` means "never generated": after completion it should turn `queued` at once; if not, none are coming. */
export const IDLE_WAIT_MS = 2 * 60 * SECOND;
/** The card is edited once per this many percent. */
export const PERCENT_STEP = 5;
const SAMPLES_KEPT = 6;

/** Said on a card when the video cannot be read any more (404). */
export const GONE_NOTICE = md`I can no longer find this video (deleted?); stopped following it.`;

/** The percent step a card shows (0, 5, 10…). */
export const percentStep = (percent: number): number =>
  Math.floor(Math.max(0, Math.min(100, percent)) / PERCENT_STEP) * PERCENT_STEP;

export interface GenerationState {
  name: string;
  phase: 'generating' | 'thumbnails';
  samples: ProgressSample[];
  lastStep: number;
  completedAt?: number;
  /** Last thumbnail status shown, so unchanged thumbnails do not re-edit the card. */
  thumbnails?: string;
  /** When generation started, if this bot created the video (absent for series episodes found later). */
  startedAt?: number;
  /** The next look is the expected finish: it reads the video rather than its status. */
  finishing?: boolean;
  /** Warnings last shown (`errorMessages` while processing), so unchanged ones do not re-edit the card. */
  warnings?: string[];
  /** Who asked for the video here: told privately when its looks fail for long. */
  requester?: string;
}

/** Warnings a card shows at most, each cut to a readable length. */
const MAX_WARNINGS = 3;
const MAX_WARNING_CHARS = 300;

export function readGenerationState(raw: Record<string, unknown>): GenerationState {
  const samples = Array.isArray(raw.samples)
    ? raw.samples.filter(
        (s): s is ProgressSample =>
          typeof s === 'object' &&
          s !== null &&
          typeof (s as ProgressSample).at === 'number' &&
          typeof (s as ProgressSample).percent === 'number',
      )
    : [];
  const state: GenerationState = {
    name: typeof raw.name === 'string' ? raw.name : '',
    phase: raw.phase === 'thumbnails' ? 'thumbnails' : 'generating',
    samples,
    lastStep: typeof raw.lastStep === 'number' ? raw.lastStep : -1,
  };
  if (typeof raw.completedAt === 'number') state.completedAt = raw.completedAt;
  if (typeof raw.thumbnails === 'string') state.thumbnails = raw.thumbnails;
  if (typeof raw.startedAt === 'number') state.startedAt = raw.startedAt;
  if (raw.finishing === true) state.finishing = true;
  if (typeof raw.requester === 'string') state.requester = raw.requester;
  if (Array.isArray(raw.warnings)) state.warnings = raw.warnings.filter((w) => typeof w === 'string');
  return state;
}

const asRecord = (s: GenerationState): Record<string, unknown> => ({ ...s });

/** The name to speak of: the card's (renames land there), else the one remembered at the start. */
/** One look at a generating video: the poller's context, the watch and its state. */
interface Look {
  ctx: WatchContext;
  watch: Watch;
  state: GenerationState;
}

async function nameOf(store: Store, watch: Watch, state: GenerationState): Promise<string> {
  return (await watchedVideoState(store, watch))?.name || state.name || watch.target;
}

const cardModel = async (store: Store, watch: Watch): Promise<VideoCardModel | undefined> =>
  await watchedVideoState(store, watch);

/** A look's outcome: the new state, whether the watch is done, when to look again, and the card's changes. */
interface Outcome {
  state: GenerationState;
  done: boolean;
  /** Omitted: the poller's own interval. */
  next?: number | undefined;
  effects: VideoEffects;
}

function result(watch: Watch, { state, done, next, effects }: Outcome): WatchResult {
  const out: WatchResult = {
    state: asRecord(state),
    done,
    apply: async (store) => await applyVideoEffects(store, watch, effects),
  };
  if (next !== undefined) out.nextCheckInMs = next;
  return out;
}

const readyReply = (name: string, videoId: string, caption: boolean): Card => ({
  title: md`✅ ${literal(name)} is ready`,
  tone: 'success',
  text: md`${caption ? md`Captions are done.` : md`Generation is done.`} Pick a thumbnail on the card, then **Render** or **Schedule**.`,
  context: md`id \`${literal(videoId)}\``,
});

const failedReply = (name: string, videoId: string, reasons: string[]): Card => ({
  title: md`❌ ${literal(name)} failed`,
  tone: 'danger',
  text: md`${
    joinText(
      reasons.map((r) => md`• ${literal(r)}`),
      '\n',
    ) || md`• No reason given.`
  }\nCredits are not refunded automatically. Adjust the script or voice and run ${command('create')} again.`,
  context: md`id \`${literal(videoId)}\``,
});

/**
 * The video finished: show it with its thumbnails (if any yet), say so once, and wait for pending ones.
 * Without `video` (its read was unusable) the thumbnails are looked for again in the thumbnail phase.
 */
async function completed({ ctx, watch, state }: Look, video: Video | undefined): Promise<WatchResult> {
  const videoId = watch.target;
  const key = watch.cardKey ?? `video:${videoId}`;
  const name = video?.name || (await nameOf(ctx.store, watch, state));
  const model = await cardModel(ctx.store, watch);
  const thumbnails = cardThumbnailsOf(video?.thumbnails, model?.thumbnails);
  // From the video, not its status: the real service fills the status's URL while still processing.
  const renderedVideoUrl = video?.renderedVideoUrl ?? null;
  const pending = thumbnailsPending(thumbnails?.status);
  const next: GenerationState = {
    ...withoutFinishing(state),
    phase: 'thumbnails',
    completedAt: ctx.now,
    ...(thumbnails ? { thumbnails: thumbnails.status } : {}),
  };
  const patch: VideoCardPatch = {
    phase: 'completed',
    percent: 100,
    etaMs: undefined,
    name,
    warnings: undefined,
  };
  if (thumbnails) patch.thumbnails = thumbnails;
  if (renderedVideoUrl && !model?.render) {
    patch.render = { renderId: '', status: 'done', progress: 1, url: renderedVideoUrl };
  }
  // Thumbnails take seconds after completion: the first look waits the longest thumbnail interval.
  return result(watch, {
    state: next,
    done: !pending,
    next: pending ? onClock(THUMBNAIL_BOUNDS.max, ctx.serviceSpeed) : undefined,
    effects: {
      patch,
      dedupe: `${key}:completed`,
      reply: { card: readyReply(name, videoId, model?.kind === 'caption'), dedupe: `${key}:ready` },
    },
  });
}

function withoutFinishing(state: GenerationState): GenerationState {
  const { finishing: _finishing, ...rest } = state;
  return rest;
}

/** The video's generation failed: the reasons on the card and once in its thread. */
async function failed({ ctx, watch, state }: Look, status: VideoStatus): Promise<WatchResult> {
  const videoId = watch.target;
  const key = watch.cardKey ?? `video:${videoId}`;
  const name = await nameOf(ctx.store, watch, state);
  return result(watch, {
    state: withoutFinishing(state),
    done: true,
    effects: {
      patch: {
        phase: 'failed',
        errorMessages: status.errorMessages,
        percent: status.percentCompleted,
        etaMs: undefined,
        warnings: undefined,
      },
      dedupe: `${key}:failed`,
      reply: { card: failedReply(name, videoId, status.errorMessages), dedupe: `${key}:failed:reply` },
    },
  });
}

/** Still running: a new progress reading, the next look planned from the rate, warnings shown as notes. */
function progressed({ ctx, watch, state }: Look, status: VideoStatus): WatchResult {
  const key = watch.cardKey ?? `video:${watch.target}`;
  const samples = [...state.samples, { at: ctx.now, percent: status.percentCompleted }].slice(-SAMPLES_KEPT);
  const rated = rateSamples(samples, state.startedAt);
  const step = percentStep(status.percentCompleted);
  const look = planNextLook(rated, GENERATION_BOUNDS, ctx.serviceSpeed);
  const warnings = status.errorMessages.slice(0, MAX_WARNINGS).map((w) => w.slice(0, MAX_WARNING_CHARS));
  const warned = warnings.join('\n') !== (state.warnings ?? []).join('\n');
  const next: GenerationState = {
    ...withoutFinishing(state),
    samples,
    lastStep: Math.max(step, state.lastStep),
    ...(look.finishing ? { finishing: true } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  if (warnings.length === 0) delete next.warnings;
  const effects: VideoEffects = {};
  if (step > state.lastStep || warned) {
    effects.patch = {
      phase: 'generating',
      percent: status.percentCompleted,
      etaMs: estimateRemainingMs(rated),
      warnings: warnings.length > 0 ? warnings : undefined,
    };
    effects.dedupe = `${key}:gen:${step}${warned ? `:warn:${warnings.length}:${ctx.now}` : ''}`;
  }
  return result(watch, { state: next, done: false, next: look.inMs, effects });
}

/**
 * The status read was unusable: the video itself says whether it is done (the card moves on) or still
 * running (looked at again soon; the percent waits for a status read that works).
 */
async function fromVideoRead(ctx: WatchContext, watch: Watch, state: GenerationState): Promise<WatchResult> {
  const video = await ctx.api.videos.get(watch.target);
  if (video.status === 'completed') return completed({ ctx, watch, state }, video);
  if (video.status === 'failed') {
    return failed(
      { ctx, watch, state },
      {
        id: watch.target,
        status: 'failed',
        percentCompleted: lastSeenOf(state.samples)?.percent ?? 0,
        errorMessages: [],
      },
    );
  }
  return result(watch, {
    state: withoutFinishing(state),
    done: false,
    next: onClock(GENERATION_BOUNDS.min, ctx.serviceSpeed),
    effects: {},
  });
}

async function checkGeneration(
  ctx: WatchContext,
  watch: Watch,
  state: GenerationState,
): Promise<WatchResult> {
  const videoId = watch.target;
  if (state.finishing) {
    // Expected to be done: one read of the video settles it (and carries what the finished card shows).
    const video = await readOrUnusable(() => ctx.api.videos.get(videoId));
    if (video?.status === 'completed') return completed({ ctx, watch, state }, video);
    // Slower than its rate said: back to status checks, which measure the rate again.
    if (video && video.status !== 'failed')
      return result(watch, {
        state: withoutFinishing(state),
        done: false,
        next: onClock(GENERATION_BOUNDS.min, ctx.serviceSpeed),
        effects: {},
      });
    // Failed (the reasons are on the status), or the video's read was unusable: the status says.
  }
  const status = await readOrUnusable(() => ctx.api.videos.status(videoId));
  if (!status) return fromVideoRead(ctx, watch, state);
  if (status.status === 'failed') return failed({ ctx, watch, state }, status);
  if (status.status === 'completed') {
    // The thumbnails are on the video; an unusable read of it leaves them to the thumbnail phase.
    const video = await readOrUnusable(() => ctx.api.videos.get(videoId));
    return completed({ ctx, watch, state }, video);
  }
  return progressed({ ctx, watch, state }, status);
}

async function checkThumbnails(
  ctx: WatchContext,
  watch: Watch,
  state: GenerationState,
): Promise<WatchResult> {
  const videoId = watch.target;
  const key = watch.cardKey ?? `video:${videoId}`;
  const video = await ctx.api.videos.get(videoId);
  const thumbnails = cardThumbnailsOf(video.thumbnails, (await cardModel(ctx.store, watch))?.thumbnails);
  const status = thumbnails?.status ?? 'idle';
  const pending = thumbnailsPending(status);
  const waited = ctx.now - (state.completedAt ?? ctx.now);
  const next: GenerationState = { ...state, thumbnails: status };
  const effects: VideoEffects = {};
  if (status !== state.thumbnails && thumbnails) {
    effects.patch = { thumbnails };
    effects.dedupe = `${key}:thumbnails:${status}:${thumbnails.variants.length}`;
  }
  if (status === 'idle' && waited >= onClock(IDLE_WAIT_MS, ctx.serviceSpeed)) {
    // None were ever started: show the video as complete without thumbnails rather than "on the way".
    effects.patch = { thumbnails: { status: 'none', variants: [] } };
    effects.dedupe = `${key}:thumbnails:none`;
    return result(watch, { state: next, done: true, effects });
  }
  if (pending && waited >= onClock(THUMBNAIL_WAIT_MS, ctx.serviceSpeed)) {
    effects.patch = {
      ...(effects.patch ?? {}),
      notice: md`Thumbnails are taking long; ${command('thumbnails', [videoId])} shows them once they are made.`,
    };
    effects.dedupe = `${key}:thumbnails:gave-up`;
    return result(watch, { state: next, done: true, effects });
  }
  return result(watch, {
    state: next,
    done: !pending,
    next: pending ? onClock(THUMBNAIL_BOUNDS.max / 2, ctx.serviceSpeed) : undefined,
    effects,
  });
}

/** `6 h`, `90 min`, `30 s`: how long a watch ran, for the expiry note. */
export function duration(ms: number): CardText {
  if (ms >= 3600_000 && ms % 3600_000 === 0) return md`${ms / 3600_000} h`;
  if (ms >= 60_000) return md`${Math.round(ms / 60_000)} min`;
  return md`${Math.round(ms / 1000)} s`;
}

export const generationWatcher: Watcher = {
  kind: 'generation',
  // The poller clamps to these; the watcher itself keeps generation at 10–30 s and thumbnails at 5–15 s.
  minIntervalMs: THUMBNAIL_BOUNDS.min,
  maxIntervalMs: GENERATION_BOUNDS.max,
  jobTime: true,
  // Generation is looked at every 30 s at most; a finished video's thumbnails can wait their turn.
  deferrable: (watch) => readGenerationState(watch.state).phase === 'thumbnails',
  async check(ctx, watch) {
    const state = readGenerationState(watch.state);
    try {
      return state.phase === 'thumbnails'
        ? await checkThumbnails(ctx, watch, state)
        : await checkGeneration(ctx, watch, state);
    } catch (error) {
      // Deleted elsewhere (dashboard, another channel), or the owner's key now belongs to another team.
      if (isNotFound(error)) {
        const key = watch.cardKey ?? `video:${watch.target}`;
        return result(watch, {
          state,
          done: true,
          effects: {
            patch: { notice: GONE_NOTICE, etaMs: undefined },
            dedupe: `${key}:gone`,
          },
        });
      }
      throw error;
    }
  },
  async trouble({ store, watch, event }) {
    const state = readGenerationState(watch.state);
    await videoCardTrouble(
      { store, watch, event },
      {
        videoId: watch.target,
        what: '',
        seen: state.phase === 'generating' ? lastSeenOf(state.samples) : undefined,
      },
    );
  },
  async expire({ store, watch, reason }) {
    if (!watch.cardKey) return;
    const status = command('status', [watch.target]);
    await updateVideoCard(store, watch.cardKey, {
      patch: {
        notice:
          reason === 'expired'
            ? md`Stopped watching after ${duration(watch.expiresAt - watch.createdAt)}; run ${status}`
            : md`Stopped: ${keyTrouble(reason)} — run ${status} to watch it with yours`,
        etaMs: undefined,
      },
      dedupeKey: `${watch.cardKey}:expired:${watch.id}`,
    });
  },
};
