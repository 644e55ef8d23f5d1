/** A sliding-window log: at most `limit` events in any `windowMs`. */
export class SlidingWindow {
  readonly #events: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Events still inside the window at `now`. */
  count(now: number): number {
    this.#prune(now);
    return this.#events.length;
  }

  /** Milliseconds until one more event fits under `limit` (default: this window's own limit). */
  delay(now: number, limit = this.limit): number {
    this.#prune(now);
    if (this.#events.length < limit) return 0;
    if (limit <= 0) return this.windowMs;
    // The window has room again once the (count - limit + 1) oldest events have left it.
    const freeing = this.#events[this.#events.length - limit] ?? now;
    return Math.max(1, freeing + this.windowMs - now);
  }

  record(now: number): void {
    this.#events.push(now);
  }

  #prune(now: number): void {
    let expired = 0;
    while (expired < this.#events.length && (this.#events[expired] ?? now) + this.windowMs <= now) expired++;
    if (expired > 0) this.#events.splice(0, expired);
  }
}
