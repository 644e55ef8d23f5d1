/**
 * Background steps share the event loop with people's requests (src/poller/loop-turns.ts): one step per turn
 * of the loop, so I/O waiting behind a burst of them is read in between. The loop's turns are Node's own.
 */
import { describe, expect, it } from 'vitest';
import { LoopSlices, LoopTurns } from '../../src/poller/loop-turns.js';

/** A callback due on the loop's next turn, like an API response read from a socket. */
const request = (log: string[]) =>
  new Promise<void>((resolve) =>
    setImmediate(() => {
      log.push('request');
      resolve();
    }),
  );

/** A burst of concurrent background steps, each taking its turn first. */
const burst = (take: () => Promise<void>, steps: number, log: string[]) =>
  Promise.all(
    Array.from({ length: steps }, async (_, i) => {
      await take();
      log.push(`bg${i}`);
    }),
  );

describe('LoopTurns', () => {
  it('lets a request due on the next turn run after one step of a burst, not after the whole burst', async () => {
    const turns = new LoopTurns(1);
    const log: string[] = [];
    await Promise.all([request(log), burst(() => turns.turn(), 10, log)]);
    expect(log.slice(0, 2)).toEqual(['bg0', 'request']);
    expect(log.slice(2)).toEqual(['bg1', 'bg2', 'bg3', 'bg4', 'bg5', 'bg6', 'bg7', 'bg8', 'bg9']);
  });

  it('lets a few steps through per turn when asked to', async () => {
    const turns = new LoopTurns(4);
    const log: string[] = [];
    await Promise.all([request(log), burst(() => turns.turn(), 10, log)]);
    expect(log).toEqual(['bg0', 'bg1', 'bg2', 'bg3', 'request', 'bg4', 'bg5', 'bg6', 'bg7', 'bg8', 'bg9']);
  });

  it('without the turns, the same burst runs whole before the request', async () => {
    const log: string[] = [];
    await Promise.all([request(log), burst(() => Promise.resolve(), 10, log)]);
    expect(log.indexOf('request')).toBe(10);
  });

  it('lets the first step of an idle loop go at once, and one step of a sequence per turn', async () => {
    const turns = new LoopTurns(1);
    const log: string[] = [];
    let first = false;
    void turns.turn().then(() => {
      first = true;
    });
    await Promise.resolve();
    expect(first).toBe(true);
    const seen = request(log);
    for (let i = 0; i < 3; i++) {
      await turns.turn();
      log.push(`bg${i}`);
    }
    await seen;
    // bg0 waited for the turn the first step took; the request, due on that same turn, comes before bg1.
    expect(log).toEqual(['bg0', 'request', 'bg1', 'bg2']);
  });

  it('lets a sequential loop run a slice of work, then take a turn', async () => {
    const time = { now: 0 };
    const slices = new LoopSlices(() => time.now);
    const log: string[] = [];
    const seen = request(log);
    // Rows of 0.5 ms go on within the 2 ms slice; the row that ends past it makes the next one take a turn.
    for (let row = 0; row < 6; row++) {
      await slices.next();
      log.push(`row${row}`);
      time.now += 0.5;
    }
    await seen;
    expect(log).toEqual(['row0', 'row1', 'row2', 'row3', 'request', 'row4', 'row5']);
  });
});
