/**
 * Three replicas on one PostgreSQL database (DESIGN §9). Each replica is a child process started as
 * `npm start` starts it, with the same DATABASE_URL and secret key and its own port; the fake Slack, the fake
 * Discord (REST and gateway), the simulator and PostgreSQL live in this process (./support/cluster.ts). Fifty
 * members each run create → render → schedule over Slack, their requests spread round-robin over the replicas
 * (./support/slack-front-door.ts); mid-way one replica is SIGKILLed — the Discord gateway holder when the
 * replicas elect one (`/healthz` reports `gateway: 'holder'`). Afterwards, from what the platforms and the
 * service hold: every flow finished; each video's card and each milestone of its thread (ready, rendered,
 * posted) are in Slack exactly once; the simulator charged each video once, holds one schedule and one post
 * per video, and never answered 429; nothing is left pending or failed in the outbox. With an election, another
 * replica holds the gateway within 30 s of the kill and identifies to the fake gateway again.
 *
 * A run takes ~90 s; ~160 s when the victim died holding outbox claims, ~4 min when it died between a write
 * and its commit (see FLOWS_BUDGET_MS).
 *
 * A second cluster serves Discord over HTTP interactions (./support/discord-front-door.ts, round-robin): the
 * pages of a paged form land on three replicas and the series is created with every value; the time-zone
 * question asked on one replica is answered on the next, which saves the zone and runs the command.
 */
import { describe, expect, it } from 'vitest';
import { EFFECT_GRACE_MS } from '../../src/core/effects/remote-effect.js';
import { DEFAULT_LEASE_MS } from '../../src/poller/outbox-sender.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { FakeInteraction, FakeMessage } from '../discord/fake-discord.js';
import { controlsIn, textOf, titleOf } from '../discord/read-message.js';
import { IDS, type Json, MEMBERS } from '../discord/world.js';
import { discordSigner } from '../support/ed25519.js';
import { withClient } from '../support/postgres.js';
import { type Cluster, startCluster } from './support/cluster.js';
import { diagnose, pendingOutbox } from './support/diagnose.js';
import { DiscordFrontDoor, type Served } from './support/discord-front-door.js';
import { cardsIn, type FlowOutcome, MILESTONES, runFlow, threadOf } from './support/flows.js';
import type { Replica } from './support/replica.js';
import { SlackFrontDoor } from './support/slack-front-door.js';

const FLOWS = Number(process.env.REPLICAS_FLOWS ?? 50);
const STAGGER_MS = 500;
/**
 * How long the flows may take. A flow runs ~45 s; the last starts ~25 s in. An outbox row the killed replica had
 * claimed goes out again only when its claim lapses (DEFAULT_LEASE_MS, 30 s): a flow whose card post or
 * milestone reply the victim held waits that long. A write the victim sent and died before committing (a
 * schedule the service took, its watch never stored) is replayed by another replica's effect sweep once its
 * grace has passed (EFFECT_GRACE_MS, 2 min, swept every 30 s); meanwhile the member's retry is told it was
 * already sent. The budget allows both, so the exactly-once checks hold however the kill lands; a run where
 * neither happens ends as soon as its flows do. The summary line reports the slowest flow.
 */
const EFFECT_SWEEP_MS = 30_000;
const FLOWS_BUDGET_MS = 25_000 + DEFAULT_LEASE_MS + EFFECT_GRACE_MS + EFFECT_SWEEP_MS + 30_000;
const TIMEOUT_MS = 60_000 + FLOWS_BUDGET_MS + 40_000;
/** Takeover bound for the gateway (DESIGN §9): another replica holds it within 30 s. */
const GATEWAY_TAKEOVER_MS = 30_000;
// real-time-ok: replicas are child processes on the real clock
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// Both profiles at once: six replicas and two databases on the machine, and the file takes as long as one run.
describe.concurrent.each(['spec', 'real'] as const)(
  'three replicas on one PostgreSQL database, %s profile',
  (profile) => {
    it(
      `${FLOWS} create → render → schedule flows over Slack, a replica SIGKILLed mid-way: each milestone once, one charge and one post per video`,
      async () => {
        const c = await startCluster({
          replicas: 3,
          flows: FLOWS,
          flowsPerKey: 2,
          profile,
          speed: 30,
          seed: 17,
        });
        let passed = false;
        try {
          await threeReplicas(c, profile);
          passed = true;
        } finally {
          // The replicas' logs stay for a look when the run failed (or with KEEP_REPLICAS=1).
          const keepLogs = !passed || !!process.env.KEEP_REPLICAS;
          if (keepLogs) console.info(`replica logs kept in ${c.dir}`);
          await c.close({ keepLogs });
        }
      },
      TIMEOUT_MS,
    );
  },
);

// Discord over HTTP interactions behind a round-robin load balancer: whatever one replica kept for the next
// interaction (a form's pages, the time-zone question's long option values) is read by another.
describe.each(['spec', 'real'] as const)(
  'three replicas serving Discord HTTP interactions round-robin, %s profile',
  (profile) => {
    it('a paged form whose pages land on three replicas completes; the time-zone question answered on another replica runs the command', async () => {
      const signer = discordSigner();
      const c = await startCluster({
        replicas: 3,
        flows: 1,
        flowsPerKey: 1,
        profile,
        speed: 30,
        seed: 28,
        discordHttp: signer,
      });
      let passed = false;
      try {
        await discordRoundRobin(c, new DiscordFrontDoor(c.replicas, c.discord, signer));
        passed = true;
      } finally {
        const keepLogs = !passed || !!process.env.KEEP_REPLICAS;
        if (keepLogs) console.info(`replica logs kept in ${c.dir}`);
        await c.close({ keepLogs });
      }
    }, 120_000);
  },
);

async function discordRoundRobin(c: Cluster, door: DiscordFrontDoor): Promise<void> {
  const address = (member: 'alice' | 'bob') => `discord:${IDS.guild}:${MEMBERS[member].id}`;
  const store = await openPostgresStore({ url: c.databaseUrl, secretKey: c.secretKey });
  try {
    // Alice has a zone (the series schedule is read in it); Bob has none: he is asked.
    await store.users.setTimeZone(address('alice'), 'Europe/Paris');

    // ---- series create: five interactions, one replica after another ----
    const opened = await modalOpened(door, await door.slash('series create', {}, 'alice'), 'alice');
    const page1 = modalData(opened.record);
    expect(page1.title).toBe('New series (1/2)');
    const voice = optionValues(page1, 'voice')[0] as string;
    const kept = await door.submit(
      opened.record,
      { name: 'Night Terrors', source: 'reddit', niche: 'history', voice, style: 'anime' },
      'alice',
    );
    const step = door.original(kept.record);
    expect(textOf(step)).toContain('Step 1 of 2 done');
    const next = await door.click(step, 'Continue', 'alice');
    expect(modalData(next.record).title).toBe('New series (2/2)');
    const last = await door.submit(
      next.record,
      { language: 'fr', duration: '90', destination: 'tiktok', schedule: 'daily 09:00 Europe/Paris' },
      'alice',
    );
    const cost = door.original(last.record);
    expect(textOf(cost)).toContain('Night Terrors');
    const created = await door.click(cost, 'Create series (20 credits)', 'alice');
    const pages = [opened, kept, next, last].map((s) => s.replica);
    expect(new Set(pages).size, `replicas of the pages: ${pages.join(', ')}`).toBe(3);
    const posted = await waitFor('POST /series', 15_000, () => {
      const seen = c.sim.received({ method: 'POST', path: '/series' });
      return seen.length > 0 ? seen : undefined;
    });
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toMatchObject({
      name: 'Night Terrors',
      source: 'reddit',
      niche: 'history',
      voice,
      style: 'anime',
      language: 'fr',
      duration: 90,
      destination: 'tiktok',
      autoPostTime: '09:00',
      timezone: 'Europe/Paris',
    });
    expect(created.replica).not.toBe(last.replica);

    // ---- the time-zone question asked on one replica, answered on the next ----
    const range = { from: '2026-12-01', to: '2026-12-05', platform: 'youtube', status: 'scheduled' };
    const asked = await door.slash('calendar', range, 'bob');
    const question = door.original(asked.record);
    expect(titleOf(question)).toBe('Which time zone are you in?');
    expect(c.sim.received({ method: 'GET', path: '/calendar' })).toEqual([]);
    const select = controlsIn(question).find((x) => x.type === 3) as Json;
    // Each option carries the zone and the command to run again: too long for Discord, kept by the replica.
    const auckland = (select.options as Json[]).find((o) => o.label === 'Pacific/Auckland') as Json;
    expect(String(auckland.value).length).toBeLessThanOrEqual(100);
    const chosen = await door.click(question, 'Choose your time zone…', 'bob', [String(auckland.value)]);
    expect(chosen.replica).not.toBe(asked.replica);
    expect(await store.users.getTimeZone(address('bob'))).toBe('Pacific/Auckland');
    // The command ran in Auckland's zone: its days 1–5 December start on 30 November in UTC.
    const calendar = c.sim.received({ method: 'GET', path: '/calendar' });
    expect(calendar.map((r) => r.query)).toEqual([
      expect.objectContaining({ startDate: '2026-11-30', endDate: '2026-12-05' }),
    ]);
    expect(textOf(c.discord.messages.get(question.id) as FakeMessage)).toContain('Pacific/Auckland');
  } finally {
    await store.close();
  }
}

/** The modal a command opened: at once, or (answered after a deferral) behind its launcher's button. */
async function modalOpened(door: DiscordFrontDoor, served: Served, as: 'alice' | 'bob'): Promise<Served> {
  if ((served.record.callbacks[0] as Json).type === 9) return served;
  const launcher = door.original(served.record);
  return await door.click(launcher, String(controlsIn(launcher)[0]?.label), as);
}

const modalData = (record: FakeInteraction): Json => {
  const callback = record.callbacks[0] as Json;
  if (callback.type !== 9) throw new Error(`expected a modal, got ${JSON.stringify(callback).slice(0, 300)}`);
  return callback.data as Json;
};

const optionValues = (modal: Json, input: string): string[] =>
  ((modal.components as Json[]).find((l) => l.component?.custom_id === input)?.component?.options ?? []).map(
    (o: Json) => String(o.value),
  );

async function threeReplicas(c: Cluster, profile: string): Promise<void> {
  const t0 = Date.now();
  const deadline = t0 + FLOWS_BUDGET_MS;
  const door = new SlackFrontDoor(c.replicas, () => c.slack.responseUrl());

  // The gateway leader lease, when the replicas have one: exactly one holds the gateway.
  const gatewayRoles = async () =>
    Object.fromEntries(
      await Promise.all(
        c.replicas.filter((r) => r.alive).map(async (r) => [r.id, (await r.health())?.body.gateway]),
      ),
    ) as Record<string, unknown>;
  const elected = Object.values(await gatewayRoles()).some((g) => g !== undefined);
  let holder: Replica | undefined;
  if (elected) {
    const roles = await waitFor('one gateway holder', 15_000, async () => {
      const r = await gatewayRoles();
      return Object.values(r).filter((g) => g === 'holder').length === 1 ? r : undefined;
    });
    holder = c.replicas.find((r) => roles[r.id] === 'holder');
    expect(Object.values(roles).sort()).toEqual(['holder', 'standby', 'standby']);
  }
  const victim = holder ?? (c.replicas[1] as Replica);

  // ---- the flows, and the kill once half of them have a video ----
  const flows: FlowOutcome[] = c.members.map((member) => ({
    member,
    done: false,
    retries: 0,
    trace: [],
    at: {},
  }));
  let killed: Promise<void> | undefined;
  let identifiesAtKill = 0;
  /** Where the flows were when the victim died, and what it held. */
  let atKill = '';
  /** When another replica first reported holding the gateway after the kill (ms after it). */
  let takeoverMs: number | undefined;
  let takeover: Promise<void> | undefined;
  // Mid-way: the first flow waits for its post, others render or generate, the last ones have not begun.
  const onStep = (step: string) => {
    if (step !== 'scheduled' || killed) return;
    identifiesAtKill = c.discord.identifies.length;
    const stepOf = (f: FlowOutcome) =>
      ['scheduled', 'rendered', 'ready', 'created'].find((s) => f.at[s] !== undefined) ?? 'not created';
    const steps: Record<string, number> = {};
    for (const f of flows) steps[stepOf(f)] = (steps[stepOf(f)] ?? 0) + 1;
    killed = (async () => {
      await victim.kill();
      const leased = await withClient(c.databaseUrl, (db) =>
        db.query<{ kind: string; n: number }>(
          'SELECT kind, count(*)::int AS n FROM watches WHERE lease_holder = $1 AND lease_until > $2 GROUP BY kind',
          [victim.id, victim.killedAt],
        ),
      ).catch((error: unknown) => ({ rows: [{ kind: String(error), n: 0 }] }));
      // A claimed row is pending with not_before a lease ahead (a survivor's claim lasts one send).
      const claimed = await withClient(c.databaseUrl, (db) =>
        db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM outbox WHERE status = 'pending' AND not_before > $1",
          [(victim.killedAt ?? 0) + DEFAULT_LEASE_MS / 2],
        ),
      ).catch(() => ({ rows: [{ n: -1 }] }));
      atKill = `flows by step ${JSON.stringify(steps)}, watches leased to ${victim.id} ${JSON.stringify(Object.fromEntries(leased.rows.map((r) => [r.kind, r.n])))}, outbox rows under a claim ${claimed.rows[0]?.n}`;
    })();
    if (elected)
      takeover = (async () => {
        await killed;
        const killedAt = victim.killedAt ?? Date.now();
        while (Date.now() < killedAt + GATEWAY_TAKEOVER_MS + 5_000) {
          if (Object.values(await gatewayRoles()).includes('holder')) {
            takeoverMs = Date.now() - killedAt;
            return;
          }
          // real-time-ok: polls the replicas' /healthz for the gateway holder
          await sleep(200);
        }
      })();
  };
  await Promise.all(
    flows.map(async (f, i) => {
      // A member every 500 ms: the kill lands with flows at every step.
      await sleep(i * STAGGER_MS);
      try {
        await runFlow(f, { door, slack: c.slack, deadline, scheduleLeadMs: 20_000, onStep });
      } catch (error) {
        f.error = String(error);
      }
    }),
  );
  await killed;
  await takeover;
  const flowsMs = Date.now() - t0;

  // ---- the gateway came back on another replica, within the bound ----
  if (elected) {
    const roles = await gatewayRoles();
    expect(roles[victim.id]).toBeUndefined();
    expect(Object.values(roles).filter((g) => g === 'holder')).toHaveLength(1);
    expect(takeoverMs, 'gateway takeover (ms after the kill)').toBeLessThanOrEqual(GATEWAY_TAKEOVER_MS);
    expect(c.discord.identifies.length).toBeGreaterThan(identifiesAtKill);
  }

  // ---- the last card edits go out: nothing pending in the outbox ----
  const outbox = async () =>
    withClient(c.databaseUrl, async (db) => {
      const { rows } = await db.query<{ status: string; n: number; errors: string[] }>(
        'SELECT status, count(*)::int AS n, array_agg(error) AS errors FROM outbox GROUP BY status',
      );
      return Object.fromEntries(rows.map((r) => [r.status, r]));
    });
  await waitFor('an empty outbox', Math.max(1_000, deadline + 15_000 - Date.now()), async () =>
    (await outbox()).pending ? undefined : true,
  ).catch(() => {});
  const rows = await outbox();
  if (rows.pending) console.info(await pendingOutbox(c.databaseUrl));

  // ---- what Slack and the service hold ----
  const problems = flows.filter((f) => !f.done).map((f) => `flow ${f.member.n}: ${f.error ?? 'not done'}`);
  const retries = flows.reduce((n, f) => n + f.retries, 0);
  const slowest = Math.max(...flows.map((f) => f.at.posted ?? 0));
  console.info(
    `three replicas (${profile}): ${FLOWS} flows in ${Math.round(flowsMs / 1000)} s (slowest ${Math.round(slowest / 1000)} s); killed ${victim.id}${elected ? ` (gateway holder; another held it ${takeoverMs} ms after)` : ' (no gateway election in this build: a Slack-only kill)'}; at the kill: ${atKill}; requests served ${JSON.stringify(Object.fromEntries(door.served))}; ${retries} user retries; outbox ${JSON.stringify(Object.fromEntries(Object.entries(rows).map(([s, r]) => [s, r.n])))}`,
  );
  for (const f of flows.filter((x) => x.retries > 0).slice(0, 5))
    console.info(`flow ${f.member.n} retried: ${f.trace.join(' | ').slice(0, 400)}`);
  if (problems.length > 0) console.info(await diagnose(c.databaseUrl, flows));
  expect(problems).toEqual([]);

  const calendars = await calendarEntries(c);
  for (const f of flows) {
    const { channel, n, team } = f.member;
    const id = f.videoId as string;
    const line = `flow ${n} (${id})`;
    const cards = cardsIn(c.slack, channel);
    expect(cards.length, `${line}: cards`).toBe(1);
    const thread = threadOf(c.slack, cards[0] as (typeof cards)[number]);
    expect(
      {
        ready: thread.filter((m) => MILESTONES.ready(m.text)).length,
        rendered: thread.filter((m) => MILESTONES.rendered(m.text)).length,
        posted: thread.filter((m) => MILESTONES.posted(m.text)).length,
      },
      `${line}: milestones in the thread:\n${thread.map((m) => `${m.ts} ${m.text}`).join('\n')}`,
    ).toEqual({ ready: 1, rendered: 1, posted: 1 });
    expect(c.sim.chargesFor(id).length, `${line}: charges`).toBe(1);
    expect(c.sim.publishedPosts().filter((p) => p.videoId === id).length, `${line}: posts`).toBe(1);
    expect(calendars.get(team)?.filter((e) => e.projectId === id).length, `${line}: schedules`).toBe(1);
  }
  // No video was created beyond one per flow (a retried create never charged a second video).
  for (const team of new Set(c.members.map((m) => m.team))) {
    const charged = c.sim.ledger(team).filter((e) => e.videoId !== undefined).length;
    expect(charged, `${team}: videos charged`).toBe(c.members.filter((m) => m.team === team).length);
  }
  expect(c.throttled, 'answered 429 by the service').toEqual([]);
  expect({ pending: rows.pending?.n ?? 0, failed: rows.failed?.n ?? 0 }, 'outbox').toEqual({
    pending: 0,
    failed: 0,
  });
  // The survivors are still up and healthy.
  for (const r of c.replicas.filter((x) => x !== victim)) expect((await r.health())?.status, r.id).toBe(200);
}

async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // real-time-ok: polls /healthz or the database until the condition holds
    await sleep(200);
  }
}

/** Every team's calendar entries for the days the flows ran on, read from the service with its key. */
async function calendarEntries(c: Cluster): Promise<Map<string, { projectId: string; status: string }[]>> {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const out = new Map<string, { projectId: string; status: string }[]>();
  for (const [team, key] of c.keys) {
    const query = new URLSearchParams({
      startDate: day(Date.now() - 86_400_000),
      endDate: day(Date.now() + 86_400_000),
    });
    const res = await fetch(`${c.apiUrl}/calendar?${query}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data: { projectId: string; status: string }[] };
    out.set(team, body.data);
  }
  return out;
}
