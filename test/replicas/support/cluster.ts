/**
 * Several reelbot replicas on one PostgreSQL database (DESIGN §9), as an operator runs them: each a child
 * process started like `npm start`, with its own PORT and REELBOT_REPLICA_ID and the same DATABASE_URL and
 * REELBOT_SECRET_KEY. Everything they talk to lives in THIS process, so it outlives any replica: a throwaway
 * PostgreSQL server (test/support/postgres.ts), the video API simulator (its ledger is the service's truth:
 * charges and posts per video), the fake Slack Web API and the fake Discord (REST and gateway).
 *
 * With `network`, each replica reaches PostgreSQL through its own endpoint of a TCP proxy (test/support/tcp-proxy.ts)
 * that adds a delay each way and can partition one replica from the database; each replica's sessions are named
 * `reelbot-<id>` (application_name), so `pg_stat_activity` tells whose session is whose.
 *
 * Members are linked before the replicas start: flow n is member `U<n>` in channel `C<n>`, two flows per team
 * key, so the per-key budget is shared by two flows and three replicas.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateApiKey,
  type SeedTeam,
  Simulator,
  type SimulatorProfile,
} from '../../../src/simulator/index.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { FakeDiscord } from '../../discord/fake-discord.js';
import { IDS, MEMBERS, TOKEN } from '../../discord/world.js';
import { FakeSlack } from '../../slack/fake-slack.js';
import { BOT_TOKEN, SIGNING_SECRET, TEAM } from '../../slack/world.js';
import type { DiscordSigner } from '../../support/ed25519.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { Replica } from './replica.js';

export interface ClusterOptions {
  replicas: number;
  flows: number;
  flowsPerKey: number;
  profile: SimulatorProfile;
  /** Simulator speed (job durations and its rate-limit windows ÷ speed). */
  speed: number;
  seed: number;
  /** PostgreSQL reached through a TCP proxy, one endpoint per replica, with this delay each way (ms). */
  network?: { delayMs: number };
  /**
   * Discord over HTTP interactions (DISCORD_PUBLIC_KEY, the signer's public key) instead of the gateway, and
   * every Discord member of test/discord/world.ts linked to the first team's key.
   */
  discordHttp?: DiscordSigner;
}

/** One member driving one flow in their own channel. */
export interface Member {
  n: number;
  /** Slack user id (`U<n>`) and channel id (`C<n>`). */
  user: string;
  channel: string;
  team: string;
}

export interface Cluster {
  replicas: Replica[];
  members: Member[];
  sim: Simulator;
  /** The simulator's base URL (`…/api/v1`) and each team's key, for reading what the service holds. */
  apiUrl: string;
  keys: Map<string, string>;
  /** Responses the simulator answered with 429, by method and path. */
  throttled: string[];
  slack: FakeSlack;
  discord: FakeDiscord;
  postgres: TestPostgres;
  /** The proxy between the replicas and PostgreSQL, with `network` (its clients are the replica ids). */
  proxy?: TcpProxy;
  /** The database, reached directly (not through the proxy). */
  databaseUrl: string;
  secretKey: Buffer;
  dir: string;
  /** Stops everything; the replicas' logs stay in `dir` with `keepLogs`. */
  close(options?: { keepLogs?: boolean }): Promise<void>;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-replicas-'));
  let keep = false;
  const closers: (() => Promise<void> | void)[] = [
    () => (keep ? undefined : rmSync(dir, { recursive: true, force: true })),
  ];
  const close = async (options: { keepLogs?: boolean } = {}) => {
    keep = options.keepLogs === true;
    for (const step of closers.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // Best effort: the rest must still be stopped.
      }
    }
  };
  try {
    const postgres = await startPostgres();
    closers.push(() => postgres.stop());
    const databaseUrl = await postgres.createDatabase();

    // ---- the service ----
    const members: Member[] = Array.from({ length: o.flows }, (_, i) => ({
      n: i + 1,
      user: `U${i + 1}`,
      channel: `C${i + 1}`,
      team: `Replica team ${Math.floor(i / o.flowsPerKey)}`,
    }));
    const teamNames = [...new Set(members.map((m) => m.team))];
    const keys = new Map(teamNames.map((t) => [t, generateApiKey()]));
    const teams: SeedTeam[] = teamNames.map((name, i) => ({
      name,
      credits: 100_000,
      projectCap: 1000,
      keys: [{ key: keys.get(name) as string }],
      accounts: { x: [{ authId: `acc_x_${i}`, label: `@replica${i}`, isDefault: true }] },
    }));
    const sim = new Simulator({ profile: o.profile, teams, randomSeed: o.seed, speed: o.speed });
    const throttled: string[] = [];
    const server: Server = createServer((req, res) => {
      res.once('finish', () => {
        if (res.statusCode === 429) throttled.push(`${req.method} ${req.url}`);
      });
      sim.handle(req, res);
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    );
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sim.setPublicBaseUrl(origin);

    // ---- the chat platforms ----
    const slack = await FakeSlack.start({
      users: Object.fromEntries(members.map((m) => [m.user, { name: `member${m.n}`, tz: 'UTC' }])),
    });
    closers.push(() => slack.close());
    const discord = await new FakeDiscord({
      token: TOKEN,
      applicationId: IDS.app,
      guildId: IDS.guild,
      channelId: IDS.channel,
    }).start();
    closers.push(() => discord.close());

    // ---- linked keys, sealed with the secret key every replica gets ----
    const secretKey = randomBytes(32);
    const seed = await openPostgresStore({ url: databaseUrl, secretKey });
    try {
      for (const m of members) {
        const key = keys.get(m.team) as string;
        await seed.keys.put(`slack:${TEAM}:${m.user}`, {
          apiKey: key,
          keyPrefix: key.slice(0, 12),
          teamId: m.team,
          teamName: m.team,
        });
      }
      const first = members[0] as Member;
      const firstKey = keys.get(first.team) as string;
      for (const member of o.discordHttp ? Object.values(MEMBERS) : []) {
        await seed.keys.put(`discord:${IDS.guild}:${member.id}`, {
          apiKey: firstKey,
          keyPrefix: firstKey.slice(0, 12),
          teamId: first.team,
          teamName: first.team,
        });
      }
    } finally {
      await seed.close();
    }

    // ---- the network to the database, and the replicas ----
    let proxy: TcpProxy | undefined;
    if (o.network) {
      const started = await startTcpProxy({
        target: { host: '127.0.0.1', port: postgres.port },
        delayMs: o.network.delayMs,
      });
      proxy = started;
      closers.push(() => started.close());
    }
    const replicaUrls = await Promise.all(
      Array.from({ length: o.replicas }, async (_, i) => {
        const id = `r${i + 1}`;
        const url = new URL(proxy ? await proxy.urlFor(id, databaseUrl) : databaseUrl);
        url.searchParams.set('application_name', `reelbot-${id}`);
        return url.toString();
      }),
    );
    const replicas = Array.from(
      { length: o.replicas },
      (_, i) =>
        new Replica(
          `r${i + 1}`,
          {
            DATABASE_URL: replicaUrls[i] as string,
            REELBOT_SECRET_KEY: secretKey.toString('base64'),
            REELBOT_REPLICA_ID: `r${i + 1}`,
            REELBOT_DATA_DIR: join(dir, `r${i + 1}`),
            // Debug: what a failure needs to be understood (the logs stay when the test fails).
            LOG_LEVEL: process.env.REPLICAS_LOG_LEVEL ?? 'debug',
            VIDEO_API_URL: `${origin}/api/v1`,
            SLACK_BOT_TOKEN: BOT_TOKEN,
            SLACK_SIGNING_SECRET: SIGNING_SECRET,
            SLACK_API_URL: slack.apiUrl,
            DISCORD_TOKEN: TOKEN,
            DISCORD_APPLICATION_ID: IDS.app,
            DISCORD_API_URL: `${discord.url}/api`,
            DISCORD_GUILD_ID: IDS.guild,
            ...(o.discordHttp ? { DISCORD_PUBLIC_KEY: o.discordHttp.publicKeyHex } : {}),
          },
          join(dir, `r${i + 1}.log`),
        ),
    );
    // Stopped before the servers they talk to (closers run in reverse).
    closers.push(() => Promise.all(replicas.map((r) => r.kill())).then(() => {}));
    await Promise.all(replicas.map((r) => r.start()));

    return {
      replicas,
      members,
      sim,
      apiUrl: `${origin}/api/v1`,
      keys,
      throttled,
      slack,
      discord,
      postgres,
      ...(proxy ? { proxy } : {}),
      databaseUrl,
      secretKey,
      dir,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
