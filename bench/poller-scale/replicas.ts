/**
 * Benchmark 2b, replicas (issue 17): the poller-at-scale workload (worker.ts) on PostgreSQL, watched by 1
 * replica and then by 3 replicas sharing the database (each with its own store pool, poller, outbox sender and
 * client budgets, as separate processes have), against the simulator with its rate limits on, in virtual time.
 * The 1-replica run is the baseline. Reports real-time throughput (checks committed per second), detection p95,
 * API calls per finished job, 429s, and double deliveries (outbox items claimed for sending twice: must be 0).
 * PostgreSQL is a throwaway server (Debian's binaries, as the tests start it: test/support/postgres.ts).
 */
import { startPostgres } from '../../test/support/postgres.js';
import { type BenchResult, type Metric, metric } from '../lib/result.js';
import { runChild } from './index.js';
import type { WorkerOptions, WorkerResult } from './worker.js';

export interface ReplicasBenchOptions {
  jobs: number;
  keys: number;
  seed: number;
  /** How many replicas the scaled-out run has (default 3). */
  replicas?: number;
  maxRealMs: number;
  log(line: string): void;
}

export async function replicasBench(o: ReplicasBenchOptions): Promise<BenchResult> {
  const started = Date.now();
  const many = o.replicas ?? 3;
  const pg = await startPostgres();
  try {
    const run = async (replicas: number): Promise<WorkerResult> => {
      const url = await pg.createDatabase();
      const options: WorkerOptions = {
        mode: 'smart',
        profile: 'real',
        jobs: o.jobs,
        keys: o.keys,
        seed: o.seed,
        createSeconds: 60,
        maxVirtualMs: 3 * 3600_000,
        maxRealMs: o.maxRealMs,
        postgres: { url, replicas },
      };
      const r = await runChild<WorkerResult>(
        'bench/poller-scale/worker.ts',
        options,
        `${replicas} replica(s)`,
        `replicas-${replicas}`,
      );
      o.log(
        `  ${replicas} replica(s): ${r.finished}/${r.jobs} finished in ${Math.round(r.realMs / 1000)} s real (${r.virtualMs / 1000} s virtual), ${r.checksCommitted} checks committed, detection p95 ${r.delaysMs.p95 / 1000} s, ${r.callsPerFinishedJob.toFixed(2)} calls/job, 429s ${r.statuses['429'] ?? 0}, double deliveries ${r.outbox.doubleDeliveries}`,
      );
      return r;
    };
    o.log(`replicas: ${o.jobs} jobs / ${o.keys} keys on PostgreSQL, 1 replica then ${many}…`);
    const one = await run(1);
    const scaled = await run(many);
    return {
      name: 'replicas',
      title: `Replicas on PostgreSQL: ${o.jobs} watches, 1 vs ${many} replicas`,
      measured: true,
      baseline: '1 replica on the same PostgreSQL server, same jobs and curves, same run',
      metrics: rows(`${many} replicas`, scaled, one),
      notes: [
        `${o.jobs} generation jobs on ${o.keys} keys, created over the first minute (the poller-scale workload, real curves), simulator rate limits on; each replica has its own PostgresStore (pool of 8), Poller (holder replica-n, 30 s watch leases), OutboxSender and client factory (its own rate budgets), all in one process on one virtual clock.`,
        'Throughput: checks committed (a look whose result landed) per real second over the whole run; the virtual clock only moves on once a pass has settled, so a slower store stretches real time, not detection delay.',
        'Double deliveries: outbox items claimed for sending more than once across replicas (a sender claims an item with a lease right before the platform call, so an item claimed twice went out twice). Required 0. (Items found already delivered, e.g. a post whose card another replica just posted, are marked done without a claim and without a platform call.)',
        `Store transactions run one at a time across replicas (an advisory lock; src/store/postgres/transactions.ts); what spreads is the API calls and chat posts between them.`,
      ],
      durationMs: Date.now() - started,
      details: { one, scaled },
    };
  } finally {
    await pg.stop();
  }
}

function rows(label: string, r: WorkerResult, one: WorkerResult): Metric[] {
  const throughput = (x: WorkerResult) => (x.realMs > 0 ? (x.checksCommitted / x.realMs) * 1000 : Number.NaN);
  return [
    metric(`${label}: jobs finished`, r.finished, 'jobs', {
      baseline: one.finished,
      target: 'all',
      pass: r.finished === r.jobs,
    }),
    metric(`${label}: throughput (checks committed per real second)`, throughput(r), 'checks/s', {
      baseline: throughput(one),
    }),
    metric(`${label}: detection delay p95`, r.delaysMs.p95 / 1000, 's', {
      baseline: one.delaysMs.p95 / 1000,
    }),
    metric(`${label}: API calls per finished job`, r.callsPerFinishedJob, 'calls', {
      baseline: one.callsPerFinishedJob,
    }),
    metric(`${label}: 429 responses`, r.statuses['429'] ?? 0, 'responses', {
      baseline: one.statuses['429'] ?? 0,
      target: '0',
      pass: (r.statuses['429'] ?? 0) === 0,
    }),
    metric(`${label}: double deliveries`, r.outbox.doubleDeliveries, 'items', {
      baseline: one.outbox.doubleDeliveries,
      target: '0',
      pass: r.outbox.doubleDeliveries === 0 && one.outbox.doubleDeliveries === 0,
      required: true,
    }),
    metric(`${label}: outbox rows left at the end`, r.outbox.pending, 'rows', {
      baseline: one.outbox.pending,
      target: '0',
      pass: r.outbox.pending === 0,
    }),
  ];
}
