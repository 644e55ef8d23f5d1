import { describe, expect, it } from 'vitest';
import { AckGate } from '../../src/http/ack-gate.js';
import { TestClock } from '../support/test-clock.js';

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('AckGate: acknowledgements before work', () => {
  it('lets work start at once when nothing is pending', async () => {
    const gate = new AckGate(new TestClock());
    expect(await settled(gate.clear())).toBe(true);
  });

  it('holds work until every pending request is acknowledged; a second acknowledgement counts once', async () => {
    const gate = new AckGate(new TestClock(), { maxWaitMs: 60_000 });
    const first = gate.arrived();
    const second = gate.arrived();
    const work = gate.clear();
    first();
    first();
    expect(gate.pending).toBe(1);
    expect(await settled(work)).toBe(false);
    second();
    expect(gate.pending).toBe(0);
    expect(await settled(work)).toBe(true);
  });

  it('never holds work longer than its maximum wait (a stuck acknowledgement)', async () => {
    const clock = new TestClock();
    const gate = new AckGate(clock, { maxWaitMs: 1_500 });
    gate.arrived();
    const work = gate.clear();
    clock.advance(1_499);
    expect(await settled(work)).toBe(false);
    clock.advance(1);
    expect(await settled(work)).toBe(true);
    expect(gate.pending).toBe(1);
  });

  it('with a quiet period, holds work until nothing has been pending that long; an arrival starts it over', async () => {
    const clock = new TestClock();
    const gate = new AckGate(clock, { quietMs: 20 });
    const first = gate.arrived();
    const work = gate.clear();
    first();
    clock.advance(19);
    expect(await settled(work)).toBe(false);
    // The next request of the burst arrives before the period is over: the work waits for it too.
    const second = gate.arrived();
    clock.advance(5);
    expect(await settled(work)).toBe(false);
    second();
    clock.advance(19);
    expect(await settled(work)).toBe(false);
    clock.advance(1);
    expect(await settled(work)).toBe(true);
    // Quiet since: later work starts at once.
    expect(await settled(gate.clear())).toBe(true);
  });

  it('with a quiet period, still never holds work longer than its maximum wait', async () => {
    const clock = new TestClock();
    const gate = new AckGate(clock, { maxWaitMs: 100, quietMs: 20 });
    const first = gate.arrived();
    const work = gate.clear();
    first();
    // Requests acknowledged every 10 ms: never quiet for 20 ms.
    for (let i = 0; i < 9; i++) {
      clock.advance(10);
      expect(await settled(work)).toBe(false);
      gate.arrived()();
    }
    clock.advance(10);
    expect(await settled(work)).toBe(true);
  });
});
