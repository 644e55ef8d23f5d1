/**
 * What the ack-latency measurements share: a target in its own process (target.ts), the rounds that alternate
 * floor and adapter, and the latency metrics judged on the median of per-round ratios.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { type Metric, metric } from '../lib/result.js';
import { median, percentile } from '../lib/stats.js';
import type { TargetConfig } from './target.js';

export const ROOT = join(import.meta.dirname, '../..');
/** Rounds per target: the target is judged on the median of per-round ratios (9 keeps one bad round out). */
export const ROUNDS = 9;
export const COMMANDS = ['help', 'credits', 'videos'];
export const USERS = 20;
/** Pause after each burst, so what one target left running (follow-ups) does not overlap the next burst. */
export const PAUSE_MS = 500;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Target {
  /** The HTTP base URL, or `gateway` for a target reached over the fake Discord's gateway. */
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startTarget(config: TargetConfig): Promise<Target> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir> profiles each target (see docs/performance.md, "Profiling").
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      'tsx',
      'bench/ack-latency/target.ts',
      JSON.stringify(config),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err = (err + c.toString()).slice(-3000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${config.kind} exited (${code}): ${err}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export type Which = 'floor' | 'app';

export interface Rounds {
  pooled: Record<Which, number[]>;
  perRound: Record<Which, number[][]>;
}

/**
 * `rounds` bursts of each, floor and adapter alternating which goes first, a pause after each burst.
 * `run` sends one burst and returns its latencies (ms).
 */
export async function alternate(rounds: number, run: (which: Which) => Promise<number[]>): Promise<Rounds> {
  const out: Rounds = { pooled: { floor: [], app: [] }, perRound: { floor: [], app: [] } };
  for (let round = 0; round < rounds; round++) {
    const order: Which[] = round % 2 === 0 ? ['floor', 'app'] : ['app', 'floor'];
    for (const which of order) {
      const latencies = await run(which);
      out.pooled[which].push(...latencies);
      out.perRound[which].push(latencies);
      await sleep(PAUSE_MS);
    }
  }
  return out;
}

const p = (list: number[], q: number) => Math.round(percentile(list, q) * 10) / 10;

/**
 * p50/p99 pooled (against the floor's) and the median of per-round ratios: a neighbour's burst of CPU can spoil
 * one round, so the ratio is each round's adapter burst against the floor burst next to it. `judged: false`
 * reports the ratios without a target (the p99 is still held to "≪ 3000 ms", Discord's window).
 */
export function latencyMetrics(label: string, r: Rounds, judged: boolean): Metric[] {
  const roundRatio = (q: number) =>
    median(r.perRound.app.map((app, i) => percentile(app, q) / percentile(r.perRound.floor[i] ?? [], q)));
  const r50 = roundRatio(50);
  const r99 = roundRatio(99);
  const ratioTarget = (value: number) => (judged ? { target: '≤ 1.2', pass: value <= 1.2 } : { target: '' });
  return [
    metric(`${label}: ack p50 (pooled)`, p(r.pooled.app, 50), 'ms', { baseline: p(r.pooled.floor, 50) }),
    metric(`${label}: ack p99 (pooled)`, p(r.pooled.app, 99), 'ms', {
      baseline: p(r.pooled.floor, 99),
      target: '≪ 3000 ms',
      pass: p(r.pooled.app, 99) < 3000,
    }),
    metric(`${label}: p50 ratio, median of rounds`, r50, '×', ratioTarget(r50)),
    metric(`${label}: p99 ratio, median of rounds`, r99, '×', ratioTarget(r99)),
  ];
}
