/**
 * The real clock behind the `Clock` port: wall time and `setTimeout` waits that never keep the process alive.
 * The composition root and the parts that default to real time use it; tests inject a virtual clock instead.
 */
import type { Clock } from '../ports/index.js';

/**
 * Waits `ms`; the abort listener goes when the wait ends either way, so a loop waiting again and again on one
 * signal (a ticker) does not pile listeners up on it.
 */
const realWait = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref?.();
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export const systemClock: Clock = { now: () => Date.now(), sleep: realWait, timer: realWait };
