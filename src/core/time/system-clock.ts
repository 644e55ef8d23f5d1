/**
 * The real clock behind the `Clock` port: wall time and `setTimeout` waits that never keep the process alive.
 * The composition root and the parts that default to real time use it; tests inject a virtual clock instead.
 */
import type { Clock } from '../ports/index.js';

const realWait = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export const systemClock: Clock = { now: () => Date.now(), sleep: realWait, timer: realWait };
