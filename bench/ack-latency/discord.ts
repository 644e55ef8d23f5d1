/**
 * The Discord half of the ack-latency benchmark, two ways an interaction reaches the bot:
 *
 * - Gateway (judged): the fake Discord dispatches INTERACTION_CREATE over its WebSocket; the ack is the
 *   interaction's first callback reaching the fake REST API (`POST /interactions/{id}/{token}/callback`).
 *   Floor: a bare discord.js `Client` replying `ok` at once — what the issue names.
 * - HTTP interactions (informational): Ed25519-signed POSTs to the adapter's `/discord/interactions`; the ack
 *   is the HTTP answer. Floor: a bare `node:http` handler that verifies the signature and answers at once.
 *
 * Each gateway target has a fake Discord of its own: the fake gateway dispatches to every connected session.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from 'undici';
import type { FakeInteraction } from '../../test/discord/fake-discord.js';
import { FakeDiscord } from '../../test/discord/fake-discord.js';
import { discordSigner } from '../../test/support/ed25519.js';
import { type Metric, metric } from '../lib/result.js';
import { median, percentile, round } from '../lib/stats.js';
import {
  alternate,
  COMMANDS,
  latencyMetrics,
  ROOT,
  sleep,
  startTarget,
  type Target,
  USERS,
  type Which,
} from './common.js';
import type { TargetConfig } from './target.js';

export const DISCORD = {
  token: 'MTMwMDAwMDAwMDAwMDAwMDAwMQ.bench.token',
  applicationId: '1300000000000000001',
  guildId: '1300000000000000100',
  channelId: '1300000000000000200',
};
/** Member ids (snowflakes) as strings: they exceed a double's precision. */
export const discordUser = (i: number) => `13000000000000006${String(i).padStart(2, '0')}`;
/** An interaction not acknowledged by then counts as a failure (Discord itself gives up after 3 s). */
const ACK_TIMEOUT_MS = 15_000;
/** How long a deferred answer's follow-up (webhook edit) may take before the next burst starts anyway. */
const FOLLOW_UP_TIMEOUT_MS = 10_000;

export interface PartResult {
  metrics: Metric[];
  notes: string[];
  details: Record<string, unknown>;
}

type Base = Omit<TargetConfig, 'kind'>;

let snowflakes = 1_400_000_000_000_000_000n;
const snowflake = () => String(++snowflakes);

/** A slash command interaction as Discord sends it, recorded from the real thing (test/discord/fixtures). */
const FIXTURE = JSON.parse(
  readFileSync(join(ROOT, 'test/discord/fixtures/chat-input.json'), 'utf8'),
) as Record<string, unknown> & { member: { user: Record<string, unknown> } };

/**
 * `/reel <help|credits|videos>` from one of the linked members (both modes). The full payload matters on the
 * gateway: discord.js reads fields (e.g. `entitlements`) that a trimmed one lacks, and throws.
 */
function interactionPayload(i: number) {
  const id = snowflake();
  return {
    ...FIXTURE,
    data: {
      id: '1300000000000000300',
      name: 'reel',
      type: 1,
      options: [{ name: COMMANDS[i % COMMANDS.length], type: 1 }],
    },
    id,
    member: {
      ...FIXTURE.member,
      roles: [],
      user: {
        ...FIXTURE.member.user,
        id: discordUser(i % USERS),
        username: `user${i % USERS}`,
        global_name: null,
      },
    },
    token: `token-${id}`,
  };
}

const count = (into: Record<string, number>, key: string | number) => {
  into[key] = (into[key] ?? 0) + 1;
};

/**
 * Waits until every record's deferred answer (type 5) has its follow-up (edit, follow-up or delete), so one
 * target's leftover work does not run during the next burst. Bounded: a missing follow-up is not the ack.
 */
async function settled(records: readonly FakeInteraction[]): Promise<void> {
  const deadline = performance.now() + FOLLOW_UP_TIMEOUT_MS;
  const pending = () => records.some((r) => r.callbacks[0]?.type === 5 && r.events.length < 2);
  while (performance.now() < deadline && pending()) await sleep(10);
}

const json = (v: unknown) => JSON.stringify(v);

// ---- gateway ----------------------------------------------------------------------------------------------

export async function discordGateway(o: {
  requests: number;
  /** Bursts per target (floor and adapter alternating). */
  rounds: number;
  base: Base;
  log(line: string): void;
}): Promise<PartResult> {
  o.log(
    `ack-latency: discord gateway, ${o.rounds} rounds of ${o.requests} interactions dispatched at once, floor and adapter alternating…`,
  );
  const fakes: Record<Which, FakeDiscord> = {
    floor: await new FakeDiscord({ ...DISCORD, roles: [] }).start(),
    app: await new FakeDiscord({ ...DISCORD, roles: [] }).start(),
  };
  const config = (which: Which): TargetConfig => ({
    ...o.base,
    kind: which === 'app' ? 'discord-gateway-app' : 'discord-gateway-bare',
    discord: { ...o.base.discord, apiUrl: fakes[which].apiUrl },
  });
  const answers: Record<Which, Record<string, number>> = { floor: {}, app: {} };
  const missing: Record<Which, number> = { floor: 0, app: 0 };
  const dispatchMs: number[] = [];
  /** Latencies by subcommand: `help` answers from memory, `credits` and `videos` call the API first. */
  const byCommand: Record<Which, Record<string, number[]>> = { floor: {}, app: {} };

  /** Dispatches `n` interactions in one synchronous loop; latency = first callback − that one's dispatch. */
  const burst = async (which: Which, n: number, record: boolean): Promise<number[]> => {
    const fake = fakes[which];
    const payloads = Array.from({ length: n }, (_, i) => interactionPayload(i));
    const sent: { record: FakeInteraction; at: number }[] = [];
    const started = performance.now();
    for (const payload of payloads) {
      const at = performance.now();
      sent.push({ record: fake.dispatchInteraction(payload), at });
    }
    if (record) dispatchMs.push(performance.now() - started);
    const deadline = performance.now() + ACK_TIMEOUT_MS;
    while (performance.now() < deadline && sent.some((s) => s.record.firstCallbackAt === undefined))
      await sleep(5);
    const latencies: number[] = [];
    for (const [i, s] of sent.entries()) {
      if (s.record.firstCallbackAt === undefined) {
        if (record) missing[which]++;
        continue;
      }
      const latency = s.record.firstCallbackAt - s.at;
      latencies.push(latency);
      if (!record) continue;
      count(answers[which], String(s.record.callbacks[0]?.type));
      const command = COMMANDS[i % COMMANDS.length] as string;
      byCommand[which][command] = [...(byCommand[which][command] ?? []), latency];
    }
    await settled(sent.map((s) => s.record));
    return latencies;
  };

  let rounds: Awaited<ReturnType<typeof alternate>>;
  let floor: Target | undefined;
  let app: Target | undefined;
  try {
    floor = await startTarget(config('floor'));
    app = await startTarget(config('app'));
    // Warm both, one at a time: the gateway session, the REST client's connections, JIT, the core's commands.
    for (const which of ['floor', 'app'] as const) {
      for (let i = 0; i < 10; i++) {
        if ((await burst(which, 1, false)).length === 0)
          throw new Error(
            `discord gateway ${which}: no answer to a warm-up interaction in ${ACK_TIMEOUT_MS} ms`,
          );
      }
    }
    await sleep(500);
    rounds = await alternate(o.rounds, (which) => burst(which, o.requests, true));
  } finally {
    await floor?.stop();
    await app?.stop();
    await fakes.floor.close();
    await fakes.app.close();
  }

  const label = 'Discord gateway';
  const metrics = [
    ...latencyMetrics(label, rounds, true),
    metric(
      `${label}: interactions not acknowledged in ${ACK_TIMEOUT_MS / 1000} s`,
      missing.app,
      'interactions',
      // The floor's count is in the notes: a baseline of 0 would only print an n/a ratio.
      { target: '0', pass: missing.app === 0 },
    ),
  ];
  const sendMs = median(dispatchMs);
  const floorP50 = percentile(rounds.pooled.floor, 50);
  const p50s = (which: Which) =>
    Object.fromEntries(
      Object.entries(byCommand[which]).map(([c, list]) => [c, round(percentile(list, 50), 1)]),
    );
  const notes = [
    `Discord gateway: ${o.rounds} rounds × ${o.requests} INTERACTION_CREATE dispatched at once by the fake gateway, each target on a fake Discord of its own; latency = dispatch → the interaction's first callback reaching the fake REST API. Floor: a bare discord.js Client replying "ok" (ephemeral) at once.`,
    // The fake sends every dispatch of a burst in one synchronous loop (JSON.stringify + ws.send each): if
    // that loop were a large part of the floor's latency, the ratio would compare the fake, not the targets.
    `Discord gateway: the fake sends a burst's ${o.requests} dispatches in one synchronous loop of ws.send — median ${round(sendMs, 1)} ms (max ${round(Math.max(...dispatchMs), 1)} ms) per burst against a floor p50 of ${round(floorP50, 1)} ms, ${sendMs > floorP50 / 2 ? "so the fake's sending DOMINATES the latency (the floor sees the same, so the ratio stays fair, but the absolute numbers say little)" : 'so the sending does not dominate: the latency is discord.js reading the frames one by one and the REST callbacks, the same work in both targets'}.`,
    `Discord gateway: p50 by subcommand, adapter ${json(p50s('app'))} vs floor ${json(p50s('floor'))} — the adapter acknowledges first (type 5), so the API calls of credits and videos come after the acknowledgement.`,
    `Discord gateway answers by callback type (4 = message, 5 = deferred): adapter ${json(answers.app)}, floor ${json(answers.floor)}; not acknowledged in ${ACK_TIMEOUT_MS / 1000} s: adapter ${missing.app}, floor ${missing.floor}.`,
  ];
  return {
    metrics,
    notes,
    details: {
      answers,
      missing,
      dispatchMs: dispatchMs.map((ms) => round(ms, 2)),
      p50ByCommand: { app: p50s('app'), floor: p50s('floor') },
      samples: rounds.pooled.app.length,
      floorSamples: rounds.pooled.floor.length,
    },
  };
}

// ---- HTTP interactions ------------------------------------------------------------------------------------

export async function discordHttp(o: {
  requests: number;
  /** Bursts per target (floor and adapter alternating). */
  rounds: number;
  base: Base;
  dispatcher: Agent;
  log(line: string): void;
}): Promise<PartResult> {
  o.log(
    `ack-latency: discord HTTP interactions, ${o.rounds} rounds of ${o.requests} concurrent requests, floor and adapter alternating…`,
  );
  const fake = await new FakeDiscord({ ...DISCORD, roles: [] }).start();
  const keys = discordSigner();
  const config = (kind: TargetConfig['kind']): TargetConfig => ({
    ...o.base,
    kind,
    discord: { ...o.base.discord, apiUrl: fake.apiUrl, publicKey: keys.publicKeyHex },
  });
  const answers: Record<Which, Record<string, number>> = { floor: {}, app: {} };
  const statuses: Record<Which, Record<string, number>> = { floor: {}, app: {} };

  const send = async (url: string, i: number) => {
    const payload = interactionPayload(i);
    const record = fake.register(payload);
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': keys.sign(timestamp, body),
        'x-signature-timestamp': timestamp,
      },
      body,
      dispatcher: o.dispatcher,
    } as RequestInit);
    const answer = (await res.json().catch(() => ({}))) as { type?: number };
    // The HTTP answer is the first response: the fake learns of it so the adapter's follow-ups are accepted.
    if (typeof answer.type === 'number') fake.applyCallback(record.id, record.token, answer);
    return { status: res.status, type: answer.type, record };
  };

  const burst = async (target: Target, which: Which): Promise<number[]> => {
    const latencies: number[] = [];
    const records: FakeInteraction[] = [];
    await Promise.all(
      Array.from({ length: o.requests }, async (_, i) => {
        const t0 = performance.now();
        const result = await send(target.url, i).catch(() => undefined);
        latencies.push(performance.now() - t0);
        count(statuses[which], result?.status ?? 0);
        count(answers[which], String(result?.type));
        if (result) records.push(result.record);
      }),
    );
    await settled(records);
    return latencies;
  };

  let rounds: Awaited<ReturnType<typeof alternate>>;
  let floor: Target | undefined;
  let app: Target | undefined;
  try {
    floor = await startTarget(config('discord-bare'));
    app = await startTarget(config('discord-app'));
    const targets = { floor, app };
    for (const t of [targets.floor, targets.app]) for (let i = 0; i < 10; i++) await send(t.url, i);
    await sleep(500);
    rounds = await alternate(o.rounds, (which) => burst(targets[which], which));
  } finally {
    await floor?.stop();
    await app?.stop();
    await fake.close();
  }

  const label = 'Discord HTTP (info, floor: bare node:http)';
  return {
    metrics: latencyMetrics(label, rounds, false),
    notes: [
      `Discord HTTP interactions (informational): ${o.rounds} rounds × ${o.requests} concurrent Ed25519-signed POSTs to /discord/interactions; latency = send → HTTP answer. Its ratios have no target: the floor — a bare node:http handler verifying the signature and answering — does nothing else, while the adapter reads the body through the shared server's routing, verifies, validates the payload and routes it before its acknowledgement (type 5). Only "p99 ≪ 3000 ms" is judged.`,
      `Discord HTTP answers by interaction response type (4 = message, 5 = deferred): adapter ${json(answers.app)}, floor ${json(answers.floor)}.`,
      `Discord HTTP statuses: adapter ${json(statuses.app)}, floor ${json(statuses.floor)}.`,
    ],
    details: {
      answers,
      statuses,
      samples: rounds.pooled.app.length,
      floorSamples: rounds.pooled.floor.length,
    },
  };
}
