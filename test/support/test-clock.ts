/**
 * Virtual time for tests: `sleep` moves time at once (a client's back-off costs nothing), while a `timer` — a
 * deadline raced against other work — fires only when time moves past it, by `advance` or someone's `sleep`.
 */
import type { Clock } from '../../src/core/ports/index.js';

/** A Monday morning, so "tomorrow 9am" and weekday cadences are predictable. */
export const HARNESS_START = Date.parse('2026-11-23T08:00:00Z');

interface Timer {
  at: number;
  fire: () => void;
}

export class TestClock implements Clock {
  #timers: Timer[] = [];
  #armed: (() => void)[] = [];

  constructor(private current = HARNESS_START) {}

  now(): number {
    return this.current;
  }

  async sleep(ms: number): Promise<void> {
    this.#moveBy(Math.max(0, ms));
  }

  timer(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const timer: Timer = { at: this.current + Math.max(0, ms), fire: resolve };
      this.#timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.#timers = this.#timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
      for (const wake of this.#armed.splice(0)) wake();
    });
  }

  advance(ms: number): void {
    this.#moveBy(ms);
  }

  /** How many timers wait for time to move. */
  get timers(): number {
    return this.#timers.length;
  }

  /** Resolves once at least `count` timers wait (a deadline the code under test has armed). */
  async armed(count = 1): Promise<void> {
    while (this.#timers.length < count) await new Promise<void>((wake) => this.#armed.push(wake));
  }

  #moveBy(ms: number): void {
    this.current += ms;
    const due = this.#timers.filter((t) => t.at <= this.current).sort((a, b) => a.at - b.at);
    this.#timers = this.#timers.filter((t) => t.at > this.current);
    for (const timer of due) timer.fire();
  }
}

/** The `timer` of a clock only a test moves, and never past a deadline: it fires never, and rejects on abort. */
export function untilAborted(_ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
