/**
 * `npm run bench` — measured speed and resilience (ISSUE 8). Every benchmark compares against a baseline
 * measured in the same run (the machine is shared and noisy: ratios, not absolute numbers), prints one
 * table, and writes bench/output/<name>.json (untracked); with --save, the committed figures in
 * bench/results/<name>.json instead. See docs/performance.md.
 *
 *   npm run bench                      all benchmarks, full size
 *   npm run bench -- --save            the same, updating the committed figures in bench/results/
 *   npm run bench -- --only poller-scale,cold-start
 *   npm run bench -- --quick           smaller sizes (real curves only), about two minutes, for a fast look
 *   npm run bench -- --budget-scale 2  rate-budget with less time compression (closer to production)
 *   npm run bench -- --profiles real   poller-scale on the simulator's real curves only (default: real,spec)
 *   npm run bench -- --poller-jobs 4000  poller-scale and replicas with fewer jobs (50 per key, as the full size)
 *   npm run bench -- --only cold-start --compare ../old  cold-start A/B: another checkout's start, alternating (5 runs)
 */
import { join } from 'node:path';
import type { SimulatorProfile } from '../src/simulator/index.js';
import { ackLatency } from './ack-latency/index.js';
import { coldStart } from './cold-start.js';
import { type BenchResult, table, writeResult } from './lib/result.js';
import { pollerScale } from './poller-scale/index.js';
import { REPLICA_LOCK_TIMEOUT_MS, replicasBench } from './poller-scale/replicas.js';
import { rateBudget } from './rate-budget.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
/** Writes the committed figures (bench/results/) rather than the untracked bench/output/. */
const save = args.includes('--save');
const scaleAt = args.indexOf('--budget-scale');
/** Clock acceleration of rate-budget (default 6; 2 is closer to production, three times longer). */
const budgetScale = scaleAt >= 0 ? Number(args[scaleAt + 1]) : undefined;
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',').filter(Boolean)) : undefined;
const profilesAt = args.indexOf('--profiles');
/** Simulator profiles poller-scale runs on, in order (default real, then spec). */
const profiles = profilesAt >= 0 ? parseProfiles(args[profilesAt + 1] ?? '') : undefined;
const jobsAt = args.indexOf('--poller-jobs');
/** poller-scale's job count (default 10,000; 250 with --quick), always 50 per key. */
const pollerJobs = jobsAt >= 0 ? Number(args[jobsAt + 1]) : undefined;
if (pollerJobs !== undefined && !(Number.isInteger(pollerJobs) && pollerJobs >= 50)) {
  throw new Error('--poller-jobs takes a whole number of jobs, at least 50');
}
const compareAt = args.indexOf('--compare');
/** cold-start's A/B: the root of another checkout (with node_modules), started alternately with this one. */
const compare = compareAt >= 0 ? args[compareAt + 1] : undefined;
if (compareAt >= 0 && !compare) throw new Error('--compare takes the root of another checkout');
const log = (line: string) => process.stderr.write(`${line}\n`);
const RESULTS = join(import.meta.dirname, save ? 'results' : 'output');
/** --quick's job count for poller-scale and replicas: with the other quick sizes, about two minutes here. */
const QUICK_JOBS = 250;
/** --quick's jobs per point of the replicas curve. */
const QUICK_REPLICA_JOBS = 1_000;

const BENCHMARKS: { name: string; run: () => Promise<BenchResult> }[] = [
  {
    name: 'poller-scale',
    run: () => {
      const jobs = pollerJobs ?? (quick ? QUICK_JOBS : 10_000);
      return pollerScale({
        jobs,
        keys: Math.ceil(jobs / 50),
        seed: 1,
        // A safety cap per worker, generous: a busy machine slows the run, never its virtual-time figures.
        maxRealMs: Math.max(240_000, jobs * 120),
        log,
        // Quick looks at the real curves only (the spec curve's figures move with them, run after run).
        ...(profiles ? { profiles } : quick ? { profiles: ['real'] as SimulatorProfile[] } : {}),
      });
    },
  },
  {
    name: 'replicas',
    run: () =>
      replicasBench({
        // --quick: the curve with small N, no paused-replica run.
        jobs: pollerJobs ?? (quick ? QUICK_REPLICA_JOBS : 4_000),
        seed: 1,
        quick,
        lockTimeoutMs: REPLICA_LOCK_TIMEOUT_MS,
        log,
      }),
  },
  {
    name: 'rate-budget',
    run: () => rateBudget({ quick, log, ...(budgetScale ? { scale: budgetScale } : {}) }),
  },
  {
    name: 'cold-start',
    run: () => coldStart({ runs: quick ? 1 : compare ? 5 : 3, log, ...(compare ? { compare } : {}) }),
  },
  {
    name: 'ack-latency',
    run: () => ackLatency({ requests: quick ? 30 : 200, ...(quick ? { rounds: 5 } : {}), log }),
  },
];

function parseProfiles(list: string): SimulatorProfile[] {
  const names = list.split(',').filter(Boolean);
  const bad = names.filter((n) => n !== 'spec' && n !== 'real');
  if (names.length === 0 || bad.length > 0) {
    throw new Error(`--profiles takes spec and/or real, comma-separated (got "${list}")`);
  }
  return names as SimulatorProfile[];
}

async function main() {
  const results: BenchResult[] = [];
  for (const bench of BENCHMARKS) {
    if (only && !only.has(bench.name)) continue;
    log(`\n== ${bench.name} ==`);
    try {
      const result = await bench.run();
      results.push(result);
      log(`wrote ${writeResult(RESULTS, result)}`);
    } catch (error) {
      log(`${bench.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    }
  }
  process.stdout.write(`\n${table(results)}\n`);
  for (const r of results) {
    if (r.notes.length === 0) continue;
    process.stdout.write(`\n${r.name} (${r.measured ? `baseline: ${r.baseline}` : 'NOT MEASURED'}):\n`);
    for (const note of r.notes) process.stdout.write(`  - ${note}\n`);
  }
  // Invariants (e.g. poller-scale's "3 projections cost no more API calls than 1") fail the run.
  for (const r of results) {
    for (const m of r.metrics) {
      if (!m.required || m.pass !== false) continue;
      process.stdout.write(
        `\nFAIL ${r.name}: ${m.name} = ${m.value} ${m.unit} (target ${m.target ?? '?'})\n`,
      );
      process.exitCode = 1;
    }
  }
}

await main();
