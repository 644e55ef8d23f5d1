/**
 * Benchmark 1, ack latency: `requests` concurrent signed Slack slash commands against the Slack adapter's
 * HTTP endpoint, and as many Discord HTTP interactions (Ed25519-signed) against the Discord adapter's —
 * p50/p99 time from sending to the HTTP answer, against the framework's floor measured in the same run:
 * Bolt acknowledging and doing nothing else, and a bare Ed25519-verifying handler answering at once.
 * Targets and floors run in their own processes; the load generator, the simulator (its own process too)
 * and the fake Slack/Discord APIs are outside them. Rounds alternate floor and adapter.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { generateApiKey } from '../../src/simulator/index.js';
import { FakeDiscord } from '../../test/discord/fake-discord.js';
import { FakeSlack } from '../../test/slack/fake-slack.js';
import { discordSigner } from '../../test/support/ed25519.js';
import { type BenchResult, type Metric, metric } from '../lib/result.js';
import { startSimulatorProcess } from '../lib/sim-child.js';
import { median, percentile } from '../lib/stats.js';
import type { TargetConfig } from './target.js';

const ROOT = join(import.meta.dirname, '../..');
const ROUNDS = 5;
const COMMANDS = ['help', 'credits', 'videos'];
const SIGNING_SECRET = 'b3f1c0ffee5ca1ab1e0ddba11deadbeef';
const BOT_TOKEN = 'xoxb-100000000001-200000000002-benchbenchbenchbenchbenc';
const TEAM = 'T0BENCH';
const DISCORD = {
  token: 'MTMwMDAwMDAwMDAwMDAwMDAwMQ.bench.token',
  applicationId: '1300000000000000001',
  guildId: '1300000000000000100',
  channelId: '1300000000000000200',
};
const USERS = 20;
/** Member ids (snowflakes) as strings: they exceed a double's precision. */
const discordUser = (i: number) => `13000000000000006${String(i).padStart(2, '0')}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Target {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startTarget(config: TargetConfig): Promise<Target> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir> profiles each target (see docs/performance.md, "Profiling").
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--import',
      'tsx',
      'bench/ack-latency/target.ts',
      JSON.stringify(config),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err = (err + c.toString()).slice(-3000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${config.kind} exited (${code}): ${err}`)));
  });
  return {
    url,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

let snowflakes = 1_400_000_000_000_000_000n;
let triggers = 0;
const snowflake = () => String(++snowflakes);

interface Burst {
  latencies: number[];
  statuses: Record<string, number>;
}

async function burst(send: (i: number) => Promise<number>, count: number): Promise<Burst> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const t0 = performance.now();
      const status = await send(i).catch(() => 0);
      latencies.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }),
  );
  return { latencies, statuses };
}

export async function ackLatency(o: { requests: number; log(line: string): void }): Promise<BenchResult> {
  const started = Date.now();
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
  const fakeDiscord = await new FakeDiscord({ ...DISCORD, roles: [] }).start();
  const keys = discordSigner();
  const dispatcher = new Agent({ connections: o.requests + 10 });
  const base: Omit<TargetConfig, 'kind'> = {
    signingSecret: SIGNING_SECRET,
    botToken: BOT_TOKEN,
    slackApiUrl: fakeSlack.apiUrl,
    discord: {
      ...DISCORD,
      publicKey: keys.publicKeyHex,
      apiUrl: fakeDiscord.apiUrl,
    },
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
  const discordAnswers: Record<string, number> = {};
  const discordSend = (url: string, record: boolean) => async (i: number) => {
    const id = snowflake();
    const payload = {
      app_permissions: '562949953421311',
      application_id: DISCORD.applicationId,
      channel: { id: DISCORD.channelId, guild_id: DISCORD.guildId, name: 'bench', type: 0 },
      channel_id: DISCORD.channelId,
      data: {
        id: '1300000000000000300',
        name: 'reel',
        type: 1,
        options: [{ name: COMMANDS[i % COMMANDS.length], type: 1 }],
      },
      guild_id: DISCORD.guildId,
      id,
      locale: 'en-US',
      member: {
        permissions: '562949953421311',
        roles: [],
        user: {
          id: discordUser(i % USERS),
          username: `user${i % USERS}`,
          global_name: null,
          discriminator: '0',
        },
      },
      token: `token-${id}`,
      type: 2,
      version: 1,
    };
    fakeDiscord.register(payload);
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = keys.sign(timestamp, body);
    const res = await fetch(`${url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
      body,
      dispatcher,
    } as RequestInit);
    const answer = (await res.json().catch(() => ({}))) as { type?: number };
    if (record) discordAnswers[String(answer.type)] = (discordAnswers[String(answer.type)] ?? 0) + 1;
    return res.status;
  };

  try {
    for (const platform of ['slack', 'discord'] as const) {
      if (platform === 'slack' ? !haveSlack : !haveDiscord) continue;
      o.log(
        `ack-latency: ${platform}, ${ROUNDS} rounds of ${o.requests} concurrent requests, floor and adapter alternating…`,
      );
      const floor = await startTarget({ ...base, kind: `${platform}-bare` });
      const app = await startTarget({ ...base, kind: `${platform}-app` });
      const pooled = { floor: [] as number[], app: [] as number[] };
      const perRound = { floor: [] as number[][], app: [] as number[][] };
      const statuses: Record<string, Record<string, number>> = { floor: {}, app: {} };
      let answered = 0;
      const answerWaits: number[] = [];
      try {
        const sendTo = (t: Target, isApp: boolean) =>
          platform === 'slack' ? slackSend(t.url) : discordSend(t.url, isApp);
        // Warm both: connections, JIT, the core's first commands.
        for (const [t, isApp] of [
          [floor, false],
          [app, true],
        ] as const) {
          for (let i = 0; i < 10; i++) await sendTo(t, false)(i);
          void isApp;
        }
        await sleep(500);
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? (['floor', 'app'] as const) : (['app', 'floor'] as const);
          for (const which of order) {
            const target = which === 'app' ? app : floor;
            const responsesBefore = fakeSlack.responses.length;
            const result = await burst(sendTo(target, which === 'app'), o.requests);
            pooled[which].push(...result.latencies);
            perRound[which].push(result.latencies);
            for (const [s, n] of Object.entries(result.statuses))
              statuses[which]![s] = (statuses[which]![s] ?? 0) + n;
            if (platform === 'slack' && which === 'app') {
              // Every command is answered on its response_url after the ack; wait for them before the next burst.
              const waitStarted = Date.now();
              for (let i = 0; i < 600 && fakeSlack.responses.length - responsesBefore < o.requests; i++)
                await sleep(100);
              answered += fakeSlack.responses.length - responsesBefore;
              answerWaits.push(Date.now() - waitStarted);
            }
            await sleep(500);
          }
        }
      } finally {
        await floor.stop();
        await app.stop();
      }
      const p = (list: number[], q: number) => Math.round(percentile(list, q) * 10) / 10;
      const label = platform === 'slack' ? 'Slack' : 'Discord';
      // A neighbour's burst of CPU can spoil one round: the target is judged on the median of the
      // per-round ratios (each round's adapter burst against the floor burst next to it).
      const roundRatio = (q: number) =>
        median(perRound.app.map((app, i) => percentile(app, q) / percentile(perRound.floor[i] ?? [], q)));
      const r50 = roundRatio(50);
      const r99 = roundRatio(99);
      metrics.push(
        metric(`${label}: ack p50 (pooled)`, p(pooled.app, 50), 'ms', { baseline: p(pooled.floor, 50) }),
        metric(`${label}: ack p99 (pooled)`, p(pooled.app, 99), 'ms', {
          baseline: p(pooled.floor, 99),
          target: '≪ 3000 ms',
          pass: p(pooled.app, 99) < 3000,
        }),
        metric(`${label}: p50 ratio, median of rounds`, r50, '×', { target: '≤ 1.2', pass: r50 <= 1.2 }),
        metric(`${label}: p99 ratio, median of rounds`, r99, '×', { target: '≤ 1.2', pass: r99 <= 1.2 }),
      );
      details[platform] = { statuses, samples: pooled.app.length, floorSamples: pooled.floor.length };
      if (platform === 'slack') {
        notes.push(
          `Slack: the last response_url answer of each adapter burst came ${answerWaits.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} after the burst's last ack.`,
        );
        metrics.push(
          metric('Slack: commands answered on response_url', answered, 'commands', {
            target: `${ROUNDS * o.requests}`,
            pass: answered === ROUNDS * o.requests,
          }),
        );
      } else {
        details.discordAnswers = discordAnswers;
        notes.push(
          `Discord answers by interaction response type (4 = message, 5 = deferred): ${JSON.stringify(discordAnswers)}.`,
        );
      }
      notes.push(
        `${label} HTTP statuses: adapter ${JSON.stringify(statuses.app)}, floor ${JSON.stringify(statuses.floor)}.`,
      );
    }
  } finally {
    await dispatcher.close();
    await fakeSlack.close();
    await fakeDiscord.close();
    await sim.close();
  }
  notes.unshift(
    `${ROUNDS} rounds × ${o.requests} concurrent requests per target (commands ${COMMANDS.join(', ')} in turn, ${USERS} users), floor and adapter alternating; latency = send → HTTP answer, pooled over the rounds.`,
    "Slack: Bolt acknowledges (empty 200) before the core runs; the answer follows on response_url. Discord (HTTP interactions): the first answer IS the HTTP response, so it carries the core's work, deferred (type 5) when the core takes longer than the adapter's budget.",
  );
  return {
    name: 'ack-latency',
    title: 'Ack latency: Slack slash commands and Discord interactions',
    measured: haveSlack || haveDiscord,
    baseline: 'bare Bolt acking / bare Ed25519 handler answering at once, same run',
    metrics,
    notes,
    durationMs: Date.now() - started,
    details,
  };
}
