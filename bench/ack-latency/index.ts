/**
 * Benchmark 1, ack latency: `requests` concurrent signed Slack slash commands against the Slack adapter's
 * HTTP endpoint, and as many Discord interactions — p50/p99 time to ack against the framework's floor measured
 * in the same run: Bolt acknowledging and doing nothing else; for Discord (discord.ts) a bare discord.js client
 * on the gateway (judged, what the issue names) and, informational, a bare Ed25519-verifying HTTP handler.
 * Targets and floors run in their own processes; the load generator, the simulator (its own process too)
 * and the fake Slack/Discord APIs are outside them. Rounds alternate floor and adapter.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { generateApiKey } from '../../src/simulator/index.js';
import { FakeSlack } from '../../test/slack/fake-slack.js';
import { type BenchResult, type Metric, metric } from '../lib/result.js';
import { startSimulatorProcess } from '../lib/sim-child.js';
import { alternate, COMMANDS, latencyMetrics, ROOT, ROUNDS, sleep, startTarget, USERS } from './common.js';
import { DISCORD, discordGateway, discordHttp, discordUser } from './discord.js';
import type { TargetConfig } from './target.js';

const SIGNING_SECRET = 'b3f1c0ffee5ca1ab1e0ddba11deadbeef';
const BOT_TOKEN = 'xoxb-100000000001-200000000002-benchbenchbenchbenchbenc';
const TEAM = 'T0BENCH';

let triggers = 0;

export async function ackLatency(o: {
  requests: number;
  /** Bursts per target (default ROUNDS); fewer for a quick look. */
  rounds?: number;
  log(line: string): void;
}): Promise<BenchResult> {
  const started = Date.now();
  const roundCount = o.rounds ?? ROUNDS;
  const haveSlack = existsSync(join(ROOT, 'adapters/slack/index.ts'));
  const haveDiscord = existsSync(join(ROOT, 'adapters/discord/index.ts'));
  const notes: string[] = [];
  const metrics: Metric[] = [];
  const details: Record<string, unknown> = {};
  if (!haveSlack) notes.push('Slack: NOT MEASURED — adapters/slack/index.ts does not exist yet.');
  if (!haveDiscord) notes.push('Discord: NOT MEASURED — adapters/discord/index.ts does not exist yet.');

  // One team (key) per user, as in real use many people on many teams: no one key's rate budget is the
  // bottleneck of the answers.
  const apiKeys = Array.from({ length: USERS }, () => generateApiKey());
  const sim = await startSimulatorProcess({
    start: Date.now(),
    scaled: { realStart: Date.now(), scale: 1 },
    randomSeed: 9,
    teams: apiKeys.map((key, i) => ({ name: `Bench team ${i}`, keys: [{ key }] })),
  });
  const slackUsers = Object.fromEntries(
    Array.from({ length: USERS }, (_, i) => [
      `U${String(i).padStart(6, '0')}`,
      { name: `user${i}`, tz: 'Europe/Paris' },
    ]),
  );
  const fakeSlack = await FakeSlack.start({ users: slackUsers, team: { id: TEAM, name: 'Bench' } });
  const dispatcher = new Agent({ connections: o.requests + 10 });
  const base: Omit<TargetConfig, 'kind'> = {
    signingSecret: SIGNING_SECRET,
    botToken: BOT_TOKEN,
    slackApiUrl: fakeSlack.apiUrl,
    // Each Discord measurement points `apiUrl` at a fake of its own (and adds the public key for HTTP mode).
    discord: { ...DISCORD, apiUrl: '' },
    apiUrl: sim.url,
    users: [
      ...Object.keys(slackUsers).map((u, i) => ({
        address: `slack:${TEAM}:${u}`,
        apiKey: apiKeys[i] as string,
      })),
      ...apiKeys.map((apiKey, i) => ({ address: `discord:${DISCORD.guildId}:${discordUser(i)}`, apiKey })),
    ],
  };

  const slackSend = (url: string) => async (i: number) => {
    const user = `U${String(i % USERS).padStart(6, '0')}`;
    const body = new URLSearchParams({
      token: 'verification-token-unused',
      team_id: TEAM,
      team_domain: 'bench',
      channel_id: 'C0BENCH',
      channel_name: 'bench',
      user_id: user,
      user_name: `user${i % USERS}`,
      command: '/reel',
      text: COMMANDS[i % COMMANDS.length] as string,
      api_app_id: 'A0BENCH',
      is_enterprise_install: 'false',
      response_url: fakeSlack.responseUrl(),
      // Unique per request: the adapter treats a repeated trigger id as Slack retrying the same command.
      trigger_id: `${7_000_000_000_000 + ++triggers}.1.${triggers.toString(16).padStart(32, 'a')}`,
    }).toString();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const res = await fetch(`${url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': signature,
      },
      body,
      dispatcher,
    } as RequestInit);
    await res.arrayBuffer();
    return res.status;
  };

  try {
    if (haveSlack) {
      o.log(
        `ack-latency: slack, ${roundCount} rounds of ${o.requests} concurrent requests, floor and adapter alternating…`,
      );
      const floor = await startTarget({ ...base, kind: 'slack-bare' });
      const app = await startTarget({ ...base, kind: 'slack-app' });
      const statuses: Record<string, Record<string, number>> = { floor: {}, app: {} };
      let answered = 0;
      const answerWaits: number[] = [];
      let rounds: Awaited<ReturnType<typeof alternate>>;
      try {
        // Warm both: connections, JIT, the core's first commands.
        for (const t of [floor, app]) for (let i = 0; i < 10; i++) await slackSend(t.url)(i);
        await sleep(500);
        rounds = await alternate(roundCount, async (which) => {
          const responsesBefore = fakeSlack.responses.length;
          const send = slackSend(which === 'app' ? app.url : floor.url);
          const latencies: number[] = [];
          await Promise.all(
            Array.from({ length: o.requests }, async (_, i) => {
              const t0 = performance.now();
              const status = await send(i).catch(() => 0);
              latencies.push(performance.now() - t0);
              statuses[which]![status] = (statuses[which]![status] ?? 0) + 1;
            }),
          );
          if (which === 'app') {
            // Every command is answered on its response_url after the ack; wait for them before the next burst.
            const waitStarted = Date.now();
            for (let i = 0; i < 600 && fakeSlack.responses.length - responsesBefore < o.requests; i++)
              await sleep(100);
            answered += fakeSlack.responses.length - responsesBefore;
            answerWaits.push(Date.now() - waitStarted);
          }
          return latencies;
        });
      } finally {
        await floor.stop();
        await app.stop();
      }
      metrics.push(
        ...latencyMetrics('Slack', rounds, true),
        metric('Slack: commands answered on response_url', answered, 'commands', {
          target: `${roundCount * o.requests}`,
          pass: answered === roundCount * o.requests,
        }),
      );
      details.slack = {
        statuses,
        samples: rounds.pooled.app.length,
        floorSamples: rounds.pooled.floor.length,
      };
      notes.push(
        `Slack: the last response_url answer of each adapter burst came ${answerWaits.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after the burst's last ack.`,
        `Slack HTTP statuses: adapter ${JSON.stringify(statuses.app)}, floor ${JSON.stringify(statuses.floor)}.`,
      );
    }
    if (haveDiscord) {
      const gateway = await discordGateway({ requests: o.requests, rounds: roundCount, base, log: o.log });
      const http = await discordHttp({
        requests: o.requests,
        rounds: roundCount,
        base,
        dispatcher,
        log: o.log,
      });
      for (const part of [gateway, http]) {
        metrics.push(...part.metrics);
        notes.push(...part.notes);
      }
      details.discordGateway = gateway.details;
      details.discordHttp = http.details;
    }
  } finally {
    await dispatcher.close();
    await fakeSlack.close();
    await sim.close();
  }
  notes.unshift(
    `${roundCount} rounds × ${o.requests} concurrent requests per target (commands ${COMMANDS.join(', ')} in turn, ${USERS} users), floor and adapter alternating; ratios are the median of per-round ratios (each adapter burst against the floor burst next to it), p50/p99 pooled over the rounds.`,
    'Slack: Bolt acknowledges (empty 200) before the core runs; the answer follows on response_url. Discord: a command that cannot open a form is acknowledged first (type 5, private "thinking…") and answered by an edit; the floors answer "ok" at once. Both adapters start a command\'s work once the requests of the burst around it are acknowledged (src/http/ack-gate.ts).',
  );
  return {
    name: 'ack-latency',
    title: 'Ack latency: Slack slash commands and Discord interactions',
    measured: haveSlack || haveDiscord,
    baseline: 'bare Bolt acking / bare discord.js Client replying at once (gateway), same run',
    metrics,
    notes,
    durationMs: Date.now() - started,
    details,
  };
}
