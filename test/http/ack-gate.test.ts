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
    const gate = new AckGate(new TestClock(), 60_000);
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
    const gate = new AckGate(clock, 1_500);
    gate.arrived();
    const work = gate.clear();
    clock.advance(1_499);
    expect(await settled(work)).toBe(false);
    clock.advance(1);
    expect(await settled(work)).toBe(true);
    expect(gate.pending).toBe(1);
  });
});
