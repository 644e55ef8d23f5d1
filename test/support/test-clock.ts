/**
 * Virtual time for tests, the one clock every suite moves by hand. A `timer` — a deadline raced against other
 * work — fires only when time moves past it. `sleep` moves time at once by default (a client's back-off costs
 * nothing, and is recorded in `sleeps`); with `{ sleep: 'waits' }` it is a timer like any other, for the suites
 * that watch the back-off itself. Time moves at once with `advance` or `set`, or the way a running program sees
 * it with `pass` and `run`, which let pending work settle between the timers they fire.
 */
import type { Clock } from '../../src/core/ports/index.js';

/** A Monday morning, so "tomorrow 9am" and weekday cadences are predictable. */
export const HARNESS_START = Date.parse('2026-11-23T08:00:00Z');

export interface TestClockOptions {
  /** Where time starts (default HARNESS_START). */
  start?: number;
  /** `'jumps'` (the default): `sleep` moves time at once. `'waits'`: `sleep` waits for time to move. */
  sleep?: 'jumps' | 'waits';
}

interface Timer {
  at: number;
  /** Arming order, so timers due at the same moment fire in the order they were armed. */
  seq: number;
  fire: () => void;
}

/** Lets real I/O (MockAgent replies, local sockets) and promise chains run before virtual time moves. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

export class TestClock implements Clock {
  /** Every `sleep` asked for, in order, in jumping mode. */
  readonly sleeps: number[] = [];
  /** Runs after each jumping `sleep` (e.g. to flip a simulator knob between two attempts). */
  onSleep: ((ms: number) => void) | undefined;
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];
  #armed: (() => void)[] = [];
  readonly #sleepWaits: boolean;

  /** `new TestClock(T0)` starts at T0; `new TestClock({ sleep: 'waits' })` also says what `sleep` does. */
  constructor(startOrOptions: number | TestClockOptions = {}) {
    const options = typeof startOrOptions === 'number' ? { start: startOrOptions } : startOrOptions;
    this.#now = options.start ?? HARNESS_START;
    this.#sleepWaits = options.sleep === 'waits';
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#sleepWaits) return this.timer(ms, signal);
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.#moveTo(this.#now + Math.max(0, ms));
    this.onSleep?.(ms);
    return Promise.resolve();
  }

  timer(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        fire: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#timers.push(timer);
      signal?.addEventListener('abort', onAbort, { once: true });
      for (const wake of this.#armed.splice(0)) wake();
    });
  }

  /** Moves time forward by `ms` at once, firing every timer due by then. */
  advance(ms: number): void {
    this.#moveTo(this.#now + ms);
  }

  /** Sets the time to `at` (a timer due by then fires; setting it back fires none). */
  set(at: number): void {
    this.#moveTo(at);
  }

  /** Milliseconds from now of each pending timer, soonest first. */
  pending(): number[] {
    return this.#sorted().map((t) => t.at - this.#now);
  }

  /** Resolves once at least `count` timers wait (a deadline the code under test has armed). */
  async armed(count = 1): Promise<void> {
    while (this.#timers.length < count) await new Promise<void>((wake) => this.#armed.push(wake));
  }

  /**
   * Lets `ms` pass as a running program sees it: pending work settles first, then each timer due by then fires
   * in order at its own time (timers armed meanwhile included), with the work it wakes settling after each.
   */
  async pass(ms: number): Promise<void> {
    const target = this.#now + ms;
    await settle();
    for (let next = this.#sorted()[0]; next && next.at <= target; next = this.#sorted()[0]) {
      this.#fire(next);
      await settle();
    }
    this.#now = Math.max(this.#now, target);
    await settle();
  }

  /** Drives `promise` to completion, jumping to each next timer while it is pending. */
  async run<T>(promise: Promise<T>, maxSteps = 1000): Promise<T> {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    tracked.catch(() => {});
    for (let step = 0; step < maxSteps; step++) {
      await settle();
      if (done) return tracked;
      const next = this.#sorted()[0];
      if (!next) throw new Error('TestClock.run: the promise is pending with no timer left');
      this.#fire(next);
    }
    throw new Error('TestClock.run: too many steps');
  }

  #moveTo(at: number): void {
    this.#now = at;
    const due = this.#sorted().filter((t) => t.at <= at);
    this.#timers = this.#timers.filter((t) => t.at > at);
    for (const timer of due) timer.fire();
  }

  #fire(timer: Timer): void {
    this.#timers = this.#timers.filter((t) => t !== timer);
    this.#now = Math.max(this.#now, timer.at);
    timer.fire();
  }

  #sorted(): Timer[] {
    return [...this.#timers].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}

/** The `timer` of a clock only a test moves, and never past a deadline: it fires never, and rejects on abort. */
export function untilAborted(_ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
