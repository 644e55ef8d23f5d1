/**
 * The video service's time on this process's clock. DESIGN §4's cadence for a running job (a
 * first look after 10 s, looks 10–30 s apart, a render's every 5–15 s) is about the service's jobs, so it is
 * counted in the service's time. Against the real service that is the wall clock (speed 1). The demo's
 * embedded simulator runs its jobs `SIM_SPEED` times faster: each of those durations is as many times shorter
 * on the wall clock, so a card moves as often per job as it does against the real service, and the caps hold
 * in the simulator's time.
 */

/** How many times faster than this process's clock the service's jobs run: 1 for the real service. */
export type ServiceSpeed = number;

/** `ms` of the service's time, on this process's clock. */
export const onClock = (ms: number, speed: ServiceSpeed = 1): number => ms / speed;

/** Interval bounds in the service's time, on this process's clock. */
export const boundsOnClock = (
  bounds: { readonly min: number; readonly max: number },
  speed: ServiceSpeed = 1,
): { min: number; max: number } => ({ min: onClock(bounds.min, speed), max: onClock(bounds.max, speed) });
