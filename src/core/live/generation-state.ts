/**
 * What a `generation` watch keeps between looks (read tolerantly from the stored state), and the outcome of
 * one look, shared by the generation phase (generation-phase.ts) and the thumbnail phase (thumbnail-phase.ts).
 */

import type { Store, Watch } from '../ports/index.js';
import type { Ping } from './pings.js';
import type { ProgressSample } from './progress-estimate.js';
import { applyVideoEffects, watchedVideoState } from './projections.js';
import type { VideoCardModel, VideoEffects } from './video-card.js';
import type { WatchContext, WatchResult } from './watcher.js';

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

/** Who the video's ready or failed milestone pings: whoever asked for it there (series episodes: nobody). */
export const requesterPings = (watch: Watch, state: GenerationState): Ping[] =>
  state.requester ? [{ user: state.requester, where: watch.conversation }] : [];

/** One look at a generating video: the poller's context, the watch and its state. */
export interface Look {
  ctx: WatchContext;
  watch: Watch;
  state: GenerationState;
}

/** The name to speak of: the card's (renames land there), else the one remembered at the start. */
export async function nameOf(store: Store, watch: Watch, state: GenerationState): Promise<string> {
  return (await watchedVideoState(store, watch))?.name || state.name || watch.target;
}

export const cardModel = async (store: Store, watch: Watch): Promise<VideoCardModel | undefined> =>
  await watchedVideoState(store, watch);

/** A look's outcome: the new state, whether the watch is done, when to look again, and the card's changes. */
interface Outcome {
  state: GenerationState;
  done: boolean;
  /** Omitted: the poller's own interval. */
  next?: number | undefined;
  effects: VideoEffects;
}

export function result(watch: Watch, { state, done, next, effects }: Outcome): WatchResult {
  const out: WatchResult = {
    state: asRecord(state),
    done,
    apply: async (store) => await applyVideoEffects(store, watch, effects),
  };
  if (next !== undefined) out.nextCheckInMs = next;
  return out;
}

export function withoutFinishing(state: GenerationState): GenerationState {
  const { finishing: _finishing, ...rest } = state;
  return rest;
}
