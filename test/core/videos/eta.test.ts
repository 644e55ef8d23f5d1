/** The ETA estimate and the adaptive intervals a watcher looks again at, in the service's time. */
import { describe, expect, it } from 'vitest';
import { percentStep } from '../../../src/core/live/generation-phase.js';
import { readGenerationState } from '../../../src/core/live/generation-state.js';
import { duration } from '../../../src/core/live/generation-watcher.js';
import {
  estimateRemainingMs,
  GENERATION_BOUNDS,
  nextCheckIn,
  planNextLook,
} from '../../../src/core/live/progress-estimate.js';
import { RENDER_BOUNDS } from '../../../src/core/live/render-watcher.js';

describe('ETA and adaptive intervals', () => {
  it('estimates the time left from the percent rate', () => {
    expect(estimateRemainingMs([])).toBeUndefined();
    expect(estimateRemainingMs([{ at: 0, percent: 10 }])).toBeUndefined();
    expect(
      estimateRemainingMs([
        { at: 0, percent: 10 },
        { at: 10_000, percent: 20 },
      ]),
    ).toBe(80_000);
    expect(
      estimateRemainingMs([
        { at: 0, percent: 10 },
        { at: 5_000, percent: 12 },
        { at: 20_000, percent: 30 },
      ]),
    ).toBe(70_000);
    // Stalled or going backwards: no estimate.
    expect(
      estimateRemainingMs([
        { at: 0, percent: 40 },
        { at: 10_000, percent: 40 },
      ]),
    ).toBeUndefined();
  });

  it("plans in the service's time: a service 20 times faster is looked at 20 times as often", () => {
    // The same job as below, seen on a clock where the service runs 20× faster: every answer is 20× shorter.
    expect(planNextLook([{ at: 0, percent: 5 }], GENERATION_BOUNDS, 20)).toEqual({
      inMs: 500,
      finishing: false,
    });
    const fast = (samples: { at: number; percent: number }[]) =>
      nextCheckIn(
        samples.map((s) => ({ ...s, at: s.at / 20 })),
        GENERATION_BOUNDS,
        20,
      );
    expect(
      fast([
        { at: 0, percent: 10 },
        { at: 10_000, percent: 20 },
      ]),
    ).toBe(GENERATION_BOUNDS.max / 20);
    expect(
      fast([
        { at: 0, percent: 30 },
        { at: 10_000, percent: 50 },
        { at: 20_000, percent: 65 },
      ]),
    ).toBe(21_000 / 20);
  });

  it('asks to look soon without a rate, slowly when stalled, near the finish otherwise, within bounds', () => {
    const { min, max } = GENERATION_BOUNDS;
    expect(nextCheckIn([{ at: 0, percent: 5 }])).toBe(min);
    expect(
      nextCheckIn([
        { at: 0, percent: 40 },
        { at: 10_000, percent: 40 },
      ]),
    ).toBe(max);
    // 80 s left: one full interval, then the finish is within reach.
    expect(
      nextCheckIn([
        { at: 0, percent: 10 },
        { at: 10_000, percent: 20 },
      ]),
    ).toBe(max);
    // 20 s left (rate over the whole window): just after the finish.
    expect(
      nextCheckIn([
        { at: 0, percent: 30 },
        { at: 10_000, percent: 50 },
        { at: 20_000, percent: 65 },
      ]),
    ).toBe(21_000);
    // 37 s left: one short interval before it, so the next look lands right after the finish.
    expect(
      nextCheckIn([
        { at: 0, percent: 0 },
        { at: 40_000, percent: 52 },
      ]),
    ).toBe(Math.round((48 * 40_000) / 52) - min);
    // 14 s left: just after it.
    expect(
      nextCheckIn([
        { at: 0, percent: 40 },
        { at: 10_000, percent: 65 },
      ]),
    ).toBe(15_000);
    // 1 s left: never below the bound.
    expect(
      nextCheckIn([
        { at: 0, percent: 90 },
        { at: 10_000, percent: 99 },
      ]),
    ).toBe(min);
    expect(
      nextCheckIn(
        [
          { at: 0, percent: 90 },
          { at: 10_000, percent: 99 },
        ],
        RENDER_BOUNDS,
      ),
    ).toBe(RENDER_BOUNDS.min);
  });

  it('plans the finish look a second or one percent after the expected finish, only when in reach', () => {
    // A slow job: 4.8 s per percent, 9.6 s left; percents are floored, so look one percent's worth after.
    expect(
      planNextLook([
        { at: 0, percent: 88 },
        { at: 48_000, percent: 98 },
      ]),
    ).toEqual({ inMs: 14_400, finishing: true });
    // 29 s left + 1 s is still in reach (30 s); 29.5 s + 1 s is not: look 10 s before the finish instead.
    expect(
      planNextLook([
        { at: 0, percent: 0 },
        { at: 29_000, percent: 50 },
      ]),
    ).toEqual({ inMs: 30_000, finishing: true });
    expect(
      planNextLook([
        { at: 0, percent: 0 },
        { at: 29_500, percent: 50 },
      ]),
    ).toEqual({ inMs: 19_500, finishing: false });
    // No rate: not a finish look.
    expect(planNextLook([{ at: 0, percent: 5 }])).toEqual({ inMs: 10_000, finishing: false });
  });

  it('steps, durations and tolerant state', () => {
    expect([0, 4, 5, 49, 99, 100].map(percentStep)).toEqual([0, 0, 5, 45, 95, 100]);
    expect(duration(6 * 3600_000)).toBe('6 h');
    expect(duration(90 * 60_000)).toBe('90 min');
    expect(duration(30_000)).toBe('30 s');
    expect(readGenerationState({ samples: [{ at: 1, percent: 2 }, 'junk'], phase: 'weird' })).toEqual({
      name: '',
      phase: 'generating',
      samples: [{ at: 1, percent: 2 }],
      lastStep: -1,
    });
  });
});
