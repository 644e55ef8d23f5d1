/**
 * Benchmark 2, the poller at scale: JOBS concurrent video jobs across KEYS keys against the simulator (its
 * rate limits on), watched by the real poller with the product's settings, by the same poller with a larger
 * batch, and by a NAIVE fixed-10 s poller (../naive-poller.ts) — the baseline — each in its own process,
 * side by side, in virtual time (see worker.ts). Reports detection delay (state change → outbox row),
 * API calls per finished job, CPU per job and peak RSS, as ratios against the naive poller.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type BenchResult, metric } from '../lib/result.js';
import type { WorkerOptions, WorkerResult } from './worker.js';

const ROOT = join(import.meta.dirname, '../..');

function runWorker(options: WorkerOptions): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'bench/poller-scale/worker.ts', JSON.stringify(options)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4000);
    });
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as WorkerResult);
      else reject(new Error(`poller-scale worker (${options.mode}) failed (${code}): ${err}`));
    });
  });
}

export interface PollerScaleOptions {
  jobs: number;
  keys: number;
  seed: number;
  /** Wall-clock cap per worker (ms); a worker that hits it reports what it finished. */
  maxRealMs: number;
  log(line: string): void;
}

const perJob = (r: WorkerResult, value: number) => (r.finished > 0 ? value / r.finished : Number.NaN);

export async function pollerScale(o: PollerScaleOptions): Promise<BenchResult> {
  const started = Date.now();
  const base = {
    jobs: o.jobs,
    keys: o.keys,
    seed: o.seed,
    createSeconds: 60,
    maxVirtualMs: 3 * 3600_000,
    maxRealMs: o.maxRealMs,
  };
  o.log(`poller-scale: ${o.jobs} jobs / ${o.keys} keys, pollers side by side…`);
  const [smart, naive] = await Promise.all([
    runWorker({ ...base, mode: 'smart' }),
    runWorker({ ...base, mode: 'naive' }),
  ]);
  if (!smart || !naive) throw new Error('poller-scale: a worker returned nothing');
  const rows = (label: string, r: WorkerResult) => {
    const calls = r.callsPerFinishedJob;
    const naiveCalls = naive.callsPerFinishedJob;
    return [
      metric(`${label}: jobs finished`, r.finished, 'jobs', { baseline: naive.finished }),
      metric(`${label}: detection delay p50`, r.delaysMs.p50 / 1000, 's', {
        baseline: naive.delaysMs.p50 / 1000,
      }),
      metric(`${label}: detection delay p95`, r.delaysMs.p95 / 1000, 's', {
        baseline: naive.delaysMs.p95 / 1000,
        target: '≤ 1 (no worse)',
        pass: r.delaysMs.p95 <= naive.delaysMs.p95,
      }),
      metric(`${label}: API calls per finished job`, calls, 'calls', {
        baseline: naiveCalls,
        target: '≤ 0.5',
        pass: calls <= naiveCalls / 2,
      }),
      metric(`${label}: poller CPU per job`, perJob(r, r.cpuMs), 'ms', {
        baseline: perJob(naive, naive.cpuMs),
      }),
      metric(`${label}: peak RSS`, r.rss.peakMb, 'MB', { baseline: naive.rss.peakMb }),
      metric(`${label}: 429 responses`, r.statuses['429'] ?? 0, 'responses', {
        baseline: naive.statuses['429'] ?? 0,
      }),
    ];
  };
  const complete = (r: WorkerResult) => r.finished === r.jobs;
  const notes = [
    `${o.jobs} generation jobs (storyboard/motion_lite/motion_pro 3:2:1, 90/150/240 s) on ${o.keys} keys, created over the first minute; simulator rate limits on; virtual time shared by the simulator, client budgets, poller and store.`,
    'Baseline: a naive poller checking every active job every 10 s with the same client, watchers, store and outbox (no adaptive interval, no background lane, no deferral).',
    `"smart (product)" is the poller exactly as src/main.ts configures it (concurrency 64, batch 500, 1 s passes that go on while batches come back full).`,
    'API calls per finished job: the calls made for each job that finished (status and reads of its video), averaged; total calls also include the jobs still running when a worker stopped.',
    'Detection delay: virtual time from the job reaching its final state in the simulator to the completion outbox row. CPU and RSS: the poller process only (the simulator runs in its own process); CPU excludes creating the jobs.',
    `Wall time per pass/round (real ms, p50/p99/max): smart ${fmtWall(smart)}, naive ${fmtWall(naive)} — a pass slower than its interval (1 s; naive 10 s) means the machine could not have kept that pace in real time.`,
  ];
  for (const r of [smart, naive]) {
    if (!complete(r))
      notes.push(
        `${label(r)} did not finish every job within the wall-clock cap (${r.finished}/${r.jobs}); its figures cover what it finished.`,
      );
  }
  return {
    name: 'poller-scale',
    title: 'Poller at scale: detection delay, API calls, CPU, RSS',
    measured: true,
    baseline: 'naive fixed-10 s poller, same client/watchers/store, same run',
    metrics: rows('smart (product)', smart),
    notes,
    durationMs: Date.now() - started,
    details: { smart, naive },
  };
}

const label = (r: WorkerResult) =>
  r.mode === 'naive' ? 'naive' : r.batchSize ? `smart (batch ${r.batchSize})` : 'smart (product)';
const fmtWall = (r: WorkerResult) => `${r.passWallMs.p50}/${r.passWallMs.p99}/${r.passWallMs.max}`;
