/**
 * The background side of reelbot: the durable poller and the outbox sender, started and stopped together.
 * The poller nudges the sender whenever a pass committed chat effects, so a finished job shows up in chat
 * at once rather than at the sender's next interval.
 */
import { OutboxSender, type OutboxSenderOptions } from './outbox-sender.js';
import { Poller, type PollerOptions } from './poller.js';
import { type Sweep, Sweeper } from './sweeper.js';

export { backgroundApi } from './background-api.js';
export { POLLER_STATE_KEY } from './failure-state.js';
export {
  type DeliveryOutcome,
  type OutboxMetrics,
  OutboxSender,
  type OutboxSenderOptions,
} from './outbox-sender.js';
export {
  type CheckOutcome,
  Poller,
  type PollerMetrics,
  type PollerOptions,
} from './poller.js';

export type { Sweep } from './sweeper.js';

export interface RunnerOptions {
  /** `onCommit` is wired to the sender's nudge (and then to yours, if given). */
  poller: PollerOptions;
  sender: OutboxSenderOptions;
  /** Periodic jobs beside the poller, on its clock (run once at start). */
  sweeps?: readonly Sweep[];
}

export class Runner {
  readonly poller: Poller;
  readonly sender: OutboxSender;
  readonly #sweepers: Sweeper[];

  constructor(options: RunnerOptions) {
    const onCommit = options.poller.onCommit;
    this.sender = new OutboxSender({ intervalMs: 500, ...options.sender });
    this.poller = new Poller({
      ...options.poller,
      onCommit: () => {
        this.sender.nudge();
        onCommit?.();
      },
    });
    const env = { clock: options.poller.clock, logger: options.poller.logger };
    // A sweep that committed chat effects (a replayed card) gets them delivered at once.
    this.#sweepers = (options.sweeps ?? []).map(
      (sweep) => new Sweeper({ ...sweep, run: () => sweep.run().finally(() => this.sender.nudge()) }, env),
    );
  }

  start(): void {
    this.sender.start();
    this.poller.start();
    for (const sweeper of this.#sweepers) sweeper.start();
  }

  /** Something outside the poller enqueued chat effects (a command posted a card): deliver it soon. */
  nudge(): void {
    this.sender.nudge();
  }

  /** Stops both loops and waits for in-flight checks, then for the deliveries they caused. */
  async stop(): Promise<void> {
    await Promise.all(this.#sweepers.map((s) => s.stop()));
    await this.poller.stop();
    await this.sender.stop();
  }
}
