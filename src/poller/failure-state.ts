/**
 * The poller's failure bookkeeping, kept inside `watch.state` under `POLLER_STATE_KEY` (hidden from watchers,
 * cleared by a good check): consecutive failures for the backoff, permanent ones for giving up, and the
 * streak of failed looks that decides what a card says (DESIGN §4).
 */
import type { LookTrouble, StopReason } from '../core/live/watcher.js';
import type { Watch } from '../core/ports/index.js';

/** The poller's own bookkeeping inside `watch.state`; hidden from watchers, cleared by a good check. */
export const POLLER_STATE_KEY = '__poller';
export interface FailureState {
  /** Consecutive failed checks, rate limits aside (drives the backoff). */
  failures: number;
  /** Consecutive failures that will not heal by waiting (drives giving up). */
  permanent: number;
  /** Consecutive failed looks of any kind, rate limits included (drives what the card says). */
  streak: number;
  /** When the streak began. */
  since?: number;
  /** The watcher was told `failing` / `long` for this streak. */
  noticed?: boolean;
  told?: boolean;
}

/** Failed looks in a row before the card says it cannot read the service. */
export const TROUBLE_AFTER_LOOKS = 3;
/** A streak this long is told to the requester privately, once. */
export const TROUBLE_TELL_AFTER_MS = 15 * 60_000;

/** Errors that mean the owner can no longer see the job, and how the watcher is told why it stops. */
export const PERMANENT_ERRORS: ReadonlyMap<string, StopReason> = new Map([
  ['unauthorized', 'revoked'],
  ['not_found', 'not-found'],
  ['forbidden_scope', 'forbidden'],
  ['no_key', 'no-key'],
]);

/** The failure bookkeeping of a watch (all zero for one that has not failed). */
export function failureState(watch: Watch): FailureState {
  const raw = watch.state[POLLER_STATE_KEY] as Partial<FailureState> | undefined;
  const state: FailureState = {
    failures: raw?.failures ?? 0,
    permanent: raw?.permanent ?? 0,
    streak: raw?.streak ?? raw?.failures ?? 0,
  };
  if (typeof raw?.since === 'number') state.since = raw.since;
  if (raw?.noticed) state.noticed = true;
  if (raw?.told) state.told = true;
  return state;
}

/**
 * The bookkeeping to record after one more failed look, and what the watcher is to be told about the
 * streak: `failing` once it reaches `TROUBLE_AFTER_LOOKS`, `long` once it has lasted `TROUBLE_TELL_AFTER_MS`.
 */
export function afterFailedLook(
  next: FailureState,
  now: number,
): { recorded: FailureState; events: LookTrouble[] } {
  const since = next.since ?? now;
  const recorded: FailureState = { ...next, since };
  const events: LookTrouble[] = [];
  if (next.streak >= TROUBLE_AFTER_LOOKS && !next.noticed) {
    events.push({ kind: 'failing', since, now });
    recorded.noticed = true;
  }
  if (now - since >= TROUBLE_TELL_AFTER_MS && !next.told) {
    events.push({ kind: 'long', since, now });
    recorded.told = true;
  }
  return { recorded, events };
}

/** The watch as its watcher sees it: without the poller's bookkeeping. */
export function forWatcher(watch: Watch): Watch {
  if (!(POLLER_STATE_KEY in watch.state)) return watch;
  const state = { ...watch.state };
  delete state[POLLER_STATE_KEY];
  return { ...watch, state };
}
