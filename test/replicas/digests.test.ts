/**
 * Digests on three replicas sharing one PostgreSQL database (DESIGN §9, §10), in the style of
 * three-replicas.test.ts: each replica a child process started as `npm start` starts it, on the real clock;
 * Slack, the simulator and PostgreSQL live in this process (./support/cluster.ts). A channel subscribes over
 * Slack (requests round-robin) to the daily digest and to the weekly one on today's weekday, both at the next
 * whole minute a little ahead; every replica polls the same watches. Just before that minute one replica is
 * SIGKILLed (its watch leases, if any, lapse to the others). Then Slack holds each digest exactly once, and the
 * database one row per period sent: no duplicate, none lost.
 */
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { blocksText, TEAM } from '../slack/world.js';
import { startCluster } from './support/cluster.js';
import { SlackFrontDoor } from './support/slack-front-door.js';

// real-time-ok: replicas are child processes on the real clock
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const pad = (n: number) => String(n).padStart(2, '0');

describe.concurrent.each(['spec', 'real'] as const)('digests on three replicas, %s profile', (profile) => {
  it('sends the daily and the weekly digest once each with a replica killed before their time', async () => {
    const c = await startCluster({ replicas: 3, flows: 1, flowsPerKey: 1, profile, speed: 30, seed: 41 });
    let passed = false;
    try {
      const door = new SlackFrontDoor(c.replicas, () => c.slack.responseUrl());
      const { user, channel } = c.members[0] as (typeof c.members)[number];
      // The next whole minute at least 40 s ahead (UTC): time for the three requests below.
      const due = Math.ceil((Date.now() + 40_000) / 60_000) * 60_000;
      const at = new Date(due);
      const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
      const day = WEEKDAYS[at.getUTCDay()] as string;
      for (const text of [
        'settings timezone UTC',
        `subscribe digest daily ${time}`,
        `subscribe digest weekly ${day} ${time}`,
      ]) {
        const sent = await door.command(user, channel, text);
        expect(sent.status, text).toBe(200);
      }
      const posted = (kind: string) =>
        c.slack.messages.filter(
          (m) => m.channel === channel && !m.thread_ts && blocksText(m.blocks).includes(`${kind} digest ·`),
        );

      // A replica dies a few seconds before the digests are due.
      await sleep(Math.max(0, due - 3_000 - Date.now()));
      const victim = c.replicas[1] as (typeof c.replicas)[number];
      await victim.kill();
      door.out.add(victim.id);

      const deadline = due + 60_000;
      while (Date.now() < deadline && (posted('Daily').length < 1 || posted('Weekly').length < 1))
        // real-time-ok: the replicas are separate processes on the real clock; polls the fake Slack
        await sleep(250);
      // real-time-ok: a little longer on the real clock, so that a second copy would show up now
      await sleep(5_000);
      expect(posted('Daily'), 'daily digests in Slack').toHaveLength(1);
      expect(posted('Weekly'), 'weekly digests in Slack').toHaveLength(1);
      const period = at.toISOString().slice(0, 10);
      const store = await openPostgresStore({ url: c.databaseUrl, secretKey: c.secretKey });
      try {
        const rows = await store.digests.sent(`slack:${TEAM}:${channel}`);
        expect(rows.map((s) => `${s.kind} ${s.period}`).sort()).toEqual([
          `daily ${period}`,
          `weekly ${period}`,
        ]);
      } finally {
        await store.close();
      }
      passed = true;
    } finally {
      const keepLogs = !passed || !!process.env.KEEP_REPLICAS;
      if (keepLogs) console.info(`replica logs kept in ${c.dir}`);
      await c.close({ keepLogs });
    }
  }, 240_000);
});
