/**
 * `npm start` in a production configuration (the service at VIDEO_API_URL, Slack over HTTP, SQLite) compiles the
 * bot and runs the compiled bundle with Node: the one bot process of the tree npm starts is `node
 * --enable-source-maps … dist/main.js`, it answers `/healthz`, and no process of the tree runs tsx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { ROOT } from '../support/compiled-bot.js';
import { startFakePlatforms } from '../support/fake-platforms.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The command line of `pid` and of every process below it, from /proc. */
function commandLines(pid: number): string[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const lines: string[] = [];
  const visit = (p: number) => {
    try {
      lines.push(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '));
    } catch {
      return;
    }
    for (const child of children.get(p) ?? []) visit(child);
  };
  visit(pid);
  return lines;
}

it('npm start runs the compiled bot, not tsx, in a production configuration', {
  timeout: 90_000,
}, async () => {
  const sim = await startSimulator({ port: 0 });
  cleanups.push(() => sim.close());
  const platforms = await startFakePlatforms();
  cleanups.push(() => platforms.close());
  const dataDir = mkdtempSync(join(tmpdir(), 'reelbot-npm-start-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      REELBOT_DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      VIDEO_API_URL: sim.url,
      SLACK_BOT_TOKEN: platforms.env.SLACK_BOT_TOKEN ?? '',
      SLACK_SIGNING_SECRET: platforms.env.SLACK_SIGNING_SECRET ?? '',
      SLACK_API_URL: platforms.env.SLACK_API_URL ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  child.stderr?.on('data', (b: Buffer) => {
    output += b.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    // npm, its shell and the bot: the group this test started, and nothing else.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  });

  let health = '';
  for (let i = 0; i < 600 && !health; i++) {
    health =
      /Health: (http:\/\/\S+)\/healthz/.exec(output)?.[1] ??
      /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1] ??
      '';
    // real-time-ok: npm start is a separate process on the real clock; polls its output for the banner
    if (!health) await new Promise((r) => setTimeout(r, 50));
  }
  expect(health, output).not.toBe('');
  expect((await fetch(`${health}/healthz`)).status).toBe(200);

  const tree = commandLines(child.pid ?? 0);
  const bot = tree.filter((line) => /^\S*node\b.*dist\/main\.js$/.test(line));
  expect(bot, tree.join('\n')).toHaveLength(1);
  expect(bot[0]).toContain('--enable-source-maps');
  expect(
    tree.filter((line) => /tsx/.test(line)),
    tree.join('\n'),
  ).toEqual([]);
});
