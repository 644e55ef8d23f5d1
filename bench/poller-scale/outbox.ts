/**
 * Outbox throughput with one living card per video (issue 16), in a process of its own, after the poller
 * workers: VIDEOS videos seeded as the bench's jobs are (`watchGeneration`: the card state, `showVideo` in each
 * conversation, one watch), in two stores — each video live in 1 conversation (Slack), and in 3 (Slack,
 * Discord, the playground). The real `OutboxSender` delivers to in-process fake platforms that answer at once,
 * so what is timed is the outbox's own work (ready rows, claim, card read, coalescing, done).
 *
 * Rounds alternate 1 → 3 → 3 → 1 → … on the same machine: each round changes every video once
 * (`updateVideoCard` in one transaction per video, as a watcher's look does), times that fan-out, then times
 * draining the outbox to empty. Reported: rows per change, and items delivered per second (median of rounds).
 *
 *   node --import tsx bench/poller-scale/outbox.ts '{"videos":10000,"rounds":4}'   → prints `RESULT <json>`
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { updateVideoCard } from '../../src/core/live/projections.js';
import type { ChatPlatform, ChatSender, Logger, Store } from '../../src/core/ports/index.js';
import { OutboxSender } from '../../src/poller/index.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { MODEL_MIX, type Model, watchGeneration } from '../lib/jobs.js';
import { cpuSince, median } from '../lib/stats.js';
import { VirtualClock } from '../lib/virtual-clock.js';

export interface OutboxBenchOptions {
  videos: number;
  /** Rounds per variant (each a change to every video, then a drain to empty). */
  rounds: number;
}

export interface OutboxVariantResult {
  projections: number;
  videos: number;
  /** Posting every projection's first card: rows, wall ms. */
  seed: { rows: number; ms: number };
  /** Per round: rows queued, platform calls, fan-out wall ms (the changes' transactions), drain wall ms, CPU ms. */
  rounds: { rows: number; delivered: number; enqueueMs: number; drainMs: number; drainCpuMs: number }[];
  rowsPerChange: number;
  /** Median over rounds: platform calls per second of drain, and fan-out µs per change. */
  itemsPerSecond: number;
  enqueueUsPerChange: number;
  pending: number;
}

export interface OutboxBenchResult {
  one: OutboxVariantResult;
  three: OutboxVariantResult;
}

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const KEYS_PER = 50;

interface Variant {
  projections: number;
  store: Store;
  dir: string;
  clock: VirtualClock;
  sender: OutboxSender;
  delivered: { n: number };
  videoIds: string[];
  result: OutboxVariantResult;
}

async function variant(projections: number, videos: number): Promise<Variant> {
  const clock = new VirtualClock(T0);
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-bench-outbox-'));
  const store = openStore({ path: join(dir, 'reelbot.sqlite'), secretKey: randomBytes(32), clock });
  const delivered = { n: 0 };
  const fake = (platform: ChatPlatform): ChatSender => {
    let posted = 0;
    return {
      platform,
      post: (conversation) => {
        delivered.n++;
        return Promise.resolve(`${conversation}:${++posted}.000`);
      },
      update: () => {
        delivered.n++;
        return Promise.resolve();
      },
    };
  };
  const sender = new OutboxSender({
    store,
    senders: { slack: fake('slack'), discord: fake('discord'), playground: fake('playground') },
    clock,
    logger: silent,
  });
  const videoIds: string[] = [];
  await store.transaction(async () => {
    for (let i = 0; i < videos; i++) {
      const key = Math.floor(i / KEYS_PER);
      const videoId = `vid_bench${String(i).padStart(8, '0')}`;
      videoIds.push(videoId);
      await watchGeneration(store, {
        videoId,
        name: `Bench ${i}`,
        model: MODEL_MIX[i % MODEL_MIX.length] as Model,
        owner: `slack:T${key}:U1`,
        conversation: `slack:T${key}:C1`,
        now: T0,
        alsoShownIn: [`discord:G${key}:${900_000_000 + key}`, 'playground:demo:general'].slice(
          0,
          projections - 1,
        ),
      });
    }
  });
  return {
    projections,
    store,
    dir,
    clock,
    sender,
    delivered,
    videoIds,
    result: {
      projections,
      videos,
      seed: { rows: 0, ms: 0 },
      rounds: [],
      rowsPerChange: Number.NaN,
      itemsPerSecond: Number.NaN,
      enqueueUsPerChange: Number.NaN,
      pending: 0,
    },
  };
}

/** Drains until the outbox is empty (one `drain()` moves at most 20 batches of 200 per platform). */
async function drainAll(v: Variant): Promise<void> {
  for (let guard = 0; guard < 10_000 && (await v.store.outbox.depth()) > 0; guard++) {
    const before = await v.store.outbox.depth();
    await v.sender.drain();
    if ((await v.store.outbox.depth()) === before) break;
  }
}

async function round(v: Variant, n: number): Promise<void> {
  v.clock.advanceTo(T0 + n * 60_000);
  const depth = await v.store.outbox.depth();
  let t = performance.now();
  for (const videoId of v.videoIds) {
    await v.store.transaction(async () =>
      updateVideoCard(v.store, videoId, {
        patch: { percent: (n * 7) % 100 },
        dedupeKey: `video:${videoId}:bench:${n}`,
      }),
    );
  }
  const enqueueMs = performance.now() - t;
  const rows = (await v.store.outbox.depth()) - depth;
  const delivered = v.delivered.n;
  const cpu = process.cpuUsage();
  t = performance.now();
  await drainAll(v);
  v.result.rounds.push({
    rows,
    delivered: v.delivered.n - delivered,
    enqueueMs: Math.round(enqueueMs * 10) / 10,
    drainMs: Math.round(performance.now() - t),
    drainCpuMs: Math.round(cpuSince(cpu)),
  });
}

async function main(o: OutboxBenchOptions): Promise<OutboxBenchResult> {
  const variants = [await variant(1, o.videos), await variant(3, o.videos)];
  for (const v of variants) {
    const rows = await v.store.outbox.depth();
    const t = performance.now();
    await drainAll(v);
    v.result.seed = { rows, ms: Math.round(performance.now() - t) };
  }
  // 1, 3, 3, 1, 1, 3, …: each variant goes first as often as second.
  for (let n = 1; n <= o.rounds; n++) {
    const order = n % 2 === 1 ? variants : [...variants].reverse();
    for (const v of order) await round(v, n);
  }
  for (const v of variants) {
    const r = v.result;
    r.rowsPerChange = median(r.rounds.map((x) => x.rows / o.videos));
    r.itemsPerSecond = Math.round(median(r.rounds.map((x) => (x.delivered / x.drainMs) * 1000)));
    r.enqueueUsPerChange = Math.round(median(r.rounds.map((x) => (x.enqueueMs * 1000) / o.videos)));
    r.pending = await v.store.outbox.depth();
    await v.store.close();
    rmSync(v.dir, { recursive: true, force: true });
  }
  const [one, three] = variants as [Variant, Variant];
  return { one: one.result, three: three.result };
}

const options = JSON.parse(process.argv[2] ?? '{}') as OutboxBenchOptions;
main(options).then(
  (result) => {
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`outbox bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
