/**
 * Discrete-event timeline. Nothing runs on a timer: every request (and `Simulator.settle()`) first runs the
 * events that are due at `clock.now()`, in time order, so state is exactly what the clock says it should be
 * and tests only move a manual clock.
 */
interface TimedEvent {
  at: number;
  seq: number;
  label: string;
  run: (at: number) => void;
}

export class Scheduler {
  #queue: TimedEvent[] = [];
  #seq = 0;

  /** Queues `run` to happen at `at`; it receives its own due time (not the time it is processed). */
  at(at: number, label: string, run: (at: number) => void): void {
    this.#seq += 1;
    const event: TimedEvent = { at, seq: this.#seq, label, run };
    // Binary search keeps the queue ordered by (at, seq); it stays small so an array is plenty.
    let lo = 0;
    let hi = this.#queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.#queue[mid]!;
      if (other.at < at || (other.at === at && other.seq < event.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.#queue.splice(lo, 0, event);
  }

  /** Runs every event due at or before `now`, including events those events queue. Returns how many ran. */
  runDue(now: number): number {
    let ran = 0;
    for (;;) {
      const next = this.#queue[0];
      if (!next || next.at > now) return ran;
      this.#queue.shift();
      next.run(next.at);
      ran += 1;
    }
  }
}
