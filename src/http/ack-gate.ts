import type { Clock } from '../core/ports/index.js';

export interface AckGateOptions {
  /**
   * The longest work waits, whatever is pending (default 1.5 s): long enough for a burst of a few hundred
   * acknowledgements on a busy machine, short enough to leave half of Slack's 3 s trigger window to a command
   * that opens a modal.
   */
  maxWaitMs?: number;
  /**
   * How long nothing must have been pending before work starts (default 0: as soon as nothing is). Requests
   * over HTTP arrive one connection at a time, each acknowledged before the next is read: without a quiet
   * period the first one's work would start before the second arrived, and delay its acknowledgement.
   */
  quietMs?: number;
}

/** Why the deadline timer was stopped: a constant, so no `DOMException` is built per release. */
const RELEASED = new Error('released');

/**
 * Acknowledgements before work. Slack and Discord drop an interaction that is not acknowledged within 3 s.
 * When a burst arrives, the work of the first ones (API calls, rendering, follow-ups) would otherwise run
 * between the later ones' acknowledgements and delay them (docs/performance.md, ack latency). A request is
 * pending from its arrival until it is acknowledged; work that may wait does so until none has been pending
 * for `quietMs`, or `maxWaitMs` at most, so one stuck acknowledgement never holds the work back for long.
 */
export class AckGate {
  #pending = 0;
  #waiters: { release: () => void; until: number }[] = [];
  /** Stops the timer of the earliest waiter's deadline. */
  #deadlines: AbortController | undefined;
  /** When the last pending acknowledgement was answered. */
  #quietSince = Number.NEGATIVE_INFINITY;
  /** A timer checking whether the quiet period is over (at most one at a time). */
  #quietTimer = false;
  readonly #maxWaitMs: number;
  readonly #quietMs: number;

  constructor(
    private readonly clock: Clock,
    options: AckGateOptions = {},
  ) {
    this.#maxWaitMs = options.maxWaitMs ?? 1_500;
    this.#quietMs = options.quietMs ?? 0;
  }

  /** A request arrived; call the returned function once it is acknowledged (extra calls are ignored). */
  arrived(): () => void {
    this.#pending++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#pending--;
      if (this.#pending > 0) return;
      this.#quietSince = this.clock.now();
      if (this.#waiters.length > 0) this.#releaseWhenQuiet();
    };
  }

  get pending(): number {
    return this.#pending;
  }

  /** Resolves when no acknowledgement has been pending for the quiet period (at once if so), or after `maxWaitMs`. */
  clear(): Promise<void> {
    if (this.#quiet()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#waiters.push({ release: resolve, until: this.clock.now() + this.#maxWaitMs });
      this.#watchDeadlines();
      if (this.#pending === 0) this.#releaseWhenQuiet();
    });
  }

  #quiet(): boolean {
    return this.#pending === 0 && this.clock.now() - this.#quietSince >= this.#quietMs;
  }

  /** Releases the waiters once the quiet period is over; an arrival meanwhile puts it off until it is answered. */
  #releaseWhenQuiet(): void {
    if (this.#quiet()) {
      this.#release();
      return;
    }
    if (this.#quietTimer || this.#pending > 0) return;
    this.#quietTimer = true;
    void this.clock.timer(this.#quietSince + this.#quietMs - this.clock.now()).then(() => {
      this.#quietTimer = false;
      if (this.#pending === 0 && this.#waiters.length > 0) this.#releaseWhenQuiet();
    });
  }

  /**
   * One timer for every waiter's `maxWaitMs` (a burst brings hundreds of waiters: a timer and an abort signal
   * each cost more than the acknowledgements around them), armed for the earliest deadline, stopped when no
   * waiter is left.
   */
  #watchDeadlines(): void {
    if (this.#deadlines || this.#waiters.length === 0) return;
    const stop = new AbortController();
    this.#deadlines = stop;
    const next = Math.min(...this.#waiters.map((w) => w.until));
    this.clock.timer(next - this.clock.now(), stop.signal).then(
      () => {
        this.#deadlines = undefined;
        const now = this.clock.now();
        const due = this.#waiters.filter((w) => w.until <= now);
        this.#waiters = this.#waiters.filter((w) => w.until > now);
        for (const waiter of due) waiter.release();
        this.#watchDeadlines();
      },
      () => {},
    );
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#deadlines?.abort(RELEASED);
    this.#deadlines = undefined;
    for (const waiter of waiters) waiter.release();
  }
}
