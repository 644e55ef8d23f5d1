/**
 * Background work's share of the event loop (issue 33, "the user first"). The poller's checks and the outbox's
 * deliveries run in the process that answers people; a burst of them (64 checks whose answers arrive together,
 * each committing its state, a card and outbox rows) would otherwise run back to back in one turn of the loop
 * while a member's command waits for its own API response to be read.
 *
 * Each background step takes a turn before its work: a few steps per turn of the loop. The first steps of a
 * turn go on at once; the others queue and are let through a few at each later turn (`setImmediate`, which
 * comes after the loop has polled for I/O), so a member's request and its API responses are read in between.
 * A sequential loop takes a turn once per slice of its work instead (`LoopSlices`).
 */
export class LoopTurns {
  readonly #perTurn: number;
  readonly #waiting: (() => void)[] = [];
  /** Steps let in during this turn of the loop; at `perTurn`, the next wait for a later turn. */
  #taken = 0;
  #scheduled = false;

  /** `perTurn`: steps let through per turn of the loop (default 8: a few ms of commits at most). */
  constructor(perTurn = 8) {
    this.#perTurn = perTurn;
  }

  /** Resolves when a background step may run: at once while this turn of the loop has room, else later. */
  turn(): Promise<void> {
    if (this.#taken < this.#perTurn && this.#waiting.length === 0) {
      this.#take();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #take(): void {
    this.#taken++;
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#taken = 0;
      const next = this.#waiting.splice(0, this.#perTurn);
      for (const resolve of next) {
        this.#take();
        resolve();
      }
    });
  }
}

/** The process's one queue of background steps: the poller's checks and the outbox's deliveries. */
export const backgroundTurns = new LoopTurns();

/** How long one sequential background loop runs before it takes a turn (ms). */
const SLICE_MS = 2;

/**
 * For one sequential loop (an outbox lane delivering row after row): a turn of the event loop once a slice of
 * work has gone by, rather than one per row, which would halve a fast lane's throughput for nothing.
 */
export class LoopSlices {
  readonly #now: () => number;
  #since: number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#since = now();
  }

  async next(): Promise<void> {
    if (this.#now() - this.#since < SLICE_MS) return;
    // The loop polls for I/O first, then the step queues with the others (the poller's) if any are waiting.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await backgroundTurns.turn();
    this.#since = this.#now();
  }
}
