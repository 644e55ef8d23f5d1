/**
 * A poller's leases on the watches it checks (DESIGN §4): a watch is claimed for `leaseMs` before its look,
 * and every write after the look first ends that lease; a lease lost meanwhile (this replica was paused,
 * and another took the watch over) drops the write instead of doubling it.
 */
import { randomUUID } from 'node:crypto';
import { describeError } from '../core/dispatch/describe-error.js';
import type { Watch } from '../core/ports/index.js';
import type { PollerOptions } from './poller-options.js';

/** How long a poller holds a watch it checks unless told otherwise (`PollerOptions.leaseMs`). */
const DEFAULT_LEASE_MS = 30_000;

export class WatchLeases {
  readonly #o: PollerOptions;
  /** This poller's name on the watches it leases. */
  readonly holder: string;
  readonly #leaseMs: number;

  constructor(options: PollerOptions) {
    this.#o = options;
    this.holder = options.holder ?? `poller-${randomUUID()}`;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Leases the picked watches to this poller; those another replica leased since `due` are left out. */
  claim(picked: readonly Watch[], now: number): Promise<Watch[]> {
    return this.#o.store.watches.claim(
      picked.map((w) => w.id),
      { holder: this.holder, now, until: now + this.#leaseMs },
    );
  }

  /** Moves a watch's next look, unless another replica has taken it over meanwhile; ends the lease. */
  async reschedule(watch: Watch, nextCheckAt: number): Promise<void> {
    const { store } = this.#o;
    await store.transaction(async () => {
      if (await this.stillLeased(watch)) await store.watches.update(watch.id, { nextCheckAt });
    });
  }

  /**
   * Ends this poller's claim on a watch before committing; false (counted) when the watch was claimed again
   * since: its lease lapsed (this replica was paused, say) and another poller, or this one, took it over.
   */
  async stillLeased(watch: Watch): Promise<boolean> {
    if (watch.lease && (await this.#o.store.watches.release(watch.id, watch.lease))) return true;
    this.#o.metrics?.leaseLost?.(watch.kind);
    return false;
  }

  /** Gives a leased watch back without a look (shutdown, closed meanwhile); a failure leaves the lease to lapse. */
  async release(watch: Watch): Promise<void> {
    if (!watch.lease) return;
    try {
      await this.#o.store.watches.release(watch.id, watch.lease);
    } catch (error) {
      this.#o.logger.debug(
        { watchId: watch.id, err: describeError(error) },
        'could not release a watch lease',
      );
    }
  }
}
