/**
 * A watcher decides what a polled state means: it reads the API for one watch and returns the new watch
 * state plus the chat effects. The poller (src/poller) owns when to call it and applies the result in one
 * transaction with the watch update, so the state change and its notifications commit together.
 */
import type { Logger, Store, Watch, WatchKind } from '../ports/index.js';
import { type CardText, md } from '../text/text.js';
import { type VideoApi, VideoApiError } from '../video-api/video-api.js';

export interface WatchContext {
  /** A client for the watch owner's key; calls are made with `priority: 'background'`. */
  api: VideoApi;
  store: Store;
  now: number;
  logger: Logger;
  /**
   * How many times faster than `now`'s clock the service's jobs run (service-time.ts): 1 (the default) for
   * the real service, the embedded simulator's speed in demo mode.
   */
  serviceSpeed?: number;
}

export interface WatchResult {
  state: Record<string, unknown>;
  /** Terminal: the watch stops. */
  done: boolean;
  /** When the watcher would like to look again (ms from now); the poller clamps it to the kind's bounds. */
  nextCheckInMs?: number;
  /** Chat effects (card edits, replies, new watches), applied inside the poller's transaction. */
  apply?(store: Store): Promise<void>;
}

export interface Watcher {
  readonly kind: WatchKind;
  /** Bounds for the interval, from the API's advice (status 10–30 s, renders 5–15 s). */
  readonly minIntervalMs: number;
  readonly maxIntervalMs: number;
  /**
   * Its bounds and requested intervals are the service's job time (a running job's progress): the poller
   * turns them into its clock's with the service's speed. Unset: the wall clock's (calendars, slots, expiry).
   */
  readonly jobTime?: boolean;
  check(ctx: WatchContext, watch: Watch): Promise<WatchResult>;
  /**
   * The watch stops before its job finished: older than its `expiresAt`, or the poller gave up on it for
   * `reason`. Say so once, in words that fit the reason (applied in the poller's transaction).
   */
  expire(stop: WatchStop): Promise<void>;
  /**
   * Looks keep failing, or work again after failing (see `LookTrouble`); a watcher with a card says so in
   * words there. Applied in the poller's transaction with the watch update.
   */
  trouble?(report: WatchTrouble): Promise<void>;
  /**
   * Whether this look can wait when the key's background budget runs short (thumbnails of a finished video,
   * a calendar): it then leaves the budget's last part to looks at running jobs. Default: it cannot.
   */
  deferrable?(watch: Watch): boolean;
}

/** A watch that stops before its job finished: where to say so, which watch, when, and why. */
export interface WatchStop {
  store: Store;
  watch: Watch;
  now: number;
  reason: StopReason;
}

/** A streak of failed looks on one watch, with the store its words go to. */
export interface WatchTrouble {
  store: Store;
  watch: Watch;
  event: LookTrouble;
}

/**
 * A streak of failed looks, as the poller reports it to the watcher: `failing` once after 3 consecutive
 * failures (the card says it cannot read the service), `long` once when the streak has lasted 15 minutes
 * (the requester is told privately), `recovered` on the first good look after `failing`.
 */
export type LookTrouble =
  | { kind: 'failing'; since: number; now: number }
  | { kind: 'long'; since: number; now: number }
  | { kind: 'recovered'; since: number; now: number };

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
export function keyTrouble(
  reason: Exclude<StopReason, 'expired'>,
  did: CardText = md`watched this`,
): CardText {
  switch (reason) {
    case 'no-key':
      return md`the key that ${did} was unlinked`;
    case 'revoked':
      return md`the key that ${did} no longer works (revoked or expired)`;
    case 'forbidden':
      return md`the key that ${did} lacks the scope to read it`;
    case 'not-found':
      return md`the key that ${did} can no longer see it (deleted, or another team's)`;
  }
}

/** The service answered, but not in a shape the bot can use: worth trying the other read of the same job. */
export const isUnusableAnswer = (error: unknown): boolean =>
  error instanceof VideoApiError && error.type === 'invalid_response';

/** `read()`, or undefined when its answer is unusable (any other failure still throws). */
export async function readOrUnusable<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (isUnusableAnswer(error)) return undefined;
    throw error;
  }
}
