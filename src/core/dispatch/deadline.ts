/**
 * Deadlines on the injected clock (its `timer`), so tests move time instead of waiting: the Slack and Discord
 * acknowledgement budgets, autocomplete, and HTTP calls that must not hang.
 */
import type { Clock } from '../ports/index.js';

/** `work`'s result if it settles within `ms`, else undefined; the timer is cancelled either way. */
export async function within<T>(clock: Clock, ms: number, work: Promise<T>): Promise<T | undefined> {
  const stop = new AbortController();
  const late = clock.timer(Math.max(0, ms), stop.signal).then(
    () => undefined,
    () => undefined,
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    stop.abort();
  }
}

/** A signal that aborts after `ms` (with a "timed out" error); `clear()` once the guarded call is over. */
export function abortAfter(clock: Clock, ms: number): { signal: AbortSignal; clear(): void } {
  const timeout = new AbortController();
  const stop = new AbortController();
  clock.timer(ms, stop.signal).then(
    () => timeout.abort(new Error(`timed out after ${ms} ms`)),
    () => {},
  );
  return { signal: timeout.signal, clear: () => stop.abort() };
}
