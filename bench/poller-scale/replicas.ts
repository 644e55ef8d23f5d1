/**
 * Benchmark 2b, replicas (issues 17 and 28): replicas as separate processes (./replica-process.ts), each with
 * its own store pool, registry, rate budgets, Poller and OutboxSender on the real clock, against ONE PostgreSQL
 * server reached through a local TCP proxy that adds 2 ms each way (test/support/tcp-proxy.ts: as across a
 * network), the simulator in a process of its own (real curves, speed 1, its rate limits off: the store is what
 * is measured) and a fake chat server that counts posts by their dedupe id (bench/lib/fake-chat-server.ts).
 *
 * The curve: the same workload watched by 1, 2 and 3 replicas — JOBS generation jobs created and watched
 * (first look due at once), then the replicas are told to go together; throughput is the checks committed per
 * real second until they number the jobs (a backlog exists throughout, so what is measured is what the
 * replicas can do, not what the jobs ask for). Each point has its own database and its own jobs.
 *
 * A paused replica (not with --quick): three replicas on the workload; after 10 s one is SIGSTOPped for 60 s,
 * then SIGCONTed and the run goes on 30 s. Reported: the others' store transaction p99 and their command
 * probe's slowest answer during the pause (each replica times a command's one-row transaction every 500 ms),
 * their checks per second during the pause, and posts delivered twice at the fake chat after SIGCONT (0).
 *
 * BENCH_CPU_PROF=<dir> writes a CPU profile of every replica process (<dir>/<run>-<id>/); the bench
 * summarises each (bench/lib/cpu-profile.ts) into the result's notes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/core/time/system-clock.js';
import type { SeedTeam } from '../../src/simulator/index.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { DEFAULT_DATABASE_TIMEOUT_MS } from '../../src/store/postgres/session.js';
import { startPostgres, type TestPostgres } from '../../test/support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.js';
import { summariseCpuProfile } from '../lib/cpu-profile.js';
import { type FakeChatServer, startFakeChatServer } from '../lib/fake-chat-server.js';
import { MODEL_MIX, type Model, watchGeneration } from '../lib/jobs.js';
import { mapLimit } from '../lib/map-limit.js';
import { type BenchResult, type Metric, metric } from '../lib/result.js';
import { type SimulatorProcess, startSimulatorProcess } from '../lib/sim-child.js';
import { percentile, seededRandom } from '../lib/stats.js';
import type { ReplicaProcessOptions, ReplicaProcessResult } from './replica-process.js';

export interface ReplicasBenchOptions {
  /** Jobs per point of the curve (and for the pause run). */
  jobs: number;
  /** Jobs per API key (their rate budgets stay far from binding: the store is measured). */
  jobsPerKey?: number;
  seed: number;
  /** The curve's points (default 1, 2, 3). */
  replicas?: number[];
  /** Leaves the paused-replica run out (--quick). */
  quick?: boolean;
  /** The session lock timeout the replicas run with, for the pause run's target (ms). */
  lockTimeoutMs: number;
  /** Longest a point may run before it is stopped with its backlog not drained (ms). */
  maxRunMs?: number;
  log(line: string): void;
}

const ROOT = join(import.meta.dirname, '../..');
/** The replicas' session lock timeout (ms, DATABASE_TIMEOUT_MS's default): the pause run's target. */
export const REPLICA_LOCK_TIMEOUT_MS = DEFAULT_DATABASE_TIMEOUT_MS;
const NETWORK_DELAY_MS = 2;
const PAUSE_AFTER_MS = 10_000;
const PAUSE_MS = 60_000;
const AFTER_PAUSE_MS = 30_000;
/** Slack's wait for an answer. */
const ANSWER_MS = 3_000;

interface Point {
  replicas: number;
  jobs: number;
  /** Real ms from `go` until the replicas had committed as many checks as there are jobs (or the cap). */
  runMs: number;
  /** False when the cap stopped the point first. */
  complete: boolean;
  checks: number;
  throughput: number;
  /** Transaction wait p50/p99 (ms), all replicas. */
  txP50: number;
  txP99: number;
  cpuMs: Record<string, number>;
  outcomes: Record<string, number>;
  doubles: number;
  errors: string[];
}

interface World {
  pg: TestPostgres;
  proxy: TcpProxy;
  chat: FakeChatServer;
  sim: SimulatorProcess;
  secretKey: Buffer;
  keys: string[];
  /** The next unused key (each run has its own keys, so their budgets start fresh). */
  nextKey: number;
}

const keyOf = (i: number) => `fl_live_bench${String(i).padStart(20, '0')}`;
const ownerOf = (i: number) => `slack:T${i}:U1`;

export async function replicasBench(o: ReplicasBenchOptions): Promise<BenchResult> {
  const started = Date.now();
  const counts = o.replicas ?? [1, 2, 3];
  const perKey = o.jobsPerKey ?? 10;
  const keysPerRun = Math.ceil(o.jobs / perKey);
  const runs = counts.length + (o.quick ? 0 : 1);
  const teams: SeedTeam[] = Array.from({ length: keysPerRun * runs }, (_, i) => ({
    name: `Bench team ${i}`,
    credits: 1_000_000,
    projectCap: perKey + 10,
    keys: [{ key: keyOf(i) }],
  }));
  const pgServer = await startPostgres();
  const world: World = {
    pg: pgServer,
    proxy: await startTcpProxy({
      target: { host: '127.0.0.1', port: pgServer.port },
      delayMs: NETWORK_DELAY_MS,
    }),
    chat: await startFakeChatServer(),
    sim: await startSimulatorProcess({
      start: Date.now(),
      scaled: { realStart: Date.now(), scale: 1 },
      teams,
      randomSeed: o.seed,
      knobs: { rateLimits: false },
      profile: 'real',
    }),
    secretKey: randomBytes(32),
    keys: teams.map((_, i) => keyOf(i)),
    nextKey: 0,
  };
  try {
    o.log(
      `replicas: ${o.jobs} jobs per point on PostgreSQL through a proxy (${NETWORK_DELAY_MS} ms each way), ${counts.join(', ')} replica processes…`,
    );
    const points: Point[] = [];
    const profiles: string[] = [];
    for (const n of counts) {
      const point = await curvePoint(world, o, n, keysPerRun, perKey);
      points.push(point);
      o.log(
        `  ${n} replica(s): ${point.checks} checks in ${(point.runMs / 1000).toFixed(1)} s${point.complete ? '' : ' (capped before the backlog was worked through)'} = ${point.throughput.toFixed(1)} checks/s; transaction p50/p99 ${point.txP50}/${point.txP99} ms; CPU ms ${JSON.stringify(point.cpuMs)}; doubles ${point.doubles}${point.errors.length ? `; errors ${point.errors.slice(0, 3).join(' | ')}` : ''}`,
      );
      profiles.push(...cpuProfileNotes(`${n}-replica`));
    }
    const pause = o.quick ? undefined : await pausedReplica(world, o, keysPerRun, perKey);
    if (pause) {
      o.log(
        `  paused replica: others' transaction p99 during the pause ${pause.txP99} ms (max ${pause.txMax}), slowest command ${pause.commandMax} ms (${pause.commandsLate} over ${ANSWER_MS} ms, ${pause.commandsFailed} failed), ${pause.checksPerSecond.toFixed(1)} checks/s meanwhile; doubles ${pause.doubles}`,
      );
      profiles.push(...cpuProfileNotes('paused'));
    }
    return {
      name: 'replicas',
      title: `Replicas as processes on one PostgreSQL (${NETWORK_DELAY_MS} ms away): ${o.jobs} watches, ${counts.join('/')} replicas${pause ? ', one paused 60 s' : ''}`,
      measured: true,
      baseline: '1 replica process, same server, proxy, workload and run',
      metrics: [...curveRows(points), ...(pause ? pauseRows(pause, o.lockTimeoutMs) : [])],
      notes: [
        `${o.jobs} generation jobs (storyboard/motion_lite/motion_pro 3:2:1) on ${keysPerRun} keys per point, created on the simulator (real curves, speed 1, rate limits off) and watched with the first look due at once; then 1, 2 or 3 replica processes go together. Each replica process (bench/poller-scale/replica-process.ts) has what src/main.ts gives a replica: a PostgresStore (its own pool), the replica registry and rate budgets, the Poller (concurrency 64) and the OutboxSender, on the real clock; chat goes to a fake chat server in the bench's process that counts posts by dedupe id.`,
        `Network: every replica reaches PostgreSQL through its own endpoint of a TCP proxy adding ${NETWORK_DELAY_MS} ms each way (test/support/tcp-proxy.ts); the bench seeds and watches the backlog directly.`,
        'Throughput: checks committed (a look whose result landed: active or done) per real second from "go" until the replicas together have committed as many checks as there are jobs — every job is due at go, so a backlog exists throughout and this is what the replicas can do, not what the jobs ask for. Transaction p50/p99: the wait of each outermost store transaction, queueing inside the replica included.',
        ...points.map(
          (p) =>
            `${p.replicas} replica(s): ${p.checks} checks in ${(p.runMs / 1000).toFixed(1)} s${p.complete ? '' : ' (capped before the backlog was worked through)'}, outcomes ${JSON.stringify(p.outcomes)}, CPU ms per process ${JSON.stringify(p.cpuMs)}.`,
        ),
        ...(pause
          ? [
              `Paused replica: three replicas on ${o.jobs} new jobs; ${pause.victim} SIGSTOPped ${PAUSE_AFTER_MS / 1000} s after go, SIGCONTed ${PAUSE_MS / 1000} s later, the run went on ${AFTER_PAUSE_MS / 1000} s. During the pause the others committed ${pause.checksPerSecond.toFixed(1)} checks/s (before it: ${pause.checksPerSecondBefore.toFixed(1)}); their transactions p50/p99/max ${pause.txP50}/${pause.txP99}/${pause.txMax} ms (${pause.transactions} transactions); their command probe (a one-row transaction every 500 ms each) slowest ${pause.commandMax} ms, ${pause.commandsLate} over ${ANSWER_MS} ms, ${pause.commandsFailed} failed. Posts at the fake chat: ${pause.posts}, ${pause.doubles} twice.`,
            ]
          : []),
        ...profiles,
      ],
      durationMs: Date.now() - started,
      details: { points, ...(pause ? { pause } : {}) },
    };
  } finally {
    await world.sim.close();
    await world.chat.close();
    await world.proxy.close();
    await world.pg.stop();
  }
}

/** A fresh database with `jobs` new jobs watched, first look due now; the keys are the run's own. */
async function seedRun(
  w: World,
  o: ReplicasBenchOptions,
  keysPerRun: number,
  perKey: number,
): Promise<string> {
  const url = await w.pg.createDatabase();
  const store = await openPostgresStore({ url, secretKey: w.secretKey, clock: systemClock });
  const first = w.nextKey;
  w.nextKey += keysPerRun;
  try {
    for (let k = first; k < first + keysPerRun; k++) {
      const key = w.keys[k] as string;
      await store.keys.put(ownerOf(k), {
        apiKey: key,
        keyPrefix: key.slice(0, 12),
        teamId: `t${k}`,
        teamName: `T${k}`,
      });
    }
    const random = seededRandom(o.seed + first);
    const jobs = Array.from({ length: o.jobs }, (_, i) => ({
      i,
      key: first + Math.floor(i / perKey),
      model: MODEL_MIX[Math.floor(random() * MODEL_MIX.length)] as Model,
    }));
    const created = await mapLimit(jobs, 32, async (j) => ({
      ...j,
      videoId: await w.sim.createVideo(w.keys[j.key] as string, { model: j.model, name: `Bench ${j.i}` }),
    }));
    const seededAt = Date.now();
    for (let from = 0; from < created.length; from += 200) {
      await store.transaction(async () => {
        for (const c of created.slice(from, from + 200)) {
          // First look due at `seededAt` (watchGeneration asks for one 10 s after `now`).
          await watchGeneration(store, {
            videoId: c.videoId,
            name: `Bench ${c.i}`,
            model: c.model,
            owner: ownerOf(c.key),
            conversation: `slack:T${c.key}:C1`,
            now: seededAt - 10_000,
          });
        }
      });
    }
    return url;
  } finally {
    await store.close();
  }
}

interface Running {
  id: string;
  child: ChildProcess;
  result: Promise<ReplicaProcessResult>;
}

async function startReplicas(
  w: World,
  url: string,
  n: number,
  run: string,
  seed: number,
): Promise<Running[]> {
  const replicas = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const id = `r${i + 1}`;
      const options: ReplicaProcessOptions = {
        id,
        databaseUrl: await w.proxy.urlFor(`${run}-${id}`, url),
        secretKey: w.secretKey.toString('base64'),
        apiUrl: w.sim.url,
        chatUrl: w.chat.url,
        seed: seed + 10 * i,
      };
      return spawnReplica(options, run);
    }),
  );
  return replicas;
}

function spawnReplica(options: ReplicaProcessOptions, run: string): Promise<Running> {
  const prof = process.env.BENCH_CPU_PROF;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${join(prof, `${run}-${options.id}`)}`] : []),
      'bench/poller-scale/replica-process.ts',
      JSON.stringify(options),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    err = (err + c.toString()).slice(-4000);
  });
  const result = new Promise<ReplicaProcessResult>((resolve, reject) => {
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as ReplicaProcessResult);
      else reject(new Error(`replica ${options.id} (${run}) failed (${code}): ${err}`));
    });
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve({ id: options.id, child, result }));
    result.catch(reject);
  });
}

async function curvePoint(
  w: World,
  o: ReplicasBenchOptions,
  n: number,
  keysPerRun: number,
  perKey: number,
): Promise<Point> {
  const url = await seedRun(w, o, keysPerRun, perKey);
  const replicas = await startReplicas(w, url, n, `${n}-replica`, o.seed);
  w.chat.reset();
  // Until the replicas together have committed as many checks as there are jobs (the backlog's worth).
  const counts = new Map<string, number>();
  const reached = new Promise<boolean>((resolve) => {
    const cap = setTimeout(() => resolve(false), o.maxRunMs ?? 240_000);
    for (const r of replicas)
      r.child.on('message', (m: { op?: string; n?: number }) => {
        if (m.op !== 'checks') return;
        counts.set(r.id, m.n ?? 0);
        if ([...counts.values()].reduce((x, y) => x + y, 0) < o.jobs) return;
        clearTimeout(cap);
        resolve(true);
      });
  });
  const goAt = Date.now();
  for (const r of replicas) r.child.send({ op: 'go' });
  const complete = await reached;
  const stopAt = Date.now();
  for (const r of replicas) r.child.send({ op: 'stop' });
  const results = await Promise.all(replicas.map((r) => r.result));
  const times = results
    .flatMap((r) => r.checks)
    .filter((t) => t >= goAt && t <= stopAt)
    .sort((x, y) => x - y);
  // The moment the jobs-th check committed (the rest reported meanwhile are left out).
  const endAt = complete ? (times[o.jobs - 1] ?? stopAt) : stopAt;
  const checks = complete ? Math.min(o.jobs, times.length) : times.length;
  const waits = results.flatMap((r) =>
    r.transactions.filter(([at]) => at >= goAt && at <= endAt).map(([, ms]) => ms),
  );
  const outcomes: Record<string, number> = {};
  for (const r of results)
    for (const [k, v] of Object.entries(r.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + v;
  return {
    replicas: n,
    jobs: o.jobs,
    runMs: endAt - goAt,
    complete,
    checks,
    throughput: (checks / (endAt - goAt)) * 1000,
    txP50: percentile(waits, 50),
    txP99: percentile(waits, 99),
    cpuMs: Object.fromEntries(results.map((r) => [r.id, r.cpuMs])),
    outcomes,
    doubles: w.chat.doubles().length,
    errors: results.flatMap((r) => r.errors.map((e) => `${r.id}: ${e}`)),
  };
}

interface PauseResult {
  victim: string;
  transactions: number;
  txP50: number;
  txP99: number;
  txMax: number;
  commandMax: number;
  commandsLate: number;
  commandsFailed: number;
  checksPerSecond: number;
  checksPerSecondBefore: number;
  posts: number;
  doubles: number;
  errors: string[];
}

async function pausedReplica(
  w: World,
  o: ReplicasBenchOptions,
  keysPerRun: number,
  perKey: number,
): Promise<PauseResult> {
  o.log(`  paused replica: 3 replicas, one SIGSTOPped ${PAUSE_MS / 1000} s…`);
  const url = await seedRun(w, o, keysPerRun, perKey);
  const replicas = await startReplicas(w, url, 3, 'paused', o.seed);
  const victim = replicas[1] as Running;
  w.chat.reset();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const goAt = Date.now();
  for (const r of replicas) r.child.send({ op: 'go' });
  await sleep(PAUSE_AFTER_MS);
  const pausedAt = Date.now();
  victim.child.kill('SIGSTOP');
  await sleep(PAUSE_MS);
  victim.child.kill('SIGCONT');
  const resumedAt = Date.now();
  await sleep(AFTER_PAUSE_MS);
  for (const r of replicas) r.child.send({ op: 'stop' });
  const results = await Promise.all(replicas.map((r) => r.result));
  const others = results.filter((r) => r.id !== victim.id);
  const during = ([at]: [number, number]) => at >= pausedAt && at < resumedAt;
  const waits = others.flatMap((r) => r.transactions.filter(during).map(([, ms]) => ms));
  const commands = others.flatMap((r) => r.commands.filter(during).map(([, ms]) => ms));
  const checksIn = (from: number, to: number) =>
    others.flatMap((r) => r.checks).filter((t) => t >= from && t < to).length;
  return {
    victim: victim.id,
    transactions: waits.length,
    txP50: percentile(waits, 50),
    txP99: percentile(waits, 99),
    txMax: percentile(waits, 100),
    commandMax: Math.max(0, ...commands),
    commandsLate: commands.filter((ms) => ms > ANSWER_MS).length,
    commandsFailed: commands.filter((ms) => ms < 0).length,
    checksPerSecond: (checksIn(pausedAt, resumedAt) / (resumedAt - pausedAt)) * 1000,
    checksPerSecondBefore: (checksIn(goAt, pausedAt) / (pausedAt - goAt)) * 1000,
    posts: [...w.chat.posts.values()].reduce((a, b) => a + b, 0),
    doubles: w.chat.doubles().length,
    errors: results.flatMap((r) => r.errors.map((e) => `${r.id}: ${e}`)),
  };
}

function curveRows(points: Point[]): Metric[] {
  const one = points.find((p) => p.replicas === 1);
  const two = points.find((p) => p.replicas === 2);
  const rows: Metric[] = [];
  for (const p of points) {
    const target =
      p.replicas === 2
        ? '≥ 1.4× one'
        : p.replicas === 3 && two
          ? `≥ 2 replicas' (${two.throughput.toFixed(1)})`
          : undefined;
    const pass =
      p.replicas === 2 && one
        ? p.throughput >= 1.4 * one.throughput
        : p.replicas === 3 && two
          ? p.throughput >= two.throughput
          : undefined;
    rows.push(
      metric(`${p.replicas} replica(s): throughput (checks committed per second)`, p.throughput, 'checks/s', {
        ...(one && p !== one ? { baseline: one.throughput } : {}),
        ...(target !== undefined && pass !== undefined ? { target, pass } : {}),
      }),
      metric(`${p.replicas} replica(s): store transaction p99`, p.txP99, 'ms', {
        ...(one && p !== one ? { baseline: one.txP99 } : {}),
      }),
      metric(`${p.replicas} replica(s): posts delivered twice`, p.doubles, 'posts', {
        target: '0',
        pass: p.doubles === 0,
        required: true,
      }),
    );
  }
  return rows;
}

function pauseRows(p: PauseResult, lockTimeoutMs: number): Metric[] {
  return [
    metric("one of 3 paused 60 s: the others' transaction p99 during the pause", p.txP99, 'ms', {
      target: `≤ lock timeout + 1 s (${lockTimeoutMs + 1000})`,
      pass: p.txP99 <= lockTimeoutMs + 1000,
    }),
    metric("one of 3 paused 60 s: the others' slowest command during the pause", p.commandMax, 'ms', {
      target: `≤ ${ANSWER_MS}`,
      pass: p.commandMax <= ANSWER_MS && p.commandsFailed === 0,
    }),
    metric(
      "one of 3 paused 60 s: the others' checks per second during the pause",
      p.checksPerSecond,
      'checks/s',
      {
        baseline: p.checksPerSecondBefore,
      },
    ),
    metric('one of 3 paused 60 s: posts delivered twice', p.doubles, 'posts', {
      target: '0',
      pass: p.doubles === 0,
      required: true,
    }),
  ];
}

/** One line per replica process profiled under BENCH_CPU_PROF for `run`. */
function cpuProfileNotes(run: string): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return [];
  const notes: string[] = [];
  for (const sub of readdirSync(dir)
    .filter((d) => d.startsWith(`${run}-`))
    .sort()) {
    // The tsx loader's thread writes a profile of its own beside the main thread's: the busier one is the replica.
    const summaries = readdirSync(join(dir, sub))
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => summariseCpuProfile(join(dir, sub, f)));
    const main = summaries.sort((a, b) => b.sampledMs * b.busy - a.sampledMs * a.busy)[0];
    if (main) notes.push(`CPU profile ${sub}: ${main.line}`);
  }
  return notes;
}
