/**
 * A database locked by another connection (an operator's shell, a backup tool, a second instance) never
 * freezes the bot: the store waits only its short busy timeout, the dispatcher runs the command
 * again after an asynchronous pause, and the event loop is never held for more than ~250 ms meanwhile.
 *
 * Time: the lock is a real file lock released by a real timer, and the stall is measured on the real event
 * loop, so virtual time cannot stand in here. The harness is given `WallTestClock`: the TestClock's virtual
 * start, moving with the wall clock, whose `sleep` really waits. The retry's pauses go through that clock
 * (the Clock port) like every other wait, so in these tests they truly yield the loop, and the 2.5 s retry
 * budget is counted in real time, as in production. The settings command makes no API call, so no client
 * back-off is slowed down by the real waits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdWriteLock, measuringStalls, WallTestClock } from '../support/db-faults.js';
import { createHarness, type Harness, textOf } from '../support/harness.js';

describe('a database locked by another connection', () => {
  let dir: string;
  let path: string;
  let h: Harness;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reelbot-locked-'));
    path = join(dir, 'reelbot.sqlite');
    h = await createHarness({ storePath: path, clock: new WallTestClock() });
    await h.user('alice'); // linked and known before the lock (the harness writes the link)
  });

  afterEach(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the event loop free and saves the change once the lock is released', async () => {
    const released = holdWriteLock(path, 1_500);
    const started = performance.now();
    const { result: response, maxStallMs } = await measuringStalls(() =>
      h.run('settings timezone Europe/Paris'),
    );
    await released;
    console.info(`locked for 1.5 s: longest event-loop stall ${maxStallMs.toFixed(1)} ms`);

    expect(maxStallMs).toBeLessThan(250);
    // It waited for the lock (retried), rather than failing at once or blocking through it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(textOf(response)).toContain('Channel settings updated');
    expect((await h.store.settings.get(h.conversation)).timeZone).toBe('Europe/Paris');
    const audit = await h.store.audit.list({ workspacePrefix: 'playground:W1' });
    expect(audit.filter((entry) => JSON.stringify(entry).includes('Europe/Paris'))).toHaveLength(1);
  }, 15_000);

  it('tells the member the database is busy when the lock outlasts the retries, and changes nothing', async () => {
    const released = holdWriteLock(path, 4_000);
    const { result: response, maxStallMs } = await measuringStalls(() =>
      h.run('settings timezone Europe/Paris'),
    );
    const answeredWhileLocked = performance.now();
    await released;
    console.info(`locked for 4 s: longest event-loop stall ${maxStallMs.toFixed(1)} ms`);

    expect(maxStallMs).toBeLessThan(250);
    expect(performance.now() - answeredWhileLocked).toBeGreaterThan(500); // answered before the release
    const text = textOf(response);
    expect(text).toMatch(/I couldn't save that: my database is busy \(ref `[0-9a-f]{8}`\)/);
    expect(text).toContain('Nothing was changed; try again in a moment.');
    expect((await h.store.settings.get(h.conversation)).timeZone).toBeUndefined();
    expect(await h.store.audit.list({ workspacePrefix: 'playground:W1' })).toEqual([]);
    expect(h.logs.join('')).toContain('database locked; gave up');

    // Nothing half-done: once the lock is gone the same command simply works.
    const again = await h.run('settings timezone Europe/Paris');
    expect(textOf(again)).toContain('Channel settings updated');
    expect((await h.store.settings.get(h.conversation)).timeZone).toBe('Europe/Paris');
  }, 15_000);
});
