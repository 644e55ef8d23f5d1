/**
 * Benchmark 3, the rate budget: one API key, a steady 60 concurrent generation jobs watched by the real
 * poller (more than a fixed 10 s poller could watch inside the key's 300 requests / 60 s), while a user runs
 * interactive commands on the same key. Counts every 429 the bot's client receives (`onResponse`) and
 * compares the user's command latency while the poller runs with the same world while it is paused, in
 * alternating slices (so the machine's neighbours weigh on both alike). A second phase puts the naive
 * fixed-10 s poller on the same load, to show what the budget protects from.
 *
 * Real time sped up `scale`× (a shared ScaledClock: simulator, client budgets, poller, store), so a 60 s
 * rate window passes in 60/scale real seconds; latency is measured in real milliseconds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createVideoApiFactory, type ResponseEvent } from '../src/api/index.js';
import { MODULES } from '../src/core/commands/index.js';
import { createBot } from '../src/core/dispatch/bot.js';
import type { CoreDeps, RequestInfo } from '../src/core/dispatch/context.js';
import { WATCHERS } from '../src/core/live/watchers.js';
import type { ChatSender, Logger } from '../src/core/ports/index.js';
import type { Response } from '../src/core/text/cards.js';
import { systemClock } from '../src/core/time/system-clock.js';
import { CatalogCache } from '../src/core/video-api/catalog-cache.js';
import { Runner } from '../src/poller/index.js';
import { backgroundTurns } from '../src/poller/loop-turns.js';
import { generateApiKey } from '../src/simulator/index.js';
import { openStore, type SqliteStore } from '../src/store/sqlite-store.js';
import { MODEL_MIX, type Model, watchGeneration } from './lib/jobs.js';
import { type BenchResult, metric } from './lib/result.js';
import { startSimulatorProcess } from './lib/sim-child.js';
import { mean, median, percentile, seededRandom } from './lib/stats.js';
import { ScaledClock } from './lib/virtual-clock.js';
import { NaivePoller } from './naive-poller.js';

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const JOBS = 60;
const USER = 'slack:T1:U1';
const CONVERSATION = 'slack:T1:C1';

interface Latencies {
  commands: number;
  latencyMs: { p50: number; p95: number; p99: number; mean: number };
  /** Waits the client's budget imposed on the user's calls (clock ms, as the client predicted them). */
  budgetWaits: { count: number; p99: number; max: number };
}

/** What a measured slice of the smart phase runs: the poller, the poller without turns, or nothing. */
type Slice = 'running' | 'unturned' | 'paused';

interface PhaseResult extends Latencies {
  phase: string;
  /** Smart phase: the same measurements in the slices with the poller paused (the baseline). */
  paused?: Latencies;
  /**
   * Smart phase: the slices with the poller running as before issue 33, its steps not taking turns on the
   * event loop (`backgroundTurns` bypassed): the A/B of src/poller/loop-turns.ts in the same run.
   */
  unturned?: Latencies;
  /**
   * Smart phase: each round of slices (running, unturned, paused, next to each other in time) gives a p99 ratio
   * of running (and unturned) to paused; the median over the rounds, as the ack-latency bench takes its rounds.
   */
  roundRatios?: { running: number[]; unturned: number[] };
  /** The bench process's event-loop delay (ms) in the measured slices: is the bot's own process the cause? */
  loopDelayMs?: Record<Slice, { p99: number }>;
  errors: number;
  calls: number;
  callsByLane: { interactive: number; background: number };
  /** Most background calls in any 60 s (clock) window of the whole phase: the budget's own rule. */
  backgroundPeakPerMinute: number;
  status429: number;
  deferred: number;
  jobsCompleted: number;
}

export async function rateBudget(o: {
  quick: boolean;
  /** Clock acceleration (default 6). Background work per real second grows with it, and so does its CPU
   * contention with the user's commands in the one process: a smaller scale is closer to production. */
  scale?: number;
  log(line: string): void;
}): Promise<BenchResult> {
  const started = Date.now();
  const scale = o.scale ?? 6;
  const warmupMs = o.quick ? 20_000 : 60_000; // clock time: jobs reach a steady state
  const windowMs = o.quick ? 40_000 : 360_000; // clock time measured with the poller running (and paused)
  const phases: PhaseResult[] = [];
  for (const phase of ['smart poller, 60 jobs', 'naive poller, 60 jobs'] as const) {
    o.log(`rate-budget: ${phase}…`);
    phases.push(await runPhase(phase, { scale, warmupMs, windowMs }));
  }
  const [smart, naive] = phases as [PhaseResult, PhaseResult];
  const base = smart.paused as Latencies;
  const unturned = smart.unturned as Latencies;
  const ratios = smart.roundRatios ?? { running: [], unturned: [] };
  const roundRatio = median(ratios.running);
  const pass = smart.status429 === 0 && roundRatio <= 1.2;
  return {
    name: 'rate-budget',
    title: 'Rate budget: 60 jobs on one key + interactive commands',
    measured: true,
    baseline:
      'the same world and interactive load with the poller paused, in alternating slices of the same run',
    metrics: [
      metric('429 responses received (smart)', smart.status429, 'responses', {
        target: '0',
        pass: smart.status429 === 0,
      }),
      metric('interactive p50 (smart)', smart.latencyMs.p50, 'ms', { baseline: base.latencyMs.p50 }),
      metric('interactive p99 (smart, pooled)', smart.latencyMs.p99, 'ms', { baseline: base.latencyMs.p99 }),
      metric('interactive p99 ratio to paused, median of rounds (smart)', roundRatio, '×', {
        target: '≤ 1.2 (unaffected)',
        pass,
      }),
      metric(
        'interactive p99 ratio to paused, median of rounds (steps not taking turns)',
        median(ratios.unturned),
        '×',
      ),
      metric('interactive p99 (smart, steps not taking turns: before)', unturned.latencyMs.p99, 'ms', {
        baseline: base.latencyMs.p99,
      }),
      metric('user calls that waited for budget (smart)', smart.budgetWaits.count, 'calls', {
        baseline: base.budgetWaits.count,
        target: '0',
        pass: smart.budgetWaits.count === 0,
      }),
      metric('background calls in any 60 s (smart)', smart.backgroundPeakPerMinute, 'calls', {
        target: '≤ 150 (half the key)',
        pass: smart.backgroundPeakPerMinute <= 150,
      }),
      metric('checks deferred for budget (smart)', smart.deferred, 'checks'),
      metric('429 responses received (naive)', naive.status429, 'responses'),
      metric('interactive p99 (naive)', naive.latencyMs.p99, 'ms', { baseline: base.latencyMs.p99 }),
      metric('user calls that waited for budget (naive)', naive.budgetWaits.count, 'calls', {
        baseline: base.budgetWaits.count,
      }),
      metric('longest budget wait of a user call (naive)', naive.budgetWaits.max, 'ms', {
        baseline: base.budgetWaits.max,
      }),
      metric('interactive errors (naive)', naive.errors, 'commands', { baseline: smart.errors }),
    ],
    notes: [
      `Real time sped up ${scale}× for the simulator, the client's rate budgets, the poller and the store; ${JOBS} generation jobs kept running on the key (a finished one is replaced; the replacements are created with other keys of the same team, so only the bot's calls count against its key); ${warmupMs / 1000} s warm-up, then (smart) ${SLICE_MS / 1000} s slices alternating poller running / running without turns / paused, each measured after ${SETTLE_MS / 1000} s, ${windowMs / 1000} s measured of each (clock time); the naive phase is measured for ${windowMs / 1000} s in one go.`,
      "Interactive load: one command every clock second from one user (credits, videos, show, status, thumbnails), latency measured in real ms. The budget rows count the user's calls the client held back for the key's budget (its own prediction, in clock ms): the part of any slowdown the rate budget is responsible for; the rest of a latency ratio is CPU shared with the poller in one process.",
      `Calls on the key in the measured slices with the poller running — ${smart.calls} (interactive ${smart.callsByLane.interactive}, background ${smart.callsByLane.background}); naive ${naive.calls}; jobs completed: smart ${smart.jobsCompleted}, naive ${naive.jobsCompleted}. Paused slices: ${base.commands} commands, p50 ${base.latencyMs.p50} ms, p99 ${base.latencyMs.p99} ms. Slices with the poller running as before issue 33 (its steps not taking turns on the event loop): ${unturned.commands} commands, p50 ${unturned.latencyMs.p50} ms, p99 ${unturned.latencyMs.p99} ms. Event-loop delay p99 of this (the bot's) process: ${smart.loopDelayMs?.running.p99} ms with the poller running, ${smart.loopDelayMs?.unturned.p99} ms running without turns, ${smart.loopDelayMs?.paused.p99} ms paused.`,
      `Rounds: each round is a running, an unturned and a paused slice next to each other in time; its p99 ratios (running ÷ paused, unturned ÷ paused) are ${ratios.running.join(', ')} and ${ratios.unturned.join(', ')}. The target is judged on their median, as the ack-latency bench judges its rounds: one slow slice (the machine's neighbours) moves the pooled p99, not the median.`,
      'The naive phase shows what the budget protects from: a fixed 10 s poller makes its calls as an ordinary caller, so the user waits behind it.',
    ],
    durationMs: Date.now() - started,
    details: { phases },
  };
}

/** Smart phase: slices alternate poller running / paused; each is measured after the first SETTLE_MS. */
const SLICE_MS = 40_000;
const SETTLE_MS = 10_000;

async function runPhase(
  phase: 'smart poller, 60 jobs' | 'naive poller, 60 jobs',
  o: { scale: number; warmupMs: number; windowMs: number },
): Promise<PhaseResult> {
  const botKey = generateApiKey();
  const factoryKeys = Array.from({ length: 8 }, () => generateApiKey());
  const realStart = Date.now();
  const clock = new ScaledClock(T0, realStart, o.scale);
  const sim = await startSimulatorProcess({
    start: T0,
    randomSeed: 3,
    scaled: { realStart, scale: o.scale },
    teams: [
      {
        name: 'Busy team',
        credits: 10_000_000,
        projectCap: 100_000,
        keys: [botKey, ...factoryKeys].map((key) => ({ key })),
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-bench-budget-'));
  const store: SqliteStore = openStore({
    path: join(dir, 'reelbot.sqlite'),
    secretKey: randomBytes(32),
    clock,
  });
  await store.keys.put(USER, {
    apiKey: botKey,
    keyPrefix: botKey.slice(0, 12),
    teamId: 't',
    teamName: 'Busy team',
  });

  // Commands and poller use one budget registry (as in src/main.ts); two factories only to tell their calls apart.
  let measuring = false;
  const counts = { interactive: 0, poller: 0, status429: 0, completed: 0, deferred: 0 };
  const backgroundAt: number[] = [];
  const count = (lane: 'interactive' | 'poller') => (e: ResponseEvent) => {
    // Any 429 in the phase counts; calls are counted in the measured slices with the poller running.
    if (e.status === 429) counts.status429++;
    if (lane === 'poller') backgroundAt.push(clock.now());
    if (!measuring || currentSlice !== 'running') return;
    counts[lane]++;
  };
  // The client logs each wait for budget (debug) before it waits: collect the user's.
  let currentSlice: Slice = 'running';
  const waitsBySlice: Record<Slice, number[]> = { running: [], unturned: [], paused: [] };
  const waitLogger: Logger = {
    debug(obj, msg) {
      const w = obj as { lane?: string; waitMs?: number };
      if (measuring && msg === 'video api waiting for rate budget' && w.lane === 'interactive') {
        waitsBySlice[currentSlice].push(w.waitMs ?? 0);
      }
    },
    info() {},
    warn() {},
    error() {},
    child: () => waitLogger,
  };
  const apiFor = createVideoApiFactory({
    baseUrl: sim.url,
    clock,
    timeoutClock: systemClock,
    logger: waitLogger,
    onResponse: count('interactive'),
  });
  const pollerApiFor = createVideoApiFactory({
    baseUrl: sim.url,
    clock,
    timeoutClock: systemClock,
    budgets: apiFor.budgets,
    onResponse: count('poller'),
  });
  const enqueue = store.outbox.enqueue.bind(store.outbox);
  store.outbox.enqueue = async (platform, item, dedupeKey) => {
    const fresh = await enqueue(platform, item, dedupeKey);
    if (fresh && measuring && dedupeKey.endsWith(':completed')) counts.completed++;
    return fresh;
  };
  const deps: CoreDeps = { store, apiFor, clock, logger: silent, catalog: new CatalogCache(clock) };
  const bot = createBot(deps, MODULES);
  const req: RequestInfo = { platform: 'slack', user: USER, userName: 'alice', conversation: CONVERSATION };
  const chat: ChatSender = {
    platform: 'slack',
    post: async (c) => `${c}:${Date.now()}.0`,
    update: async () => {},
  };

  // Videos the user looks at; made with other keys so they cost the bot's key nothing.
  const refs: string[] = [];
  for (let i = 0; i < 5; i++) {
    const key = factoryKeys[i % factoryKeys.length] as string;
    refs.push(await sim.createVideo(key, { model: 'storyboard', name: `Reference ${i}` }));
  }

  const pollerApi = (owner: string) => (owner === USER ? pollerApiFor(botKey) : undefined);
  const runner =
    phase === 'smart poller, 60 jobs'
      ? new Runner({
          poller: {
            store,
            watchers: WATCHERS,
            apiFor: pollerApi,
            budgetDelay: () => apiFor.budgets.forKey(botKey).delayFor('GET /videos/:id/status', 'background'),
            clock,
            logger: silent,
            concurrency: 64, // as src/main.ts
            intervalMs: Math.round(1000 / o.scale),
            metrics: {
              checked: (_kind, outcome) => {
                if (measuring && outcome === 'deferred') counts.deferred++;
              },
              lag: () => {},
            },
          },
          sender: {
            store,
            senders: { slack: chat },
            clock,
            logger: silent,
            intervalMs: Math.round(500 / o.scale),
          },
        })
      : undefined;
  const naive =
    phase === 'naive poller, 60 jobs'
      ? new NaivePoller({ store, watchers: WATCHERS, apiFor: pollerApi, clock, logger: silent })
      : undefined;

  // Keeps JOBS generation jobs running on the bot's key; replacements are made with the factory keys.
  const random = seededRandom(5);
  let made = 0;
  let factoryRunning = true;
  const factory = (async () => {
    while (factoryRunning) {
      const active = (await store.watches.active()).filter((w) => w.kind === 'generation').length;
      for (let i = active; i < JOBS && factoryRunning; i++) {
        const model = MODEL_MIX[Math.floor(random() * MODEL_MIX.length)] as Model;
        const name = `Job ${++made}`;
        try {
          const key = factoryKeys[made % factoryKeys.length] as string;
          const videoId = await sim.createVideo(key, { model, name });
          await store.transaction(
            async () =>
              await watchGeneration(store, {
                videoId,
                name,
                model,
                owner: USER,
                conversation: CONVERSATION,
                now: clock.now(),
              }),
          );
        } catch {
          break; // a factory key at its own POST /videos limit: top up next round
        }
      }
      await sleep(2000 / o.scale);
    }
  })();
  runner?.start();
  const naiveTimer = naive ? setInterval(() => void naive.round(), naive.intervalMs / o.scale) : undefined;
  await sleep(o.warmupMs / o.scale);

  // One command per clock second, not waiting for the previous one; `into` says where its latency goes.
  const commands = ['credits', 'videos', 'show', 'status', 'thumbnails'];
  const latencies: Record<Slice, number[]> = { running: [], unturned: [], paused: [] };
  /** The same latencies by round of slices (smart phase). */
  const rounds: Record<Slice, number[]>[] = [];
  const waitsIn = waitsBySlice;
  let errors = 0;
  let sent = 0;
  const running: Promise<void>[] = [];
  const loop = {
    running: monitorEventLoopDelay({ resolution: 5 }),
    unturned: monitorEventLoopDelay({ resolution: 5 }),
    paused: monitorEventLoopDelay({ resolution: 5 }),
  };
  const measure = async (into: Slice, clockMs: number, inRound?: Record<Slice, number[]>) => {
    currentSlice = into;
    measuring = true;
    loop[into].enable();
    for (let i = 0; i < Math.round(clockMs / 1000); i++, sent++) {
      const name = commands[sent % commands.length] as string;
      const text = name === 'credits' || name === 'videos' ? name : `${name} ${refs[sent % refs.length]}`;
      running.push(
        (async () => {
          const t0 = performance.now();
          const response: Response = await bot.handleText(req, text);
          const ms = performance.now() - t0;
          latencies[into].push(ms);
          inRound?.[into].push(ms);
          if (response.kind === 'message' && response.card.title === 'Not done') errors++;
        })(),
      );
      await sleep(1000 / o.scale);
    }
    loop[into].disable();
    measuring = false;
  };
  if (runner) {
    // Slices: poller running, running without turns, then paused (the sender keeps delivering), … — each
    // measured after settling. Without turns, every background step goes on at once, as before issue 33.
    const take = backgroundTurns.turn.bind(backgroundTurns);
    for (let measured = 0; measured < o.windowMs; measured += SLICE_MS - SETTLE_MS) {
      const thisRound: Record<Slice, number[]> = { running: [], unturned: [], paused: [] };
      rounds.push(thisRound);
      for (const state of ['running', 'unturned', 'paused'] as const) {
        backgroundTurns.turn = state === 'unturned' ? () => Promise.resolve() : take;
        if (state === 'paused') await runner.poller.stop();
        else runner.poller.start();
        await sleep(SETTLE_MS / o.scale);
        await measure(state, SLICE_MS - SETTLE_MS, thisRound);
      }
    }
    backgroundTurns.turn = take;
  } else {
    await measure('running', o.windowMs);
  }
  await Promise.all(running);
  measuring = false;
  const waits = waitsIn.running;

  factoryRunning = false;
  await factory;
  if (naiveTimer) clearInterval(naiveTimer);
  await runner?.stop();
  await store.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    phase,
    ...latencyStats(latencies.running, waits),
    ...(runner
      ? {
          paused: latencyStats(latencies.paused, waitsIn.paused),
          unturned: latencyStats(latencies.unturned, waitsIn.unturned),
          roundRatios: {
            running: rounds.map((r) => ratioOfP99(r.running, r.paused)),
            unturned: rounds.map((r) => ratioOfP99(r.unturned, r.paused)),
          },
          loopDelayMs: {
            running: { p99: round(loop.running.percentile(99) / 1e6) },
            unturned: { p99: round(loop.unturned.percentile(99) / 1e6) },
            paused: { p99: round(loop.paused.percentile(99) / 1e6) },
          },
        }
      : {}),
    errors,
    calls: counts.interactive + counts.poller,
    callsByLane: { interactive: counts.interactive, background: counts.poller },
    backgroundPeakPerMinute: peakInWindow(backgroundAt, 60_000),
    status429: counts.status429,
    deferred: counts.deferred,
    jobsCompleted: counts.completed,
  };
}

const round = (v: number) => Math.round(v * 10) / 10;
const ratioOfP99 = (a: number[], b: number[]) =>
  Math.round((percentile(a, 99) / percentile(b, 99)) * 1000) / 1000;

/** Most of the (sorted) instants in any window of `windowMs`. */
function peakInWindow(at: number[], windowMs: number): number {
  let peak = 0;
  for (let first = 0, last = 0; last < at.length; last++) {
    while ((at[last] as number) - (at[first] as number) >= windowMs) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

function latencyStats(latencies: number[], waits: number[]): Latencies {
  return {
    commands: latencies.length,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      mean: round(mean(latencies)),
    },
    budgetWaits: {
      count: waits.length,
      p99: round(percentile(waits, 99) || 0),
      max: round(waits.length ? Math.max(...waits) : 0),
    },
  };
}
