/**
 * Rows past their retention are deleted by the replica that writes next, piggybacked on a write that piles
 * rows up, at most once per period: a table keeps one of these and calls `due` from that write.
 */
export class PeriodicPrune {
  #last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly everyMs: number,
    private readonly prune: (now: number) => Promise<unknown>,
  ) {}

  /** Prunes when the last prune is at least a period old. */
  async due(now: number): Promise<void> {
    if (now - this.#last < this.everyMs) return;
    this.#last = now;
    await this.prune(now);
  }
}
