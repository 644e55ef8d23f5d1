/**
 * One server under load for the ack-latency benchmark, in a process of its own (the load generator and the
 * fakes stay in the parent): the real Slack or Discord adapter over the real core, or the bare floor —
 * Bolt acknowledging and nothing else; a bare discord.js `Client` on the gateway replying `ok` at once (what
 * the issue names as Discord's floor); or an Ed25519-verifying HTTP handler answering at once (what the
 * `discord-interactions` package's `verifyKeyMiddleware` does with WebCrypto; the package is not installed).
 *
 *   node --import tsx bench/ack-latency/target.ts '<json TargetConfig>'   → prints `READY <url>`
 *
 * Gateway targets have no URL of their own (interactions come over their WebSocket to the fake Discord): they
 * print `READY gateway` once connected.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HTTPReceiver } from '@slack/bolt';
import { Client, Events, GatewayIntentBits, MessageFlags } from 'discord.js';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { createVideoApiFactory } from '../../src/api/index.js';
import { MODULES } from '../../src/core/commands/index.js';
import { createBot } from '../../src/core/dispatch/bot.js';
import type { Logger } from '../../src/core/ports/index.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { CatalogCache } from '../../src/core/video-api/catalog-cache.js';
import { createHttpServer } from '../../src/http/server.js';
import { openStore } from '../../src/store/sqlite-store.js';

export interface TargetConfig {
  kind:
    | 'slack-app'
    | 'slack-bare'
    | 'discord-app'
    | 'discord-bare'
    | 'discord-gateway-app'
    | 'discord-gateway-bare';
  signingSecret: string;
  botToken: string;
  slackApiUrl: string;
  /** Without `publicKey` the Discord adapter runs in gateway mode. */
  discord: { token: string; applicationId: string; publicKey?: string; apiUrl: string; guildId: string };
  apiUrl: string;
  /** Users to link (`slack:T:U` / `discord:G:U` addresses) and the key each one links. */
  users: { address: string; apiKey: string }[];
}

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const config = JSON.parse(process.argv[2] ?? '{}') as TargetConfig;

async function start(): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.kind === 'slack-bare') {
    const receiver = new HTTPReceiver({
      signingSecret: config.signingSecret,
      endpoints: '/slack/events',
      processBeforeResponse: false,
    });
    // Bolt's defaults, as the adapter runs it: the token is verified (`auth.test`) once, here. With
    // `tokenVerificationEnabled: false` Bolt calls `auth.test` before every event instead (each request's
    // `authorize`), and the floor's acknowledgements would wait on a round trip the adapter never makes.
    const app = new App({
      receiver,
      token: config.botToken,
      clientOptions: { slackApiUrl: config.slackApiUrl },
    });
    app.command(/.*/, async ({ ack }) => {
      await ack();
    });
    const server = (await app.start(0)) as Server;
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: async () => {
        await app.stop();
      },
    };
  }
  if (config.kind === 'discord-gateway-bare') {
    // The floor the issue names: a bare discord.js client answering every slash command at once.
    const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: config.discord.apiUrl } });
    client.on(Events.InteractionCreate, (i) => {
      if (i.isChatInputCommand()) void i.reply({ content: 'ok', flags: MessageFlags.Ephemeral });
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(config.discord.token);
    await ready;
    return { url: 'gateway', stop: () => client.destroy() };
  }
  if (config.kind === 'discord-bare') {
    const publicKey = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(config.discord.publicKey ?? '', 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const signature = String(req.headers['x-signature-ed25519'] ?? '');
        const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
        const valid = verify(
          null,
          Buffer.concat([Buffer.from(timestamp), body]),
          publicKey,
          Buffer.from(signature, 'hex'),
        );
        if (!valid) {
          res.writeHead(401).end();
          return;
        }
        const interaction = JSON.parse(body.toString()) as { type: number };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            interaction.type === 1 ? { type: 1 } : { type: 4, data: { content: 'ok', flags: 64 } },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  // The real thing: core, store and client as src/main.ts wires them, and the adapter on the shared server.
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-ack-'));
  const store = openStore({
    path: join(dir, 'reelbot.sqlite'),
    secretKey: randomBytes(32),
    clock: systemClock,
  });
  for (const { address, apiKey } of config.users) {
    await store.keys.put(address, { apiKey, keyPrefix: apiKey.slice(0, 12), teamId: 't', teamName: 'Team' });
  }
  const apiFor = createVideoApiFactory({ baseUrl: config.apiUrl, logger: silent });
  const bot = createBot(
    { store, apiFor, clock: systemClock, logger: silent, catalog: new CatalogCache(systemClock) },
    MODULES,
  );
  const http = createHttpServer({
    logger: silent,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const adapter =
    config.kind === 'slack-app'
      ? createSlackAdapter({
          config: {
            botToken: config.botToken,
            signingSecret: config.signingSecret,
            apiUrl: config.slackApiUrl,
          },
          bot,
          http,
          logger: silent,
          clock: systemClock,
          store,
        })
      : createDiscordAdapter({
          config: {
            token: config.discord.token,
            applicationId: config.discord.applicationId,
            // Gateway mode when absent: the adapter's start() resolves once discord.js has logged in.
            ...(config.kind === 'discord-app' && config.discord.publicKey
              ? { publicKey: config.discord.publicKey }
              : {}),
            apiUrl: config.discord.apiUrl,
            guildId: config.discord.guildId,
          },
          bot,
          http,
          store,
          logger: silent,
          clock: systemClock,
          registerOnStart: false,
          ...(process.env.BENCH_DEFER_MS ? { deferAfterMs: Number(process.env.BENCH_DEFER_MS) } : {}),
        });
  await adapter.start();
  const listening = config.kind === 'discord-gateway-app' ? undefined : await http.listen(0, '127.0.0.1');
  return {
    url: listening?.url ?? 'gateway',
    stop: async () => {
      await adapter.stop();
      if (listening) await http.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const running = await start();
process.stdout.write(`READY ${running.url}\n`);
process.on('SIGTERM', () => {
  void running.stop().finally(() => process.exit(0));
});
