/**
 * A start as `npm start` runs it (the compiled bot as a child process, nothing configured but a data directory):
 * no process warning of any kind (MaxListenersExceededWarning, deprecations…) while it starts, serves a few
 * videos and stops, and a demo's output is the readable banner, not JSON. With Slack and Discord configured
 * (their fakes on 127.0.0.1) the same start logs JSON at info, the store's migrations as one line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledBotArgs } from '../support/compiled-bot.js';
import { startFakePlatforms } from '../support/fake-platforms.js';

const root = join(import.meta.dirname, '../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Started {
  url: string;
  output: () => { stdout: string; stderr: string };
  stop: () => Promise<void>;
}

/** The compiled bot with only `env` (and PATH) set; resolves once the banner names the URL. */
async function startAsNpmStart(env: Record<string, string>): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-quiet-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const child: ChildProcess = spawn(process.execPath, compiledBotArgs(), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', REELBOT_DATA_DIR: dir, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  cleanups.push(stop);
  const url = await new Promise<string>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`no banner in 30 s:\n${stdout}\n${stderr}`)), 30_000);
    const look = () => {
      const m = /Health: (http:\/\/127\.0\.0\.1:\d+)\/healthz/.exec(stdout);
      if (m?.[1]) {
        clearTimeout(deadline);
        resolve(m[1]);
      } else if (child.exitCode !== null) {
        clearTimeout(deadline);
        reject(new Error(`exited:\n${stdout}\n${stderr}`));
      } else setTimeout(look, 50);
    };
    look();
  });
  return { url, output: () => ({ stdout, stderr }), stop };
}

async function post(url: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.text();
}

/** Creates a video through the playground's own routes: the command, then the confirmation's Create. */
async function createInPlayground(url: string, n: number): Promise<void> {
  const asked = JSON.parse(
    await post(`${url}/playground/command`, {
      user: 'alice',
      channel: 'general',
      text: `/reel create Video number ${n}: five tips for filming on a phone`,
    }),
  ) as { messages: { id: string; html: string }[] };
  const last = asked.messages.at(-1);
  const button = /data-action="(video\.create\.confirm)"[^>]*data-value="([^"]*)"/.exec(last?.html ?? '');
  if (!last || !button) throw new Error(`no Create button in ${JSON.stringify(asked).slice(0, 500)}`);
  const value = (button[2] ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  await post(`${url}/playground/action`, {
    user: 'alice',
    channel: 'general',
    action: button[1],
    value,
    messageId: last.id,
  });
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => /Warning|warning:/.test(l));

describe('a start as npm start runs it', () => {
  it('demo: no process warning while serving and stopping, and a readable banner instead of JSON', async () => {
    const app = await startAsNpmStart({ SIM_SPEED: '120' });
    // Eleven videos at once keep more than ten calls in flight on the poller's and the client's signals.
    await Promise.all(Array.from({ length: 11 }, (_, i) => createInPlayground(app.url, i + 1)));
    const cards = async () => {
      const page = await fetch(`${app.url}/playground/messages?user=alice&channel=general`);
      return (await page.text()).match(/Use this/g)?.length ?? 0;
    };
    for (let i = 0; i < 600 && (await cards()) < 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await cards()).toBeGreaterThanOrEqual(1);
    await app.stop();
    const { stdout, stderr } = app.output();
    expect(warnings(stderr)).toEqual([]);
    expect(stderr).toBe('');
    expect(stdout).toContain('reelbot is running in demo mode');
    expect(stdout.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
  }, 90_000);

  it('Slack and Discord: no process warning, and the migrations logged as one line', async () => {
    const platforms = await startFakePlatforms();
    cleanups.push(() => platforms.close());
    const app = await startAsNpmStart(platforms.env);
    for (let i = 0; i < 100 && (await fetch(`${app.url}/healthz`)).status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    await app.stop();
    const { stdout, stderr } = app.output();
    expect(warnings(stderr)).toEqual([]);
    const lines = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.filter((l) => l.msg === 'store migrated')).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'store migration applied')).toEqual([]);
  }, 90_000);
});
