/** Source of the simulator's "now" (epoch milliseconds). Injected so tests never sleep. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; inject it and call `advance()` to play time forward. */
export class ManualClock implements Clock {
  #now: number;

  constructor(startMs: number = Date.UTC(2026, 0, 5, 8, 0, 0)) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  set(ms: number): void {
    this.#now = ms;
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
