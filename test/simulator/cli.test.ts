import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../src/simulator/cli-options.js';

const CLI = join(import.meta.dirname, '../../src/simulator/cli.ts');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp folder removed after the test. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sim-seed-'));
  dirs.push(dir);
  return dir;
}

function startCli(args: string[]): { child: ChildProcess; lines: string[]; next(): Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  children.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  return {
    child,
    lines,
    next: () => {
      const ready = lines.shift();
      return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe('npm run simulator (cli.ts)', () => {
  it('without a seed file: prints the base URL, then a fresh demo key; serves; exits cleanly on SIGTERM', async () => {
    const cli = startCli(['--port', '0']);
    const url = await cli.next();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const key = await cli.next();
    expect(key).toMatch(/^fl_live_[0-9a-f]{32}$/);
    expect((await fetch(url.replace('/api/v1', '/healthz'))).status).toBe(200);
    const me = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await me.json()) as {
      data: { team: { name: string; credits: number }; auth: { scopes: string[] } };
    };
    expect(body.data.team).toMatchObject({ name: 'Demo Team', credits: 500 });
    expect(body.data.auth.scopes).toHaveLength(11);
    const accounts = await fetch(`${url}/accounts`, { headers: { 'x-api-key': key } });
    const data = ((await accounts.json()) as { data: Record<string, unknown[]> }).data;
    expect(Object.values(data).every((list) => list.length === 1)).toBe(true);
    cli.child.kill('SIGTERM');
    expect(await exitOf(cli.child)).toBe(0);
  });

  it('with --seed-file: prints every seeded key verbatim on its own line; exits on SIGINT', async () => {
    const dir = tempDir();
    const file = join(dir, 'teams.json');
    writeFileSync(
      file,
      JSON.stringify({
        teams: [
          {
            name: 'Acme',
            plan: 'business',
            credits: 900,
            projectCap: 5,
            keys: [{ key: 'fl_live_acme_1' }, { key: 'fl_live_acme_2', scopes: ['videos:read'] }],
          },
          {
            name: 'Beta',
            keys: [{ key: 'fl_live_beta' }],
            accounts: { youtube: [{ authId: 'yt', label: 'Beta TV', isDefault: true }] },
          },
        ],
      }),
    );
    const cli = startCli(['--port', '0', '--seed-file', file, '--speed', '60']);
    const url = await cli.next();
    expect([await cli.next(), await cli.next(), await cli.next()]).toEqual([
      'fl_live_acme_1',
      'fl_live_acme_2',
      'fl_live_beta',
    ]);
    const me = await fetch(`${url}/me`, { headers: { authorization: 'Bearer fl_live_acme_2' } });
    const body = (await me.json()) as {
      data: { team: { name: string; credits: number }; plan: string; auth: { scopes: string[] } };
    };
    expect(body.data).toMatchObject({
      team: { name: 'Acme', credits: 900 },
      plan: 'business',
      auth: { scopes: ['videos:read'] },
    });
    cli.child.kill('SIGINT');
    expect(await exitOf(cli.child)).toBe(0);
  });

  it('a bad seed file stops start-up with a message naming the problem', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({ teams: [{ name: 'X', keys: [{ key: 'k', scopes: ['videos:fly'] }] }] }),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--seed-file', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toContain('teams.0.keys.0.scopes.0');
  });
});

describe('parseCli', () => {
  it('reads flags and SIM_* variables, flags winning', () => {
    const config = parseCli(['--speed', '30', '--generation-failure-rate', '0.25'], {
      SIM_SPEED: '2',
      SIM_PORT: '5000',
      SIM_SERVER_ERROR_RATE: '0.1',
      SIM_RANDOM_SEED: '9',
      SIM_LATENCY_MS: '',
    });
    expect(config.port).toBe(5000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.options).toEqual({
      speed: 30,
      generationFailureRate: 0.25,
      serverErrorRate: 0.1,
      randomSeed: 9,
    });
  });

  it('defaults to port 4010 and no options', () => {
    expect(parseCli([], {})).toEqual({ port: 4010, host: '127.0.0.1', options: {}, help: false });
  });

  it('turns rate limits off on request', () => {
    expect(parseCli(['--disable-rate-limits'], {}).options.rateLimits).toBe(false);
    expect(parseCli([], { SIM_DISABLE_RATE_LIMITS: 'true' }).options.rateLimits).toBe(false);
  });

  it.each([
    [['--speed', '0']],
    [['--speed', 'fast']],
    [['--post-failure-rate', '2']],
    [['--port', '70000']],
    [['--random-seed', '1.5']],
    [['--frobnicate']],
    [['--seed-file', '/nonexistent/teams.json']],
  ])('refuses %j with a CliError', (args) => {
    expect(() => parseCli(args, {})).toThrow(CliError);
  });
});
