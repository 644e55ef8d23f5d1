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

import { isNotFound } from '../text/not-found.js';
import { type CardText, command, md } from '../text/text.js';
import { checkGeneration } from './generation-phase.js';
import { readGenerationState, result } from './generation-state.js';
import { lastSeenOf, videoCardTrouble } from './look-trouble.js';
import { GENERATION_BOUNDS } from './progress-estimate.js';
import { updateVideoCard } from './projections.js';
import { checkThumbnails, THUMBNAIL_BOUNDS } from './thumbnail-phase.js';
import { keyTrouble, type Watcher } from './watcher.js';

/** Said on a card when the video cannot be read any more (404). */
export const GONE_NOTICE = md`I can no longer find this video (deleted?); stopped following it.`;

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
