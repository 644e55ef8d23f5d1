import type { Clock } from '../../src/core/ports/index.js';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

/** Lets real I/O (MockAgent replies) and promise chains run before virtual time moves. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A manual clock: time moves only through `advance` or `run`. */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];

  constructor(start = Date.parse('2026-03-01T12:00:00Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer: Timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, resolve: () => {} };
      const onAbort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      timer.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#timers.push(timer);
    });
  }

  /** As `sleep`: both wait for `advance` or `run`. */
  timer(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleep(ms, signal);
  }

  /** Milliseconds from now of each pending timer, soonest first. */
  pending(): number[] {
    return this.#sorted().map((t) => t.at - this.#now);
  }

  /** Moves time forward by `ms`, firing due timers in order and letting their work run. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await settle();
    for (let next = this.#sorted()[0]; next && next.at <= target; next = this.#sorted()[0]) {
      this.#fire(next);
      await settle();
    }
    this.#now = target;
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
      if (!next) throw new Error('FakeClock.run: the promise is pending with no timer left');
      this.#fire(next);
    }
    throw new Error('FakeClock.run: too many steps');
  }

  #fire(timer: Timer): void {
    this.#timers = this.#timers.filter((t) => t !== timer);
    this.#now = Math.max(this.#now, timer.at);
    timer.resolve();
  }

  #sorted(): Timer[] {
    return [...this.#timers].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}
