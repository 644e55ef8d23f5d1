/**
 * A watcher decides what a polled state means: it reads the API for one watch and returns the new watch
 * state plus the chat effects. The poller (src/poller) owns when to call it and applies the result in one
 * transaction with the watch update, so the state change and its notifications commit together.
 */
import type { Logger, Store, Watch, WatchKind } from '../ports.js';
import type { VideoApi } from '../video-api.js';

export interface WatchContext {
  /** A client for the watch owner's key; calls are made with `priority: 'background'`. */
  api: VideoApi;
  store: Store;
  now: number;
  logger: Logger;
}

export interface WatchResult {
  state: Record<string, unknown>;
  /** Terminal: the watch stops. */
  done: boolean;
  /** When the watcher would like to look again (ms from now); the poller clamps it to the kind's bounds. */
  nextCheckInMs?: number;
  /** Chat effects (card edits, replies, new watches), applied inside the poller's transaction. */
  apply?(store: Store): void;
}

export interface Watcher {
  readonly kind: WatchKind;
  /** Bounds for the interval, from the API's advice (status 10–30 s, renders 5–15 s). */
  readonly minIntervalMs: number;
  readonly maxIntervalMs: number;
  check(ctx: WatchContext, watch: Watch): Promise<WatchResult>;
  /** The watch is older than its `expiresAt`: say so once (applied in the poller's transaction). */
  expire(store: Store, watch: Watch, now: number): void;
}
