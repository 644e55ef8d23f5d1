/**
 * Background work's share of the event loop (issue 33, "the user first"). The poller's checks and the outbox's
 * deliveries run in the process that answers people; a burst of them (64 checks whose answers arrive together,
 * each committing its state, a card and outbox rows) would otherwise run back to back in one turn of the loop
 * while a member's command waits for its own API response to be read.
 *
 * Each background step takes a turn before its work: one step per turn of the loop. The first step of a turn
 * goes on at once; the others queue and are let through one at each later turn (`setImmediate`, which comes
 * after the loop has polled for I/O), so a member's request and its API responses are read in between.
 */
export class LoopTurns {
  readonly #waiting: (() => void)[] = [];
  /** A step has gone in this turn of the loop; the next goes in at the next turn. */
  #taken = false;

  /** Resolves when a background step may run: at once if none has this turn of the loop, else at a later one. */
  turn(): Promise<void> {
    if (!this.#taken && this.#waiting.length === 0) {
      this.#take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #take(): void {
    this.#taken = true;
    setImmediate(() => {
      this.#taken = false;
      const next = this.#waiting.shift();
      if (!next) return;
      this.#take();
      next();
    });
  }
}

/** The process's one queue of background steps: the poller's checks and the outbox's deliveries. */
export const backgroundTurns = new LoopTurns();
