/**
 * The clock port: time as the core reads it, injected so the poller, approvals and tests never sleep for real.
 * The real clock is `systemClock` in `src/core/time/system-clock.ts`; tests pass a virtual one.
 */

/** Injected time, so the poller, approvals and tests never sleep for real. */
export interface Clock {
  now(): number;
  /** Waits `ms` (a virtual clock may jump ahead instead); rejects with the signal's reason on abort. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Resolves once `ms` have passed while other work runs: a deadline to race, not a wait of one's own, so a
   * virtual clock fires it only when its time moves. Rejects with the signal's reason on abort.
   */
  timer(ms: number, signal?: AbortSignal): Promise<void>;
}
