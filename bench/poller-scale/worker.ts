/**
 * One run of the poller-at-scale benchmark in a process of its own (so its CPU and RSS are the poller's):
 * JOBS video jobs across KEYS keys, created over the first minute, watched until done, against the simulator
 * in a child process. Virtual time (bench/lib/virtual-clock.ts) is shared by the simulator, the client's rate
 * budgets, the poller and the store, so the results do not depend on how busy the machine is.
 *
 *   node --import tsx bench/poller-scale/worker.ts '<json options>'   → prints `RESULT <json>`
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVideoApiFactory, RateBudgetRegistry } from '../../src/api/index.js';
import { videoOfCardKey } from '../../src/core/live/projections.js';
import { WATCHERS } from '../../src/core/live/watchers.js';
import type { ChatPlatform, ChatSender, Logger, Store } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import type { VideoApi } from '../../src/core/video-api/video-api.js';
import { OutboxSender, Poller } from '../../src/poller/index.js';
import { openReplicaRegistry, type ReplicaRegistry } from '../../src/replicas/registry.js';
import type { SeedTeam, SimulatorProfile } from '../../src/simulator/index.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { HttpMeter, settle } from '../lib/http-meter.js';
import { createVideo, MODEL_MIX, MODEL_MS, type Model, watchGeneration } from '../lib/jobs.js';
import { mapLimit } from '../lib/map-limit.js';
import { startSimulatorProcess } from '../lib/sim-child.js';
import { cpuSince, percentile, rssSampler, seededRandom } from '../lib/stats.js';
import { VirtualClock } from '../lib/virtual-clock.js';
import { NaivePoller } from '../naive-poller.js';

export interface WorkerOptions {
  mode: 'smart' | 'naive';
  /** The simulator's profile: `spec` (linear progress) or `real` (step curves that stall and jump). */
  profile?: SimulatorProfile;
  jobs: number;
  keys: number;
  seed: number;
  /** Poller batch size (product default 100). */
  batchSize?: number;
  /** Poller jitter ratio (product default 0.1), for experiments. */
  jitterRatio?: number;
  /** Seconds over which the jobs are created. */
  createSeconds: number;
  maxVirtualMs: number;
  maxRealMs: number;
  /**
   * Conversations each video is live in (issue 16), 1–3: its Slack channel, then a Discord channel of the
   * same team, then the playground's `#general`. Still one watch per video. Default 1.
   */
  projections?: number;
  /**
   * PostgreSQL instead of a SQLite file (issue 17): the database (empty), and how many replicas share it, each
   * with its own store (pool), poller, outbox sender and client budgets, as separate processes would have.
   */
  postgres?: { url: string; replicas: number };
}

/** What the outbox carried in a run (counted at `store.outbox.enqueue` and at the fake chat senders). */
export interface OutboxCounts {
  /** Rows enqueued, by op (fresh rows only: a dedupe key seen before adds nothing). */
  rows: Record<string, number>;
  /** Card changes the watchers made (`updateVideoCard`, one name per change), and the update rows they queued. */
  changes: number;
  changeRows: number;
  /** Milestones said (ready, failed, …) and the reply rows they queued. */
  milestones: number;
  milestoneRows: number;
  /** Platform calls the fake senders received (posts, edits), by platform. */
  delivered: Record<string, number>;
  /** Outbox items claimed for sending more than once (by two replicas, or again after a lease ran out): must be 0. */
  doubleDeliveries: number;
  /** Rows still pending when the run stopped. */
  pending: number;
}

export interface WorkerResult {
  mode: string;
  store: 'sqlite' | 'postgres';
  replicas: number;
  /** Checks that committed a result (done or active), all replicas together. */
  checksCommitted: number;
  profile: SimulatorProfile;
  batchSize?: number;
  projections: number;
  jobs: number;
  finished: number;
  completed: number;
  virtualMs: number;
  realMs: number;
  calls: number;
  /** Mean API calls made for each finished job (its own status/read calls). */
  callsPerFinishedJob: number;
  callsByRoute: Record<string, number>;
  statuses: Record<string, number>;
  delaysMs: { p50: number; p95: number; p99: number; max: number; n: number };
  /** Detection delay by model (p50/p95/max, ms). */
  delaysByModel: Record<string, { p50: number; p95: number; max: number; n: number }>;
  /**
   * Gaps between two looks at a job (a look: the calls made about it at one virtual instant) where the
   * earlier look saw it running (before its nominal finish): what DESIGN §4's "every 30 s at most" bounds.
   */
  lookGapsMs: {
    p50: number;
    p95: number;
    max: number;
    n: number;
    /** Gaps longer than 30 s. */
    over30s: number;
    /** The job with the largest gap, and the looks around it (ms after its creation). */
    worst?: { model: string; looksMs: number[]; finishMs: number };
  };
  /** Most calls one key made in any 60 s (its background lane allows 150). */
  peakKeyCallsPer60s: number;
  /** Looks per finished job at a running job, and after (thumbnails). */
  looksPerJob: { running: number; after: number };
  cpuMs: number;
  cpuMsCreation: number;
  rss: { peakMb: number; lastMb: number };
  simCpuMs: number;
  /** Wall time of each poller pass (smart) or round (naive), to check the virtual model holds in real time. */
  passWallMs: { p50: number; p99: number; max: number };
  outcomes: Record<string, number>;
  outbox: OutboxCounts;
}

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

const keyOf = (i: number) => `fl_live_bench${String(i).padStart(20, '0')}`;
const userOf = (i: number) => `slack:T${i}:U1`;
const conversationOf = (i: number) => `slack:T${i}:C1`;
/** Where else a video of key `i` is live (issue 16): a Discord channel of the team, and the playground. */
const alsoShownIn = (i: number, projections: number) =>
  [`discord:G${i}:${900_000_000 + i}`, 'playground:demo:general'].slice(0, projections - 1);

async function main(o: WorkerOptions): Promise<WorkerResult> {
  const perKey = Math.ceil(o.jobs / o.keys);
  const teams: SeedTeam[] = Array.from({ length: o.keys }, (_, i) => ({
    name: `Bench team ${i}`,
    credits: 1_000_000,
    projectCap: perKey + 10,
    keys: [{ key: keyOf(i) }],
  }));
  const sim = await startSimulatorProcess({
    start: T0,
    teams,
    randomSeed: o.seed,
    knobs: { rateLimits: true },
    ...(o.profile ? { profile: o.profile } : {}),
  });
  const clock = new VirtualClock(T0);
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-bench-'));
  const secretKey = randomBytes(32);
  const replicaCount = o.postgres ? Math.max(1, o.postgres.replicas) : 1;
  const stores: Store[] = [];
  if (o.postgres) {
    const { openPostgresStore } = await import('../../src/store/postgres/postgres-store.js');
    for (let r = 0; r < replicaCount; r++)
      stores.push(await openPostgresStore({ url: o.postgres.url, secretKey, clock, poolSize: 8 }));
  } else {
    stores.push(openStore({ path: join(dir, 'reelbot.sqlite'), secretKey, clock }));
  }
  const store = stores[0] as Store;
  for (let i = 0; i < o.keys; i++) {
    await store.keys.put(userOf(i), {
      apiKey: keyOf(i),
      keyPrefix: keyOf(i).slice(0, 12),
      teamId: `t${i}`,
      teamName: `T${i}`,
    });
  }
  const meter = new HttpMeter(64);
  // One client factory (its rate budgets) per replica, as each process has its own.
  // On PostgreSQL each replica's budgets take its share of every limit from the replica registry, as
  // src/main.ts wires it (issue 17).
  const registries: ReplicaRegistry[] = [];
  const factories: ReturnType<typeof createVideoApiFactory>[] = [];
  for (let r = 0; r < stores.length; r++) {
    const budgets = new RateBudgetRegistry({ clock, share: () => registries[r]?.share() ?? 1 });
    if (o.postgres) {
      const registry = await openReplicaRegistry({
        databaseUrl: o.postgres.url,
        id: `replica-${r + 1}`,
        clock,
        logger: silent,
        peakUse: () => budgets.peakUse(),
      });
      registry.onChange(() => budgets.shareChanged());
      registries.push(registry);
    }
    factories.push(
      createVideoApiFactory({
        baseUrl: sim.url,
        clock,
        timeoutClock: systemClock,
        dispatcher: meter.dispatcher,
        onResponse: meter.onResponse,
        random: seededRandom(o.seed + 10 * r),
        budgets,
      }),
    );
  }
  await Promise.all(registries.map((registry) => registry.start()));
  const keyFor = async (owner: string) => (await store.keys.get(owner))?.apiKey;
  // Calls per video (status and reads), so "calls per finished job" counts the finished jobs' own calls.
  const callsFor = new Map<string, number>();
  // The virtual instants at which each video was looked at (one entry per instant, however many calls).
  const looksFor = new Map<string, number[]>();
  // The virtual time of every call, by key: the busiest 60 s of a key (its background lane has 150).
  const callTimes = new Map<string, number[]>();
  const clientsFor = (apiFor: (typeof factories)[number]) => {
    const counted = new Map<string, VideoApi>();
    return async (owner: string): Promise<VideoApi | undefined> => {
      const key = await keyFor(owner);
      if (!key) return undefined;
      let api = counted.get(key);
      if (!api) {
        const real = apiFor(key);
        const times = callTimes.get(key) ?? [];
        callTimes.set(key, times);
        const count = (id: string) => {
          callsFor.set(id, (callsFor.get(id) ?? 0) + 1);
          times.push(clock.now());
          const looks = looksFor.get(id) ?? [];
          const now = clock.now();
          if (looks[looks.length - 1] !== now) looks.push(now);
          looksFor.set(id, looks);
        };
        const videos = new Proxy(real.videos, {
          get(target, method: string) {
            const fn = (target as unknown as Record<string, unknown>)[method];
            if (typeof fn !== 'function') return fn;
            return (...args: unknown[]) => {
              if (typeof args[0] === 'string') count(args[0]);
              return (fn as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        api = new Proxy(real, {
          get: (target, group: string) => (group === 'videos' ? videos : Reflect.get(target, group)),
        });
        counted.set(key, api);
      }
      return api;
    };
  };
  const clientFor = clientsFor(factories[0] as (typeof factories)[number]);

  // When each video's final state reached the outbox (virtual time; every projection's row is queued in the
  // same transaction). Card edits are named `<projection key>|<change>` (projections.ts), milestones
  // `<milestone>@<projection key>`; showing a card (`shown:…`) is seeding, not a change.
  const enqueued = new Map<string, number>();
  const rows: Record<string, number> = {};
  const changes = new Set<string>();
  const milestones = new Set<string>();
  let changeRows = 0;
  let milestoneRows = 0;
  const claimCount = new Map<number, number>();
  for (const replicaStore of stores) {
    const enqueue = replicaStore.outbox.enqueue.bind(replicaStore.outbox);
    replicaStore.outbox.enqueue = async (platform, item, dedupeKey) => {
      const fresh = await enqueue(platform, item, dedupeKey);
      if (!fresh) return fresh;
      rows[item.op] = (rows[item.op] ?? 0) + 1;
      if (item.op === 'update-card') {
        const bar = dedupeKey.indexOf('|');
        const change = dedupeKey.slice(bar + 1);
        const videoId = videoOfCardKey(item.cardKey);
        if (bar >= 0 && videoId && !change.startsWith('shown:')) {
          changeRows++;
          changes.add(`${videoId}|${change}`);
          if ((change.endsWith(':completed') || change.endsWith(':failed')) && !enqueued.has(videoId))
            enqueued.set(videoId, clock.now());
        }
      } else if (item.op === 'reply') {
        const at = dedupeKey.lastIndexOf('@video:');
        milestoneRows++;
        milestones.add(at >= 0 ? dedupeKey.slice(0, at) : dedupeKey);
      }
      return fresh;
    };
    // A sender claims an item right before the platform call: an item claimed twice was sent twice.
    const claim = replicaStore.outbox.claim.bind(replicaStore.outbox);
    replicaStore.outbox.claim = async (id, now, leaseMs) => {
      const won = await claim(id, now, leaseMs);
      if (won) claimCount.set(id, (claimCount.get(id) ?? 0) + 1);
      return won;
    };
  }

  // In-process fake platforms: each call answers at once, so the outbox's own cost is what is measured.
  const delivered: Record<string, number> = {};
  const fakeChat = (platform: ChatPlatform): ChatSender => {
    let posted = 0;
    return {
      platform,
      post: (conversation) => {
        delivered[platform] = (delivered[platform] ?? 0) + 1;
        return Promise.resolve(`${conversation}:${++posted}.000`);
      },
      update: () => {
        delivered[platform] = (delivered[platform] ?? 0) + 1;
        return Promise.resolve();
      },
    };
  };
  const chats = {
    slack: fakeChat('slack'),
    discord: fakeChat('discord'),
    playground: fakeChat('playground'),
  };
  const senders = stores.map(
    (replicaStore) => new OutboxSender({ store: replicaStore, senders: chats, clock, logger: silent }),
  );
  const drainAll = () => Promise.all(senders.map((s) => s.drain()));
  const projections = Math.max(1, Math.min(3, o.projections ?? 1));
  const outcomes: Record<string, number> = {};
  const pollers =
    o.mode === 'smart'
      ? stores.map((replicaStore, r) => {
          const apiFor = factories[r] as (typeof factories)[number];
          return new Poller({
            store: replicaStore,
            watchers: WATCHERS,
            apiFor: r === 0 ? clientFor : clientsFor(apiFor),
            budgetDelay: async (owner, _kind, urgency) => {
              const key = await keyFor(owner);
              return key
                ? apiFor.budgets.forKey(key).delayFor('GET /videos/:id/status', 'background', urgency)
                : 0;
            },
            clock,
            logger: silent,
            concurrency: 64, // as src/main.ts
            holder: `replica-${r + 1}`,
            ...(o.batchSize ? { batchSize: o.batchSize } : {}),
            ...(o.jitterRatio !== undefined ? { jitterRatio: o.jitterRatio } : {}),
            random: seededRandom(o.seed + 1 + 10 * r),
            metrics: {
              checked: (_kind, outcome) => {
                outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
              },
              lag: () => {},
            },
          });
        })
      : [];
  const naive =
    o.mode === 'naive'
      ? new NaivePoller({
          store,
          watchers: WATCHERS,
          apiFor: clientFor,
          clock,
          logger: silent,
        })
      : undefined;

  // ---- job creation (its CPU is measured and subtracted: it is the benchmark's, not the poller's) ----
  const random = seededRandom(o.seed + 2);
  const jobs: { videoId: string; key: number; createdAt: number; model: Model }[] = [];
  let creationCpu = 0;
  async function createBatch(second: number): Promise<void> {
    const cpu = process.cpuUsage();
    const from = Math.floor((second * o.jobs) / o.createSeconds);
    const to = Math.floor(((second + 1) * o.jobs) / o.createSeconds);
    if (to <= from) return;
    await sim.setKnobs({ rateLimits: false });
    const batch = Array.from({ length: to - from }, (_, n) => from + n);
    const created = await mapLimit(batch, 32, async (i) => {
      const key = i % o.keys;
      const model = MODEL_MIX[Math.floor(random() * MODEL_MIX.length)] as Model;
      const videoId = await createVideo(sim.url, keyOf(key), { model, name: `Bench ${i}` });
      return { videoId, key, model, name: `Bench ${i}` };
    });
    await sim.setKnobs({ rateLimits: true });
    const now = clock.now();
    await store.transaction(async () => {
      for (const c of created) {
        const conversation = conversationOf(c.key);
        await watchGeneration(store, {
          ...c,
          owner: userOf(c.key),
          conversation,
          now,
          alsoShownIn: alsoShownIn(c.key, projections),
        });
        jobs.push({ videoId: c.videoId, key: c.key, createdAt: now, model: c.model });
      }
    });
    creationCpu += cpuSince(cpu);
  }

  // ---- the virtual-time driver ----
  const STEP = 250;
  const realStart = performance.now();
  const cpuStart = process.cpuUsage();
  const simCpuStart = (await sim.usage()).cpuMs;
  const rss = rssSampler();
  const passWall: number[] = [];
  let active = 0;
  let t = T0;
  for (;;) {
    const elapsed = t - T0;
    const onSecond = elapsed % 1000 === 0;
    const timerDue = (clock.nextTimerAt() ?? Number.POSITIVE_INFINITY) <= t;
    if (onSecond || timerDue) {
      await sim.setTime(t);
      clock.advanceTo(t);
      const wall = performance.now();
      let kicked = false;
      let ticking = 0;
      let passes: Promise<unknown> = Promise.resolve();
      if (onSecond) {
        if (elapsed / 1000 < o.createSeconds) await createBatch(elapsed / 1000);
        if (pollers.length > 0) {
          ticking = pollers.length;
          passes = Promise.all(
            pollers.map((poller) =>
              poller.tick().finally(() => {
                ticking--;
              }),
            ),
          );
          kicked = true;
        }
        if (naive && elapsed % naive.intervalMs === 0) {
          void naive.round();
          kicked = true;
        }
        void drainAll();
      }
      // A pass may go on with further batches: settle again while it does and its calls make progress
      // (a pass with no progress is waiting on a virtual timer, which only moving the clock releases). On
      // PostgreSQL a pass also waits on the database between calls: give it a moment of real time as well.
      for (;;) {
        const before = meter.ended;
        await settle(meter);
        if (ticking > 0 && o.postgres) await Promise.race([passes, new Promise((r) => setTimeout(r, 100))]);
        if (ticking === 0 || meter.ended === before) break;
      }
      await drainAll();
      if (kicked) passWall.push(performance.now() - wall);
    }
    if (elapsed % 10_000 === 0 && elapsed / 1000 >= o.createSeconds) {
      active = (await store.watches.active()).length;
      if (active === 0) break;
    }
    if (elapsed >= o.maxVirtualMs || performance.now() - realStart > o.maxRealMs) break;
    t += STEP;
  }
  const realMs = performance.now() - realStart;
  const cpuMs = cpuSince(cpuStart) - creationCpu;
  const memory = rss.stop();
  const simCpuMs = (await sim.usage()).cpuMs - simCpuStart;

  // ---- results ----
  const delays: number[] = [];
  const delaysByModel = new Map<string, number[]>();
  const finishedCalls: number[] = [];
  const gaps: number[] = [];
  let worst: WorkerResult['lookGapsMs']['worst'];
  let worstGap = -1;
  let runningLooks = 0;
  let afterLooks = 0;
  let completed = 0;
  const stillActive = new Set((await store.watches.active()).map((w) => w.target));
  for (const job of jobs) {
    const finishAt = job.createdAt + MODEL_MS[job.model];
    if (!stillActive.has(job.videoId)) {
      finishedCalls.push(callsFor.get(job.videoId) ?? 0);
      const looks = looksFor.get(job.videoId) ?? [];
      for (const [i, at] of looks.entries()) {
        if (at < finishAt) runningLooks++;
        else afterLooks++;
        const previous = looks[i - 1];
        if (previous === undefined || previous >= finishAt) continue;
        const gap = at - previous;
        gaps.push(gap);
        if (gap > worstGap) {
          worstGap = gap;
          worst = {
            model: job.model,
            looksMs: looks.map((l) => l - job.createdAt),
            finishMs: MODEL_MS[job.model],
          };
        }
      }
    }
    const at = enqueued.get(job.videoId);
    if (at === undefined) continue;
    completed++;
    delays.push(at - finishAt);
    const byModel = delaysByModel.get(job.model) ?? [];
    byModel.push(at - finishAt);
    delaysByModel.set(job.model, byModel);
  }
  const finished = jobs.length - (await store.watches.active()).length;
  const result: WorkerResult = {
    mode: o.mode,
    store: o.postgres ? 'postgres' : 'sqlite',
    replicas: replicaCount,
    checksCommitted: (outcomes.active ?? 0) + (outcomes.done ?? 0),
    profile: o.profile ?? 'spec',
    ...(o.batchSize ? { batchSize: o.batchSize } : {}),
    projections,
    jobs: jobs.length,
    finished,
    completed,
    virtualMs: t - T0,
    realMs: Math.round(realMs),
    calls: meter.ended,
    callsPerFinishedJob: finishedCalls.length
      ? finishedCalls.reduce((a, b) => a + b, 0) / finishedCalls.length
      : Number.NaN,
    callsByRoute: Object.fromEntries(meter.routes),
    statuses: Object.fromEntries([...meter.statuses].map(([k, v]) => [String(k), v])),
    delaysMs: {
      p50: percentile(delays, 50),
      p95: percentile(delays, 95),
      p99: percentile(delays, 99),
      max: percentile(delays, 100),
      n: delays.length,
    },
    delaysByModel: Object.fromEntries(
      [...delaysByModel].map(([model, d]) => [
        model,
        { p50: percentile(d, 50), p95: percentile(d, 95), max: percentile(d, 100), n: d.length },
      ]),
    ),
    lookGapsMs: {
      p50: percentile(gaps, 50),
      p95: percentile(gaps, 95),
      max: percentile(gaps, 100),
      n: gaps.length,
      over30s: gaps.filter((g) => g > 30_000).length,
      ...(worst ? { worst } : {}),
    },
    peakKeyCallsPer60s: Math.max(0, ...[...callTimes.values()].map(busiest60s)),
    looksPerJob: {
      running: finishedCalls.length ? runningLooks / finishedCalls.length : Number.NaN,
      after: finishedCalls.length ? afterLooks / finishedCalls.length : Number.NaN,
    },
    cpuMs: Math.round(cpuMs),
    cpuMsCreation: Math.round(creationCpu),
    rss: memory,
    simCpuMs: Math.round(simCpuMs),
    passWallMs: {
      p50: Math.round(percentile(passWall, 50)),
      p99: Math.round(percentile(passWall, 99)),
      max: Math.round(percentile(passWall, 100)),
    },
    outcomes: naive ? { error: naive.errors } : outcomes,
    outbox: {
      rows,
      changes: changes.size,
      changeRows,
      milestones: milestones.size,
      milestoneRows,
      delivered,
      doubleDeliveries: [...claimCount.values()].filter((n) => n > 1).length,
      pending: await store.outbox.depth(),
    },
  };
  for (const registry of registries) await registry.stop();
  for (const replicaStore of stores) await replicaStore.close();
  await meter.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

/** Most entries of the sorted `times` within any 60 s. */
function busiest60s(times: number[]): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= 60_000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
main(options).then(
  (result) => {
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(
      `poller-scale worker failed: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
