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
  /**
   * The watch stops before its job finished: older than its `expiresAt`, or the poller gave up on it for
   * `reason`. Say so once, in words that fit the reason (applied in the poller's transaction).
   */
  expire(store: Store, watch: Watch, now: number, reason: StopReason): void;
}

/**
 * Why a watch stops early: `expired` (its age limit); or the poller gave up after repeated failures of the
 * owner's key: `no-key` (unlinked, or unreadable), `revoked` (401), `not-found` (404: deleted, or not the
 * key's team), `forbidden` (403: a scope is missing).
 */
export type StopReason = 'expired' | 'no-key' | 'revoked' | 'not-found' | 'forbidden';

/**
 * Why the poller gave up, as a clause about the key that watched: "the key that watched this was unlinked".
 * `did` says what the key did (`watched this`, `followed this series here`).
 */
export function keyTrouble(reason: Exclude<StopReason, 'expired'>, did = 'watched this'): string {
  switch (reason) {
    case 'no-key':
      return `the key that ${did} was unlinked`;
    case 'revoked':
      return `the key that ${did} no longer works (revoked or expired)`;
    case 'forbidden':
      return `the key that ${did} lacks the scope to read it`;
    case 'not-found':
      return `the key that ${did} can no longer see it (deleted, or another team's)`;
  }
}
