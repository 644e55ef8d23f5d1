/**
 * Benchmark 4, cold start: spawns the bot as `npm start` runs it (`tsx src/main.ts`, demo mode: embedded
 * simulator, playground, fresh temp REELBOT_DATA_DIR), times spawn → first `/healthz` 200, then reads the
 * resident memory after 10 s idle. Baseline: the same runtime serving only `/healthz`
 * (cold-start-baseline.ts), measured alternately in the same run. Medians over the runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchResult, metric } from './lib/result.js';
import { median } from './lib/stats.js';

const ROOT = join(import.meta.dirname, '..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const IDLE_MS = 10_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Run {
  readyMs: number;
  /** Every process of the tree (tsx wrapper + app), as `npm start` costs the host. */
  treeRssMb: number;
  /** The process running the code (the largest of the tree). */
  appRssMb: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** RSS (MB) of `pid` and every descendant, from /proc. */
function treeRss(pid: number): { total: number; largest: number } {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  let largest = 0;
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      total += kb;
      largest = Math.max(largest, kb);
    } catch {
      return;
    }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return { total: total / 1024, largest: largest / 1024 };
}

async function once(script: string, log: (line: string) => void): Promise<Run> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'reelbot-cold-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    REELBOT_DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  const started = performance.now();
  const child: ChildProcess = spawn(TSX, [script], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let readyMs = Number.NaN;
    for (let i = 0; i < 6000; i++) {
      if (child.exitCode !== null) throw new Error(`${script} exited early: ${stderr}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        await res.arrayBuffer();
        if (res.status === 200) {
          readyMs = performance.now() - started;
          break;
        }
      } catch {
        // not listening yet
      }
      await sleep(10);
    }
    if (!Number.isFinite(readyMs)) throw new Error(`${script} never became ready: ${stderr}`);
    await sleep(IDLE_MS);
    const rss = treeRss(child.pid as number);
    log(
      `  ${script}: ready in ${Math.round(readyMs)} ms, RSS ${Math.round(rss.total)} MB (app ${Math.round(rss.largest)} MB)`,
    );
    return { readyMs, treeRssMb: rss.total, appRssMb: rss.largest };
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function coldStart(o: { runs: number; log(line: string): void }): Promise<BenchResult> {
  const started = Date.now();
  const app: Run[] = [];
  const base: Run[] = [];
  o.log(`cold-start: ${o.runs} runs each, alternating with the baseline…`);
  // Warm the tsx transform cache first, as any second `npm start` would find it.
  await once('bench/cold-start-baseline.ts', () => {});
  for (let i = 0; i < o.runs; i++) {
    base.push(await once('bench/cold-start-baseline.ts', o.log));
    app.push(await once('src/main.ts', o.log));
  }
  const m = (runs: Run[], k: keyof Run) => median(runs.map((r) => r[k]));
  const readyRatio = m(app, 'readyMs') / m(base, 'readyMs');
  return {
    name: 'cold-start',
    title: 'Cold start to ready, and idle memory',
    measured: true,
    baseline: 'node + tsx serving only /healthz (bench/cold-start-baseline.ts), alternating runs',
    metrics: [
      metric('spawn → /healthz 200', m(app, 'readyMs'), 'ms', { baseline: m(base, 'readyMs') }),
      metric('RSS after 10 s idle (process tree)', m(app, 'treeRssMb'), 'MB', {
        baseline: m(base, 'treeRssMb'),
      }),
      metric('RSS after 10 s idle (app process)', m(app, 'appRssMb'), 'MB', {
        baseline: m(base, 'appRssMb'),
      }),
    ],
    notes: [
      `Median of ${o.runs} runs each. The bot starts in demo mode (no VIDEO_API_URL: embedded simulator, playground) with a fresh data directory (migrations, new secret key), LOG_LEVEL=warn.`,
      `Cold start ratio ${readyRatio.toFixed(2)}: the difference is loading the bot's modules and starting the embedded simulator, the store (migrations) and the poller.`,
    ],
    durationMs: Date.now() - started,
    details: { app, baseline: base },
  };
}
