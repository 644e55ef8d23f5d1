/**
 * The background side of reelbot: the durable poller and the outbox sender, started and stopped together.
 * The poller nudges the sender whenever a pass committed chat effects, so a finished job shows up in chat
 * at once rather than at the sender's next interval.
 */
import { OutboxSender, type OutboxSenderOptions } from './outbox-sender.js';
import { Poller, type PollerOptions } from './poller.js';

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

export interface RunnerOptions {
  /** `onCommit` is wired to the sender's nudge (and then to yours, if given). */
  poller: PollerOptions;
  sender: OutboxSenderOptions;
}

export class Runner {
  readonly poller: Poller;
  readonly sender: OutboxSender;

  constructor(options: RunnerOptions) {
    const onCommit = options.poller.onCommit;
    this.sender = new OutboxSender({ intervalMs: 500, ...options.sender });
    this.poller = new Poller({
      intervalMs: 1000,
      ...options.poller,
      onCommit: () => {
        this.sender.nudge();
        onCommit?.();
      },
    });
  }

  start(): void {
    this.sender.start();
    this.poller.start();
  }

  /** Something outside the poller enqueued chat effects (a command posted a card): deliver it soon. */
  nudge(): void {
    this.sender.nudge();
  }

  /** Stops both loops and waits for in-flight checks, then for the deliveries they caused. */
  async stop(): Promise<void> {
    await this.poller.stop();
    await this.sender.stop();
  }
}
