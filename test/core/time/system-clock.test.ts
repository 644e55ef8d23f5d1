/** The real clock's waits: one signal waited on again and again (a ticker) keeps no listener per wait. */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/core/time/system-clock.js';

describe('the system clock', () => {
  it('removes its abort listener when a wait ends', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 12; i++) await systemClock.timer(0, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('still ends a wait when the signal aborts', async () => {
    const stop = new AbortController();
    const waiting = systemClock.timer(60_000, stop.signal);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
