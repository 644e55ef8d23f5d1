/**
 * The generation phase of a `generation` watch: progress readings until the video completes or fails. The
 * next look is planned from the percent rate; the look expected to find it done reads the video itself.
 */

import type { Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { command, joinText, literal, md } from '../text/text.js';
import type { Video, VideoStatus } from '../video-api/video-api.js';
import {
  cardModel,
  type GenerationState,
  type Look,
  nameOf,
  requesterPings,
  result,
  withoutFinishing,
} from './generation-state.js';
import { lastSeenOf } from './look-trouble.js';
import { estimateRemainingMs, GENERATION_BOUNDS, planNextLook, rateSamples } from './progress-estimate.js';
import { onClock } from './service-time.js';
import { cardThumbnailsOf, thumbnailsPending } from './thumbnail-options.js';
import { THUMBNAIL_BOUNDS } from './thumbnail-phase.js';
import type { VideoCardPatch, VideoEffects } from './video-card.js';
import { readOrUnusable, type WatchContext, type WatchResult } from './watcher.js';

/** The card is edited once per this many percent. */
export const PERCENT_STEP = 5;
const SAMPLES_KEPT = 6;

/** The percent step a card shows (0, 5, 10…). */
export const percentStep = (percent: number): number =>
  Math.floor(Math.max(0, Math.min(100, percent)) / PERCENT_STEP) * PERCENT_STEP;

/** Warnings a card shows at most, each cut to a readable length. */
const MAX_WARNINGS = 3;
const MAX_WARNING_CHARS = 300;

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
      reply: {
        card: readyReply(name, videoId, model?.kind === 'caption'),
        dedupe: `${key}:ready`,
        pings: requesterPings(watch, state),
      },
    },
  });
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
      reply: {
        card: failedReply(name, videoId, status.errorMessages),
        dedupe: `${key}:failed:reply`,
        pings: requesterPings(watch, state),
      },
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

export async function checkGeneration(
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
