/**
 * The real clock's waits, and the benches' and chaos suites' scaled one: one signal waited on again and again
 * (a ticker) keeps no listener per wait.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ScaledClock } from '../../../bench/lib/virtual-clock.js';
import type { Clock } from '../../../src/core/ports/index.js';
import { systemClock } from '../../../src/core/time/system-clock.js';

const clocks: [string, Clock][] = [
  ['the system clock', systemClock],
  ['a scaled clock', new ScaledClock(0, Date.now(), 60)],
];

describe.each(clocks)('%s', (_name, clock) => {
  it('removes its abort listener when a wait ends', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 12; i++) await clock.timer(0, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('still ends a wait when the signal aborts', async () => {
    const stop = new AbortController();
    const waiting = clock.timer(60_000, stop.signal);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
