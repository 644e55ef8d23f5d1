import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { demoTeam, ManualClock, Simulator, startSimulator } from '../../src/simulator/index.js';
import { KEY_A, SCRIPT, startHarness, T0, teamA } from './harness.js';

describe('Simulator embedded in another node:http server', () => {
  it('serves the API through handle() and derives media URLs from the Host header', async () => {
    const sim = new Simulator({ clock: new ManualClock(T0), teams: [teamA()] });
    const server = createServer((req, res) => sim.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const created = await fetch(`${origin}/api/v1/videos`, {
        method: 'POST',
        headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
        body: JSON.stringify({ script: SCRIPT, voiceId: 'voice_aria_en' }),
      });
      expect(created.status).toBe(201);
      const list = (await (
        await fetch(`${origin}/api/v1/videos`, { headers: { 'x-api-key': KEY_A } })
      ).json()) as {
        data: { thumbnailUrl: string }[];
      };
      expect(list.data[0]?.thumbnailUrl.startsWith(`${origin}/media/broll/`)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('options and helpers', () => {
  it('demoTeam: full-scope key, 500 credits, cap 100, one default account per platform', () => {
    const team = demoTeam('fl_live_demo');
    expect(team.keys).toEqual([
      { key: 'fl_live_demo', scopes: expect.arrayContaining(['videos:write', 'analytics:read']) },
    ]);
    expect(team.keys[0]?.scopes).toHaveLength(11);
    expect(team).toMatchObject({ credits: 500, projectCap: 100 });
    expect(Object.keys(team.accounts ?? {})).toHaveLength(7);
    for (const list of Object.values(team.accounts ?? {}))
      expect(list).toEqual([expect.objectContaining({ isDefault: true })]);
    expect(demoTeam().keys[0]?.key).toMatch(/^fl_live_[0-9a-f]{32}$/);
  });

  it('without teams it seeds the demo team with a fresh key', async () => {
    const run = await startSimulator();
    try {
      expect(run.keys).toHaveLength(1);
      expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
      const me = await fetch(`${run.url}/me`, { headers: { authorization: `Bearer ${run.keys[0]}` } });
      expect(me.status).toBe(200);
    } finally {
      await run.close();
    }
  });

  it('refuses bad knobs and bad seeds', () => {
    expect(() => new Simulator({ speed: 0 })).toThrow(/speed/);
    expect(() => new Simulator({ postFailureRate: 1.5 })).toThrow(/postFailureRate/);
    expect(
      () => new Simulator({ teams: [{ name: 'X', keys: [{ key: 'k', scopes: ['videos:fly'] }] }] }),
    ).toThrow(/videos:fly/);
    expect(() => new Simulator({ teams: [{ name: 'X', keys: [{ key: 'k' }, { key: 'k' }] }] })).toThrow(
      /twice/,
    );
    const sim = new Simulator({ teams: [] });
    expect(() => sim.setKnobs({ serverErrorRate: -1 })).toThrow(/serverErrorRate/);
    expect(() => sim.advance(1000)).toThrow(/ManualClock/);
  });

  it('advance() moves an injected ManualClock and settles due work', () => {
    const clock = new ManualClock(T0);
    const sim = new Simulator({ clock, teams: [teamA()] });
    sim.advance(5000);
    expect(clock.now()).toBe(T0 + 5000);
    expect(sim.now()).toBe(T0 + 5000);
  });
});

describe('latency knob', () => {
  it('delays API answers by real milliseconds', async () => {
    const h = await startHarness({ latencyMs: 150 });
    try {
      const started = performance.now();
      expect((await h.api('GET', '/me')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await h.close();
    }
  });
});

describe('logging', () => {
  it('never writes an API key, only its prefix', async () => {
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        output += chunk.toString();
        done();
      },
    });
    const h = await startHarness({ logger: pino({ level: 'debug' }, sink) });
    try {
      await h.api('GET', '/me');
      await h.api('POST', '/videos', { body: { script: 'short' } });
      await h.api('GET', '/me', { key: 'fl_live_not_a_real_key_123456' });
      await h.api('GET', '/me', { key: null, headers: { 'x-api-key': KEY_A } });
    } finally {
      await h.close();
    }
    expect(output).toContain(KEY_A.slice(0, 12));
    expect(output).toContain('invalid_input');
    expect(output).not.toContain(KEY_A);
    expect(output).not.toContain('fl_live_not_a_real_key_123456');
  });
});
