/**
 * A background loop's pace on the injected clock: `tick` runs every `intervalMs` until stopped. It waits on the
 * clock's `timer`, so a virtual clock runs it as its time moves and the system clock's timers never keep the
 * process alive; a tick is not awaited, so a slow one does not shift the pace (as with `setInterval`).
 */
import type { Clock } from '../core/ports/index.js';

/** A running ticker: `stop` ends it before its next tick. */
export interface Ticker {
  stop(): void;
}

export function startTicker(clock: Clock, intervalMs: number, tick: () => void): Ticker {
  const stopped = new AbortController();
  const loop = async () => {
    for (;;) {
      await clock.timer(intervalMs, stopped.signal);
      tick();
    }
  };
  // The loop ends only by its timer rejecting once stopped.
  loop().catch(() => undefined);
  return { stop: () => stopped.abort(new Error('ticker stopped')) };
}
