import type { Store, Watch } from '../ports/index.js';
import { isNotFound } from '../text/not-found.js';
import { bareUrl, command, literal, md } from '../text/text.js';
import type { Render } from '../video-api/video-api.js';
import { GONE_NOTICE } from './generation-watcher.js';
import { lastSeenOf, videoCardTrouble } from './look-trouble.js';
import { nextCheckIn, type ProgressSample } from './progress-estimate.js';
import { applyVideoEffects, updateVideoCard, watchedVideoState } from './projections.js';
import { onClock } from './service-time.js';
import type { VideoEffects } from './video-card.js';
import {
  isUnusableAnswer,
  keyTrouble,
  type WatchContext,
  type Watcher,
  type WatchResult,
} from './watcher.js';

export const RENDER_BOUNDS = { min: 5_000, max: 15_000 } as const;
/** The card is edited once per this many percent. */
export const RENDER_STEP = 10;
const SAMPLES_KEPT = 6;

export interface RenderState {
  videoId: string;
  name: string;
  codec: string;
  samples: ProgressSample[];
  lastStep: number;
  /** The video's MP4 URL before this render (a re-render), so the fallback read can tell a new one. */
  previousUrl?: string;
  /** Who started the render: told privately when its looks fail for long. */
  requester?: string;
}

export function readRenderState(raw: Record<string, unknown>): RenderState {
  return {
    videoId: typeof raw.videoId === 'string' ? raw.videoId : '',
    name: typeof raw.name === 'string' ? raw.name : '',
    codec: typeof raw.codec === 'string' ? raw.codec : 'h264',
    samples: Array.isArray(raw.samples) ? (raw.samples as ProgressSample[]) : [],
    lastStep: typeof raw.lastStep === 'number' ? raw.lastStep : -1,
    ...(typeof raw.previousUrl === 'string' ? { previousUrl: raw.previousUrl } : {}),
    ...(typeof raw.requester === 'string' ? { requester: raw.requester } : {}),
  };
}

/**
 * The render's own read was unusable: the video says whether it has a new MP4 (the render is done);
 * undefined while it has none.
 */
async function renderFromVideo(
  ctx: WatchContext,
  state: RenderState,
  renderId: string,
): Promise<Render | undefined> {
  const video = await ctx.api.videos.get(state.videoId);
  const url = video.renderedVideoUrl;
  if (url && url !== state.previousUrl) return { renderId, status: 'done', overallProgress: 1, url };
  return undefined;
}

async function nameOf(store: Store, watch: Watch, state: RenderState): Promise<string> {
  return (await watchedVideoState(store, watch))?.name || state.name || state.videoId;
}

/** A look's outcome: the new state, whether the watch is done, when to look again, and the card's changes. */
interface Outcome {
  state: RenderState;
  done: boolean;
  /** Omitted: the poller's own interval. */
  next?: number | undefined;
  effects: VideoEffects;
}

function finish(watch: Watch, { state, done, next, effects }: Outcome): WatchResult {
  const out: WatchResult = {
    state: { ...state },
    done,
    apply: async (store) => await applyVideoEffects(store, watch, effects),
  };
  if (next !== undefined) out.nextCheckInMs = next;
  return out;
}

/** One look at a render: its watch, the state read from it, the render's id and the card's dedupe key. */
interface RenderLook {
  watch: Watch;
  state: RenderState;
  renderId: string;
  key: string;
}

/**
 * The render as the service reports it, read from the video when the render's own answer is unusable;
 * an outcome instead when there is nothing to read (gone, or still running as far as the video tells).
 */
async function readRender(
  ctx: WatchContext,
  look: RenderLook,
): Promise<{ render: Render } | { outcome: WatchResult }> {
  const { watch, state, renderId } = look;
  try {
    return { render: await ctx.api.renders.get(renderId) };
  } catch (error) {
    // The video (and its renders) was deleted elsewhere.
    if (isNotFound(error)) return { outcome: renderGone(look) };
    if (!isUnusableAnswer(error)) throw error;
    const done = await renderFromVideo(ctx, state, renderId);
    // Still running as far as the video tells: the progress waits for a render read that works.
    if (!done) {
      const next = onClock(RENDER_BOUNDS.min, ctx.serviceSpeed);
      return { outcome: finish(watch, { state, done: false, next, effects: {} }) };
    }
    return { render: done };
  }
}

function renderGone({ watch, state, renderId, key }: RenderLook): WatchResult {
  return finish(watch, {
    state,
    done: true,
    effects: {
      patch: { render: undefined, notice: GONE_NOTICE },
      dedupe: `${key}:render:${renderId}:gone`,
    },
  });
}

function renderDone(
  { watch, state, renderId, key }: RenderLook,
  { name, url }: { name: string; url: string },
) {
  return finish(watch, {
    state,
    done: true,
    effects: {
      patch: { render: { renderId, status: 'done', progress: 1, url, codec: state.codec } },
      dedupe: `${key}:render:${renderId}:done`,
      reply: {
        card: {
          title: md`🎞️ ${literal(name)}`,
          tone: 'success',
          text: md`Rendered: ${bareUrl(url)}`,
          context: md`render \`${literal(renderId)}\``,
        },
        dedupe: `${key}:render:${renderId}:done:reply`,
      },
    },
  });
}

function renderFailed(
  { watch, state, renderId, key }: RenderLook,
  { name, render }: { name: string; render: Render },
) {
  return finish(watch, {
    state,
    done: true,
    effects: {
      patch: {
        render: { renderId, status: 'error', progress: render.overallProgress, codec: state.codec },
      },
      dedupe: `${key}:render:${renderId}:error`,
      reply: {
        card: {
          title: md`⚠️ Render of ${literal(name)} failed`,
          tone: 'warning',
          text: md`The render stopped with an error. Rendering is free: press **Render again** to retry.`,
          controls: [
            {
              kind: 'button',
              action: 'video.render',
              value: state.videoId,
              label: 'Render again',
              style: 'primary',
            },
          ],
          context: md`render \`${literal(renderId)}\``,
        },
        dedupe: `${key}:render:${renderId}:error:reply`,
      },
    },
  });
}

/** Still rendering: the card moves once per `RENDER_STEP` percent; the next look follows the pace. */
function renderInProgress(ctx: WatchContext, { watch, state, renderId, key }: RenderLook, render: Render) {
  const percent = Math.round(render.overallProgress * 100);
  const samples = [...state.samples, { at: ctx.now, percent }].slice(-SAMPLES_KEPT);
  const step = Math.floor(percent / RENDER_STEP) * RENDER_STEP;
  const next: RenderState = { ...state, samples, lastStep: Math.max(step, state.lastStep) };
  const effects: VideoEffects = {};
  if (step > state.lastStep) {
    effects.patch = {
      render: { renderId, status: 'in-progress', progress: render.overallProgress, codec: state.codec },
    };
    effects.dedupe = `${key}:render:${renderId}:${step}`;
  }
  const inMs = nextCheckIn(samples, RENDER_BOUNDS, ctx.serviceSpeed);
  return finish(watch, { state: next, done: false, next: inMs, effects });
}

export const renderWatcher: Watcher = {
  kind: 'render',
  minIntervalMs: RENDER_BOUNDS.min,
  maxIntervalMs: RENDER_BOUNDS.max,
  jobTime: true,
  async check(ctx, watch) {
    const state = readRenderState(watch.state);
    const renderId = watch.target;
    const look: RenderLook = { watch, state, renderId, key: watch.cardKey ?? `render:${renderId}` };
    const read = await readRender(ctx, look);
    if ('outcome' in read) return read.outcome;
    const { render } = read;
    const name = await nameOf(ctx.store, watch, state);
    if (render.status === 'done' && render.url) return renderDone(look, { name, url: render.url });
    if (render.status === 'error') return renderFailed(look, { name, render });
    return renderInProgress(ctx, look, render);
  },
  async trouble({ store, watch, event }) {
    const state = readRenderState(watch.state);
    await videoCardTrouble(
      { store, watch, event },
      {
        videoId: state.videoId,
        what: 'render ',
        seen: lastSeenOf(state.samples),
      },
    );
  },
  async expire({ store, watch, reason }) {
    if (!watch.cardKey) return;
    const state = readRenderState(watch.state);
    const show = md`${command('show', [state.videoId])} shows the MP4 link once it is done`;
    await updateVideoCard(store, watch.cardKey, {
      patch: {
        notice:
          reason === 'expired'
            ? md`Stopped watching the render; ${show}.`
            : md`Stopped watching the render: ${keyTrouble(reason)} — ${show}.`,
      },
      dedupeKey: `${watch.cardKey}:render:${watch.target}:expired`,
    });
  },
};
