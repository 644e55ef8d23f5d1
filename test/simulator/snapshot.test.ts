/**
 * A simulator continued from a saved state (the demo remembers): the records come back, the jobs
 * still running in them go on, and the team keeps its key.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, startSimulator } from '../../src/simulator/index.js';
import { KEY_A, MINUTE, SCRIPT, T0, teamA } from './harness.js';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const sim of running.splice(0)) await sim.close();
});

async function call(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'x-api-key': KEY_A, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await res.json()) as { data: Record<string, unknown> };
}

describe('Simulator state', () => {
  it('continues from a snapshot: records, credits, keys, and the jobs still running', async () => {
    const clock = new ManualClock(T0);
    const first = await startSimulator({ clock, randomSeed: 1, teams: [teamA()] });
    running.push(first);
    const done = (await call(first.url, 'POST', '/videos', { script: SCRIPT, voiceId: 'voice_aria_en' }))
      .data;
    clock.advance(5 * MINUTE);
    const render = (await call(first.url, 'POST', `/videos/${done.id}/render`, {})).data;
    const generating = (
      await call(first.url, 'POST', '/videos', { script: SCRIPT, voiceId: 'voice_aria_en' })
    ).data;
    const saved = JSON.parse(JSON.stringify(first.sim.snapshot()));
    await first.close();
    running.length = 0;

    const second = await startSimulator({ clock, state: saved });
    running.push(second);
    expect(second.keys).toContain(KEY_A);
    expect(second.sim.balance(KEY_A)).toBe(460);
    expect((await call(second.url, 'GET', `/videos/${done.id}`)).data.status).toBe('completed');
    expect((await call(second.url, 'GET', `/videos/${generating.id}/status`)).data.status).toBe('processing');
    clock.advance(5 * MINUTE);
    expect((await call(second.url, 'GET', `/videos/${generating.id}/status`)).data.status).toBe('completed');
    expect((await call(second.url, 'GET', `/renders/${render.renderId}`)).data.status).toBe('done');
    const list = (await call(second.url, 'GET', '/videos')) as unknown as { data: { id: string }[] };
    expect(list.data.map((v) => v.id)).toEqual([generating.id, done.id]);
  });
});
