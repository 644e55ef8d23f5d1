/**
 * A replica that stops without dying: three replicas on one PostgreSQL database, each reaching it
 * through its own endpoint of a TCP proxy that adds 2 ms each way (test/support/tcp-proxy.ts); members run
 * create → render → schedule flows over Slack, round-robin over the replicas (test/replicas/support). Mid-way one
 * replica is caught inside a store transaction (its session has one open in `pg_stat_activity`) and then
 *
 * (a) SIGSTOPped, as a frozen VM or container or a long GC pause: its process holds whatever it held, its
 *     sockets open; or
 * (b) partitioned: the proxy stops forwarding its connections both ways without closing them, as a dropped
 *     network does (neither it nor the server hears of it until their own timeouts);
 *
 * for longer than the sessions' lock and idle-in-transaction timeouts and the outbox lease (30 s). Meanwhile the
 * load balancer sends commands only to the other two (as its health check would) and a member keeps typing
 * `status <video>` (read from the service, then a store transaction that remembers it and brings its card
 * here): each must be answered within 3 s, as Slack waits no longer. Then the replica goes on (SIGCONT, or
 * the network heals) and every flow must finish with nothing posted twice at the fake Slack (each post carries
 * its outbox row's dedupe marker in its metadata), each milestone once, one charge per video.
 *
 * One cluster for both cases (a different victim each), spec profile; each case runs about 80 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, type Member, startCluster } from '../replicas/support/cluster.js';
import { diagnose, pendingOutbox } from '../replicas/support/diagnose.js';
import { cardsIn, type FlowOutcome, MILESTONES, runFlow, threadOf } from '../replicas/support/flows.js';
import type { Replica } from '../replicas/support/replica.js';
import { type Sent, SlackFrontDoor } from '../replicas/support/slack-front-door.js';
import type { FakeSlack } from '../slack/fake-slack.js';
import { blocksText } from '../slack/world.js';
import { withClient } from '../support/postgres.js';

/** Longer than the lock, statement and idle-in-transaction timeouts (a few seconds) and the outbox lease. */
const FAULT_MS = 35_000;
/** Slack shows "the app did not respond" after 3 s. */
const ANSWER_MS = 3_000;
/** Between two `status` commands of the prober. */
const PROBE_EVERY_MS = 2_500;
/**
 * Flows per case; then the prober, who types `status` during the fault, and a member who does nothing: two
 * members share a team key (`flowsPerKey`), so the prober's key is its own and the flows' polling never
 * spends the API budget its commands need.
 */
const FLOWS = 4;
const MEMBERS_PER_CASE = FLOWS + 2;
const STAGGER_MS = 500;
/** How long a case's flows may take: ~45 s each, plus the fault, plus a lapsed lease's 30 s. */
const FLOWS_BUDGET_MS = 45_000 + FAULT_MS + 30_000;
const SCRIPT = 'A short film about lighthouses: who kept them, how the lamps turned, why they went dark.';
// real-time-ok: replicas are child processes on the real clock
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Fault {
  what: string;
  /** Starts the fault on the victim. */
  begin(victim: Replica): void;
  /** Ends it. */
  end(victim: Replica): void;
}

describe('a replica paused or cut off from PostgreSQL, among three', () => {
  let c: Cluster;
  let passed = true;
  beforeAll(async () => {
    c = await startCluster({
      replicas: 3,
      // Two cases of FLOWS flows, a prober and an idle member each.
      flows: 2 * MEMBERS_PER_CASE,
      flowsPerKey: 2,
      profile: 'spec',
      speed: 30,
      seed: 28,
      network: { delayMs: 2 },
    });
  }, 90_000);
  afterAll(async () => {
    const keepLogs = !passed || !!process.env.KEEP_REPLICAS;
    if (keepLogs && c) console.info(`replica logs kept in ${c.dir}`);
    await c?.close({ keepLogs });
  });

  it(
    'SIGSTOP of one of three inside a transaction, longer than the timeouts: the others answer each command within 3 s; after SIGCONT nothing is posted twice',
    async () => {
      await withFault(c, 0, {
        what: 'SIGSTOP',
        begin: (victim) => victim.pause(),
        end: (victim) => victim.resume(),
      }).catch((error: unknown) => {
        passed = false;
        throw error;
      });
    },
    FLOWS_BUDGET_MS + 60_000,
  );

  it(
    'a partition of one of three inside a transaction (its connections silenced, not closed): the others answer each command within 3 s; after healing nothing is posted twice',
    async () => {
      const proxy = c.proxy;
      if (!proxy) throw new Error('the cluster has no proxy');
      await withFault(c, 1, {
        what: 'partition',
        begin: (victim) => proxy.partition(victim.id),
        end: (victim) => proxy.heal(victim.id),
      }).catch((error: unknown) => {
        passed = false;
        throw error;
      });
    },
    FLOWS_BUDGET_MS + 60_000,
  );
});

async function withFault(c: Cluster, nth: number, fault: Fault): Promise<void> {
  const t0 = Date.now();
  const deadline = t0 + FLOWS_BUDGET_MS;
  const members = c.members.slice(nth * MEMBERS_PER_CASE, nth * MEMBERS_PER_CASE + FLOWS);
  const prober = c.members[nth * MEMBERS_PER_CASE + FLOWS] as Member;
  const victim = c.replicas[nth + 1] as Replica;
  const door = new SlackFrontDoor(c.replicas, () => c.slack.responseUrl());

  // ---- the flows, round-robin over all three ----
  const flows: FlowOutcome[] = members.map((member) => ({
    member,
    done: false,
    retries: 0,
    trace: [],
    at: {},
  }));
  const running = Promise.all(
    flows.map(async (f, i) => {
      await sleep(i * STAGGER_MS);
      try {
        await runFlow(f, { door, slack: c.slack, deadline, scheduleLeadMs: 20_000 });
      } catch (error) {
        f.error = String(error);
      }
    }),
  );
  // The prober's own video, to ask the status of during the fault.
  const probeVideo = await createVideoAs(door, c.slack, prober);
  // Mid-way: every video created and watched, cards being posted and edited by all three replicas.
  while (flows.some((f) => f.at.created === undefined) && Date.now() < t0 + 30_000) await sleep(100);
  await sleep(2_000);

  // ---- the fault, begun while the victim has a transaction open ----
  door.out.add(victim.id);
  const caught = await catchInTransaction(c, victim, fault);
  const faultAt = Date.now();
  const answers: number[] = [];
  const unanswered: string[] = [];
  let k = 0;
  while (Date.now() < faultAt + FAULT_MS) {
    const ms = await statusAnswerMs(door, c.slack, prober, probeVideo);
    k++;
    if (ms === undefined || ms > ANSWER_MS) unanswered.push(`status #${k}: ${ms ?? 'no answer in 10 s'}`);
    if (ms !== undefined) answers.push(ms);
    // A person's pace: a status every few seconds stays within the key's API budget (three or four reads
    // each), which the paused replica's share still holds until the registry drops it.
    await sleep(PROBE_EVERY_MS);
  }
  fault.end(victim);
  door.out.delete(victim.id);
  await running;

  // ---- the outbox drains; what Slack holds ----
  const outbox = () =>
    withClient(c.databaseUrl, async (db) => {
      const { rows } = await db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM outbox GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    });
  while ((await outbox()).pending && Date.now() < deadline + 15_000) await sleep(200);
  const rows = await outbox();
  const doubles = doublePosts(c.slack);
  console.info(
    `${fault.what} of ${victim.id} for ${FAULT_MS / 1000} s (${caught ? `inside a transaction, its last statement: ${caught}` : 'never caught inside a transaction'}): ${answers.length} commands answered during it, slowest ${Math.max(0, ...answers)} ms; flows done ${flows.filter((f) => f.done).length}/${flows.length} in ${Math.round((Date.now() - t0) / 1000)} s; requests served ${JSON.stringify(Object.fromEntries(door.served))}; posts twice ${doubles.length}; outbox ${JSON.stringify(rows)}; proxy connections of ${victim.id} ${JSON.stringify(c.proxy?.connections(victim.id))}`,
  );
  const problems = flows.filter((f) => !f.done).map((f) => `flow ${f.member.n}: ${f.error ?? 'not done'}`);
  if (problems.length > 0) console.info(await diagnose(c.databaseUrl, flows));
  if (rows.pending) console.info(await pendingOutbox(c.databaseUrl));

  expect(caught, 'the victim was caught with a transaction open').toBeDefined();
  expect(unanswered, `commands to the other two during the ${fault.what}`).toEqual([]);
  expect(answers.length).toBeGreaterThanOrEqual(5);
  expect(doubles, 'dedupe markers posted more than once').toEqual([]);
  expect(problems).toEqual([]);
  for (const f of flows) {
    const cards = cardsIn(c.slack, f.member.channel);
    expect(cards.length, `flow ${f.member.n}: cards`).toBe(1);
    const thread = threadOf(c.slack, cards[0] as (typeof cards)[number]);
    expect({
      ready: thread.filter((m) => MILESTONES.ready(m.text)).length,
      rendered: thread.filter((m) => MILESTONES.rendered(m.text)).length,
      posted: thread.filter((m) => MILESTONES.posted(m.text)).length,
    }).toEqual({ ready: 1, rendered: 1, posted: 1 });
    expect(c.sim.chargesFor(f.videoId as string).length, `flow ${f.member.n}: charges`).toBe(1);
  }
  expect({ pending: rows.pending ?? 0, failed: rows.failed ?? 0 }, 'outbox').toEqual({
    pending: 0,
    failed: 0,
  });
  for (const r of c.replicas) expect((await r.health())?.status, `${r.id} healthy afterwards`).toBe(200);
}

/**
 * Begins the fault at a moment the victim's session has a transaction open, seen from the server
 * (`pg_stat_activity`, its sessions named `reelbot-<id>`): begun, then checked again, and undone to try once
 * more if the transaction had ended in between. Its open transactions' last statements, or undefined when it
 * never caught one in 20 s (the fault stays on).
 */
async function catchInTransaction(c: Cluster, victim: Replica, fault: Fault): Promise<string | undefined> {
  // The statement each open transaction of the victim ran last: which of its pools it was caught in.
  const inTransaction = (db: Parameters<Parameters<typeof withClient>[1]>[0]) =>
    db
      .query<{ query: string }>(
        'SELECT left(query, 100) AS query FROM pg_stat_activity WHERE application_name = $1 AND xact_start IS NOT NULL',
        [`reelbot-${victim.id}`],
      )
      .then((r) => (r.rows.length > 0 ? r.rows.map((row) => row.query).join(' | ') : undefined));
  return await withClient(c.databaseUrl, async (db) => {
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      if (await inTransaction(db)) {
        fault.begin(victim);
        // A COMMIT already on its way (the proxy's 2 ms) lands; one that was not sent never will.
        await sleep(20);
        const caught = await inTransaction(db);
        if (caught) return caught;
        fault.end(victim);
      }
      await sleep(5);
    }
    fault.begin(victim);
    return undefined;
  });
}

/** `create …` then **Create** as `member`: the new video's id, once both are answered. */
async function createVideoAs(door: SlackFrontDoor, slack: FakeSlack, member: Member): Promise<string> {
  const { user, channel } = member;
  const create = await answer(
    slack,
    () => door.command(user, channel, `create --name "Probe" --model storyboard ${SCRIPT}`),
    (r) => (/video\.create\.confirm/.test(JSON.stringify(r.blocks)) ? (r.blocks as unknown[]) : undefined),
  );
  if (!create) throw new Error(`member ${member.n}: create was not answered`);
  const confirm = await answer(
    slack,
    () =>
      door.click(
        user,
        channel,
        { blocks: create.value, ts: '1700000001.000100', ephemeral: true },
        'video.create.confirm',
      ),
    (r) => /id `([^`]+)`/.exec(replyText(r))?.[1],
  );
  if (!confirm) throw new Error(`member ${member.n}: Create was not answered`);
  return confirm.value;
}

/**
 * `status <video>` typed by `member`, timed until Slack shows the answer (the video's card, on the
 * response_url): the command reads the video from the service and, in a store transaction, remembers it as
 * the member's last and brings its live card here. Ms, or undefined when no answer came in 10 s.
 */
async function statusAnswerMs(
  door: SlackFrontDoor,
  slack: FakeSlack,
  member: Member,
  videoId: string,
): Promise<number | undefined> {
  const answered = await answer(
    slack,
    () => door.command(member.user, member.channel, `status ${videoId}`),
    (r) => (replyText(r).includes('Probe') ? true : undefined),
  );
  return answered?.ms;
}

const replyText = (r: Record<string, unknown>) =>
  `${String(r.text ?? '')}\n${blocksText((r.blocks as unknown[] | undefined) ?? [])}`;

async function answer<T>(
  slack: FakeSlack,
  send: () => Promise<Sent>,
  accept: (reply: Record<string, unknown>) => T | undefined,
): Promise<{ ms: number; value: T } | undefined> {
  const started = Date.now();
  const sent = await send().catch(() => undefined);
  while (sent && Date.now() < started + 10_000) {
    for (const reply of slack.responsesTo(sent.responseUrl)) {
      const value = accept(reply);
      if (value !== undefined) return { ms: Date.now() - started, value };
    }
    await sleep(25);
  }
  return undefined;
}

/** Dedupe markers (each outbox row's, in a post's metadata) that Slack received more than once. */
function doublePosts(slack: FakeSlack): string[] {
  const seen = new Map<string, number>();
  for (const m of slack.messages) {
    const id = m.metadata?.event_payload.dedupeId;
    if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
}
