import type { Clock } from '../core/ports/index.js';

/**
 * Acknowledgements before work. Slack and Discord drop an interaction that is not acknowledged within 3 s.
 * When a burst arrives, the work of the first ones (API calls, rendering, follow-ups) would otherwise run
 * between the later ones' acknowledgements and delay them (docs/performance.md, ack latency). A request is
 * pending from its arrival until it is acknowledged; work that may wait does so until none is pending, or
 * `maxWaitMs` at most, so one stuck acknowledgement never holds the work back for long.
 */
export class AckGate {
  #pending = 0;
  #waiters: (() => void)[] = [];

  /**
   * 1.5 s: long enough for a burst of a few hundred acknowledgements on a busy machine, short enough to leave
   * half of Slack's 3 s trigger window to a command that opens a modal.
   */
  constructor(
    private readonly clock: Clock,
    private readonly maxWaitMs = 1_500,
  ) {}

  /** A request arrived; call the returned function once it is acknowledged (extra calls are ignored). */
  arrived(): () => void {
    this.#pending++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#pending--;
      if (this.#pending === 0) this.#release();
    };
  }

  get pending(): number {
    return this.#pending;
  }

  /** Resolves when no acknowledgement is pending (at once if none is), or after `maxWaitMs`. */
  clear(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const stop = new AbortController();
      const release = () => {
        stop.abort();
        resolve();
      };
      this.clock.timer(this.maxWaitMs, stop.signal).then(
        () => {
          this.#waiters = this.#waiters.filter((w) => w !== release);
          resolve();
        },
        () => {},
      );
      this.#waiters.push(release);
    });
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const release of waiters) release();
  }
}
