/**
 * One replica of the replicas benchmark (./replicas.ts) in a process of its own, on the real clock: what a
 * reelbot replica runs in the background — its PostgreSQL store (reached through the bench's TCP proxy), replica
 * registry, rate budgets, the real Poller and OutboxSender — against the simulator process, with chat senders that
 * post to the bench's fake chat server (so posts are counted where they land, across replicas).
 *
 * It starts when told (`go`), reports its count of checks every 200 ms, and records: each check committed (when), each store transaction (when it
 * began, how long the caller waited for it), and a command's store work every 500 ms (a one-row transaction,
 * as `status` remembers the user's last video), timed the same way. On `stop` it stops its poller and sender
 * (their in-flight work finishes), prints `RESULT <json>` and exits.
 *
 *   node --import tsx bench/poller-scale/replica-process.ts '<json options>'   (with an IPC channel)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createVideoApiFactory, RateBudgetRegistry } from '../../src/api/index.js';
import { WATCHERS } from '../../src/core/live/watchers.js';
import type { ChatPlatform, ChatSender, Logger, Store } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { OutboxSender, Poller } from '../../src/poller/index.js';
import { openReplicaRegistry } from '../../src/replicas/registry.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { seededRandom } from '../lib/stats.js';

export interface ReplicaProcessOptions {
  /** Its replica id (and poller holder). */
  id: string;
  /** Through the proxy: this replica's own endpoint. */
  databaseUrl: string;
  secretKey: string;
  apiUrl: string;
  /** The bench's fake chat server. */
  chatUrl: string;
  seed: number;
}

export interface ReplicaProcessResult {
  id: string;
  /** Real time (epoch ms) of each check that committed a result (done or active). */
  checks: number[];
  /** Checks by outcome (active, done, deferred, error…). */
  outcomes: Record<string, number>;
  /** Each outermost store transaction: [began (epoch ms), waited (ms)]. */
  transactions: [number, number][];
  /** The command probe: [began, ms until its transaction committed, or -1 if it failed]. */
  commands: [number, number][];
  /** Outbox items this replica claimed for sending (its own count; doubles are counted at the fake chat). */
  claims: number;
  cpuMs: number;
  errors: string[];
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

async function main(o: ReplicaProcessOptions): Promise<void> {
  const store = await openPostgresStore({
    url: o.databaseUrl,
    secretKey: Buffer.from(o.secretKey, 'base64'),
    clock: systemClock,
  });
  const result: ReplicaProcessResult = {
    id: o.id,
    checks: [],
    outcomes: {},
    transactions: [],
    commands: [],
    claims: 0,
    cpuMs: 0,
    errors: [],
  };
  const note = (error: unknown) => {
    if (result.errors.length < 20) result.errors.push(String(error).slice(0, 300));
  };
  timeTransactions(store, result.transactions);
  const claim = store.outbox.claim.bind(store.outbox);
  store.outbox.claim = async (...args) => {
    const won = await claim(...args);
    if (won) result.claims++;
    return won;
  };

  // As src/main.ts wires a replica: its budgets take their share of every limit from the registry.
  let share = 1;
  const budgets = new RateBudgetRegistry({ clock: systemClock, share: () => share });
  const registry = await openReplicaRegistry({
    databaseUrl: o.databaseUrl,
    id: o.id,
    clock: systemClock,
    logger: silent,
    peakUse: () => budgets.peakUse(),
  });
  registry.onChange(() => {
    share = registry.share();
    budgets.shareChanged();
  });
  await registry.start();
  // A replica joins with no share of the keys' limits and takes its 1/N once the others' bounds leave room
  // (src/replicas/share-rule.ts): ready only then, so the measured run does not start in the join transient.
  for (let waited = 0; registry.share() === 0 && waited < 30_000; waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  share = registry.share();
  const apiFor = createVideoApiFactory({
    baseUrl: o.apiUrl,
    clock: systemClock,
    timeoutClock: systemClock,
    random: seededRandom(o.seed),
    budgets,
  });
  const keyFor = async (owner: string) => (await store.keys.get(owner))?.apiKey;
  const poller = new Poller({
    store,
    watchers: WATCHERS,
    apiFor: async (owner) => {
      const key = await keyFor(owner);
      return key ? apiFor(key) : undefined;
    },
    budgetDelay: async (owner, _kind, urgency) => {
      const key = await keyFor(owner);
      return key ? apiFor.budgets.forKey(key).delayFor('GET /videos/:id/status', 'background', urgency) : 0;
    },
    clock: systemClock,
    logger: silent,
    concurrency: 64, // as src/main.ts
    holder: o.id,
    random: seededRandom(o.seed + 1),
    metrics: {
      checked: (_kind, outcome) => {
        result.outcomes[outcome] = (result.outcomes[outcome] ?? 0) + 1;
        if (outcome === 'active' || outcome === 'done') result.checks.push(Date.now());
      },
      lag: () => {},
    },
  });
  const chats = Object.fromEntries(
    (['slack', 'discord', 'playground'] as const).map((platform) => [
      platform,
      httpChat(o.chatUrl, platform),
    ]),
  ) as Record<ChatPlatform, ChatSender>;
  const sender = new OutboxSender({ store, senders: chats, clock: systemClock, logger: silent });

  // The command probe: the store work of a command (`status` remembers the member's last video), timed.
  let probing: NodeJS.Timeout | undefined;
  let reporting: NodeJS.Timeout | undefined;
  const probe = () => {
    const began = Date.now();
    const t = performance.now();
    store
      .transaction(async () => store.users.setLast(`slack:TBENCH:U${o.id}`, 'video', `probe-${began}`))
      .then(
        () => result.commands.push([began, Math.round(performance.now() - t)]),
        (error: unknown) => {
          result.commands.push([began, -1]);
          note(error);
        },
      );
  };

  await new Promise<void>((resolve) => {
    process.on('message', (msg: { op: string }) => {
      if (msg.op === 'go') {
        const cpu = process.cpuUsage();
        poller.start();
        sender.start();
        probing = setInterval(probe, 500);
        // Its checks so far, for the bench to know when the workload's backlog has been worked through.
        reporting = setInterval(() => process.send?.({ op: 'checks', n: result.checks.length }), 200);
        stopWith = async () => {
          clearInterval(probing);
          clearInterval(reporting);
          await poller.stop();
          await sender.stop();
          const used = process.cpuUsage(cpu);
          result.cpuMs = Math.round((used.user + used.system) / 1000);
          resolve();
        };
      } else if (msg.op === 'stop') void stopWith?.();
    });
    process.send?.({ op: 'ready', share });
  });
  await registry.stop().catch(note);
  await store.close().catch(note);
  // A large line: exit only once it is flushed to the pipe (process.exit would cut it off).
  await new Promise<void>((resolve) =>
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`, () => resolve()),
  );
}

let stopWith: (() => Promise<void>) | undefined;

/** Records each outermost `store.transaction`: when it was asked for and how long its caller waited. */
function timeTransactions(store: Store, into: [number, number][]): void {
  const inside = new AsyncLocalStorage<true>();
  const transaction = store.transaction.bind(store);
  store.transaction = async (fn) => {
    if (inside.getStore()) return transaction(fn);
    const began = Date.now();
    const t = performance.now();
    try {
      return await inside.run(true, () => transaction(fn));
    } finally {
      into.push([began, Math.round(performance.now() - t)]);
    }
  };
}

/** A chat platform that is the bench's fake chat server: each post and edit is one HTTP call to it. */
function httpChat(chatUrl: string, platform: ChatPlatform): ChatSender {
  const call = async (op: 'post' | 'update', body: object) => {
    const res = await fetch(`${chatUrl}/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ platform, ...body }),
    });
    if (!res.ok) throw new Error(`fake chat ${op}: ${res.status}`);
    return (await res.json()) as { ts?: string };
  };
  return {
    platform,
    post: async (conversation, _card, { dedupeId }) =>
      String((await call('post', { conversation, dedupeId })).ts),
    update: async (message) => {
      await call('update', { message });
    },
  };
}

const options = JSON.parse(process.argv[2] ?? '{}') as ReplicaProcessOptions;
main(options).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `replica ${options.id} failed: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
