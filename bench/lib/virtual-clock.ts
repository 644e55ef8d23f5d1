/**
 * Discrete virtual time for benchmarks that must be fair on a noisy machine: time moves only when the driver
 * says so, so a slow CPU makes a run take longer in wall time but never changes what it measures (delays,
 * call counts). `sleep` registers a timer that fires when the driver advances past it.
 */
import type { Clock } from '../../src/core/ports/index.js';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  /** Kept sorted by (at, seq); timers are few (one per waiting budget or back-off), so an array is enough. */
  #timers: Timer[] = [];

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer: Timer = { at: this.#now + ms, seq: this.#seq++, resolve };
      const at = this.#timers.findIndex((t) => t.at > timer.at);
      this.#timers.splice(at === -1 ? this.#timers.length : at, 0, timer);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.#timers.indexOf(timer);
          if (i >= 0) this.#timers.splice(i, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** As `sleep`: both fire when the driver advances past them. */
  timer(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleep(ms, signal);
  }

  /** When the earliest timer fires, if any. */
  nextTimerAt(): number | undefined {
    return this.#timers[0]?.at;
  }

  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves to `t` (never backwards) and fires every timer due by then; their callbacks run as microtasks. */
  advanceTo(t: number): number {
    if (t > this.#now) this.#now = t;
    let fired = 0;
    while (this.#timers.length > 0 && (this.#timers[0] as Timer).at <= this.#now) {
      (this.#timers.shift() as Timer).resolve();
      fired++;
    }
    return fired;
  }
}

/**
 * Real time running `scale` times faster, anchored at a shared instant so several processes (a bot child and
 * the simulator in its parent) agree on "now" without talking: now = start + (Date.now() − realStart)·scale.
 */
export class ScaledClock implements Clock {
  constructor(
    readonly start: number,
    readonly realStart: number,
    readonly scale: number,
  ) {}

  now(): number {
    return this.start + Math.round((Date.now() - this.realStart) * this.scale);
  }

  timer(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleep(ms, signal);
  }

  /** As the system clock's wait: the abort listener goes when the wait ends, so a ticker does not pile them up. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms / this.scale),
      );
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
