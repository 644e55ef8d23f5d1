/**
 * A periodic background job beside the poller (replaying pending remote effects): run once at start, then
 * every `intervalMs`, one run at a time; a failing run is logged and tried again at the next interval.
 */
import type { Clock, Logger } from '../core/ports/index.js';

export interface Sweep {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

export class Sweeper {
  readonly #abort = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(
    private readonly sweep: Sweep,
    private readonly env: { clock: Clock; logger: Logger },
  ) {}

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const log = this.env.logger.child({ component: 'sweep', sweep: this.sweep.name });
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      try {
        await this.sweep.run();
      } catch (error) {
        log.warn({ err: error }, 'a background sweep failed; it runs again at the next interval');
      }
      await this.env.clock.timer(this.sweep.intervalMs, signal).catch(() => undefined);
    }
  }
}
