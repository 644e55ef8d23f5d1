/**
 * What the poller is given and what it reports (poller.ts is the loop itself): its options, the outcome of
 * each check, and the metrics hooks `src/main.ts` wires to Prometheus.
 */
import type { Watcher } from '../core/live/watcher.js';
import type { Clock, Logger, Store, UserAddress, WatchKind } from '../core/ports/index.js';
import type { VideoApi } from '../core/video-api/video-api.js';

export type CheckOutcome =
  /** Checked; the job goes on. */
  | 'active'
  | 'done'
  | 'expired'
  /** Gave up after repeated unauthorized / not_found / forbidden_scope, or no usable key. */
  | 'gave_up'
  /** Not checked: the key's background budget would have made the call wait. */
  | 'deferred'
  | 'rate_limited'
  | 'error'
  /** Cut short by `stop()`; the watch stays due and the next process checks it. */
  | 'interrupted';

/** What the poller reports; `src/main.ts` wires it to Prometheus. */
export interface PollerMetrics {
  checked(kind: WatchKind, outcome: CheckOutcome, durationMs: number): void;
  /** How late a watch was picked up: now − nextCheckAt (ms). */
  lag(kind: WatchKind, ms: number): void;
  /**
   * One claim of due watches: how many were leased to this poller, and how many were taken: leased
   * by another replica (or closed) between `due` and `claim`.
   */
  claims?(claimed: number, taken: number): void;
  /** A check's result dropped at commit: another replica took the watch's lease over meanwhile. */
  leaseLost?(kind: WatchKind): void;
}

export interface PollerOptions {
  store: Store;
  watchers: Partial<Record<WatchKind, Watcher>>;
  /** A client for the owner's linked key, or the deployment key for owner ''; undefined when there is none. */
  apiFor(owner: UserAddress): VideoApi | undefined | Promise<VideoApi | undefined>;
  clock: Clock;
  logger: Logger;
  metrics?: PollerMetrics;
  /** Checks running at once. */
  concurrency: number;
  /**
   * How long a background call with the owner's key would wait on the client-side budget right now (ms);
   * a positive value pushes the check later instead of holding a worker. Wired to `RateBudget.delayFor`.
   */
  budgetDelay?(
    owner: UserAddress,
    kind: WatchKind,
    options: { deferrable: boolean },
  ): number | Promise<number>;
  /** Called after a pass committed chat effects, so the outbox sender can deliver them at once. */
  onCommit?(): void;
  /** Period of the `start()` loop (default 1 s, shorter for a faster service: `serviceSpeed`). */
  intervalMs?: number;
  /**
   * How many times faster than `clock` the service's jobs run (core/live/service-time.ts): 1 (the default)
   * for the real service; in demo mode the embedded simulator's speed, by which job watchers' intervals and
   * caps shrink, so they hold in the simulator's time.
   */
  serviceSpeed?: number;
  /**
   * Who this poller is among those sharing the database (a replica id); default a random one per poller.
   * Watches are leased to it while it checks them (`Store.watches.claim`).
   */
  holder?: string;
  /**
   * How long a lease on a watch lasts (default 30 s): a replica that dies mid-check leaves its watches to the
   * others this long after it claimed them. A check outliving its lease may lose it; its result is then
   * dropped, never committed twice.
   */
  leaseMs?: number;
  /** Most watches claimed (running or waiting for a slot) at once (default 500). */
  batchSize?: number;
  /**
   * Most checks of one owner (one key) running at once (default 4): its budget paces them anyway, and a
   * burst of one key's checks would hold up that team's own commands in the same process.
   */
  perOwnerConcurrency?: number;
  /**
   * Share of an interval added at random (default 0.1): upwards only for a watcher's requested interval
   * (it is the earliest useful moment, e.g. just after an expected finish), both ways for failure backoff.
   */
  jitterRatio?: number;
  /** In [0, 1); injected for deterministic tests. */
  random?: () => number;
  /** Consecutive unauthorized / not_found / forbidden_scope failures before giving up (default 3). */
  maxPermanentFailures?: number;
  /** Retry delay for a watch whose kind has no registered watcher (default 60 s). */
  missingWatcherDelayMs?: number;
}
