/**
 * The composition root: the only file that knows every concrete class (DESIGN §1). Reads the
 * configuration, starts the embedded simulator in demo mode, opens the store, wires the core, the poller,
 * the outbox sender and every configured chat adapter onto one HTTP server, and stops it all cleanly.
 */
import { existsSync } from 'node:fs';
import { createAdapters } from './adapters.js';
import type { createVideoApiFactory } from './api/index.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { EFFECT_RUNNERS, MODULES } from './core/commands/index.js';
import { createBot } from './core/dispatch/bot.js';
import type { CoreDeps } from './core/dispatch/context.js';
import { errorMessage } from './core/dispatch/describe-error.js';
import { effectsSweep } from './core/effects/reconcile.js';
import { WATCHERS } from './core/live/watchers.js';
import type { ChatPlatform, ChatSender, Logger, Store } from './core/ports/index.js';
import { systemClock } from './core/time/system-clock.js';
import { CatalogCache, keyId } from './core/video-api/catalog-cache.js';
import { createHttpServer, type HttpServer } from './http/server.js';
import { createLogger, logMask, maskVerbatim } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { Runner } from './poller/index.js';
import type { ReplicaRegistry } from './replicas/registry.js';
import type { RunningSimulator } from './simulator/index.js';
import { openData } from './startup/data.js';
import type { StartOptions, Startup } from './startup/startup.js';
import { videoApi } from './startup/video-api.js';
import type { PostgresStore } from './store/postgres/postgres-store.js';

type ApiFactory = ReturnType<typeof createVideoApiFactory>;

export type { StartOptions } from './startup/startup.js';
export { SIMULATOR_STATE_FILE } from './startup/video-api.js';

/** A start-up failure with a sentence for the operator (port taken, platform unreachable…). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

/** Configuration values that are secrets: every log line masks them verbatim, whatever their shape. */
const SECRET_VARIABLES = [
  'VIDEO_API_KEY',
  'REELBOT_SECRET_KEY',
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
  'DISCORD_TOKEN',
  'METRICS_TOKEN',
] as const satisfies readonly (keyof Config)[];

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export async function startApp(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions = {},
): Promise<RunningApp> {
  const config = loadConfig(env);
  for (const secret of SECRET_VARIABLES) maskVerbatim(config[secret]);
  const logger = createLogger({ level: config.LOG_LEVEL });
  for (const warning of config.warnings) logger.warn({}, warning);
  // Everything started is stopped in reverse order, on Ctrl-C or when a later step of start-up fails.
  const teardown: (() => Promise<void> | void)[] = [];
  const stopAll = async () => {
    for (const step of teardown.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        logger.warn({ err: error }, 'stopping a component failed');
      }
    }
  };
  try {
    return await start({
      config,
      logger,
      teardown,
      stopAll,
      clock: options.clock ?? systemClock,
      metrics: createMetrics(),
      options,
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function start(s: Startup): Promise<RunningApp> {
  const { config, logger, teardown } = s;
  if (s.options.fresh && !config.demo) {
    throw new StartupError(
      '--fresh starts the demo over; with VIDEO_API_URL set there is no demo to start over (nothing was removed).',
    );
  }
  // The data directory first: its lock keeps a second process from loading (and then saving) the demo's state.
  const store = await openData(s);
  const api = await videoApi(s);
  const deps: CoreDeps = {
    store,
    apiFor: api.apiFor,
    clock: s.clock,
    logger,
    logMask,
    catalog: new CatalogCache(s.clock),
    metrics: { command: (command, outcome) => s.metrics.commands.inc({ command, outcome }) },
    ...(api.deploymentKey ? { deploymentKey: api.deploymentKey } : {}),
    ...(api.serviceSpeed !== 1 ? { serviceSpeed: api.serviceSpeed } : {}),
    ...(config.REELBOT_WORKSPACES ? { deploymentKeyWorkspaces: config.REELBOT_WORKSPACES } : {}),
  };
  const bot = createBot(deps, MODULES);
  const replica = api.replicas.id;
  const lease = await gatewayLeadership(s, store, replica);
  // The gateway session's holder: the lease's leader with several replicas, this process alone on SQLite.
  const gateway = () => (!gatewayMode(config) ? 'none' : !lease || lease.isLeader() ? 'holder' : 'standby');

  let phase: 'starting' | 'running' | 'stopped' = 'starting';
  const http = createHttpServer({
    logger,
    host: config.HOST,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    health: () => (phase === 'starting' ? 'starting' : phase === 'running'),
    about: () => ({ replica, store: config.DATABASE_URL ? 'postgres' : 'sqlite', gateway: gateway() }),
    metrics: async () => {
      // With the database unreachable the rest still answers; the outbox depth keeps its last value.
      await store.outbox.depth().then(
        (depth) => s.metrics.outboxDepth.set(depth),
        () => {},
      );
      s.metrics.gatewayLeader.set(gateway() === 'holder' ? 1 : 0);
      return { contentType: s.metrics.registry.contentType, body: await s.metrics.registry.metrics() };
    },
  });
  const senders: Partial<Record<ChatPlatform, ChatSender>> = {};
  const adapters = await createAdapters({
    ...{ config, bot, store, http, logger, clock: s.clock, senders },
    ...(lease ? { gatewayLeadership: lease } : {}),
  });
  teardown.push(() => adapters.stop());
  const runner = backgroundRunner(s, { deps, senders, apiFor: api.apiFor, replicas: api.replicas });
  adapters.onEnqueue(() => runner.nudge());

  const listening = await listen(http, config);
  teardown.push(() => http.close());
  // Reachable first: a slow Slack or Discord connection leaves /healthz answering "starting", and nothing is
  // delivered before the bot can be reached.
  await adapters.start();
  runner.start();
  teardown.push(() => runner.stop());
  phase = 'running';
  const { demo, playground } = config;
  logger.info(
    { url: listening.url, demo, playground, slack: !!config.slack, discord: !!config.discord },
    'reelbot is ready',
  );
  banner({ config, url: listening.url, simulator: api.simulator, logger });
  return {
    url: listening.url,
    async stop() {
      phase = 'stopped';
      await s.stopAll();
    },
  };
}

/** Discord over the gateway (not HTTP interactions): one session per deployment. */
const gatewayMode = (config: Config) => config.discord !== undefined && !config.discord.publicKey;

/**
 * With several replicas (PostgreSQL) and a Discord gateway, the lease that decides which one holds the session;
 * undefined otherwise (one process holds it). Started and stopped by the Discord adapter.
 */
async function gatewayLeadership(s: Startup, store: Store, replica: string) {
  if (!s.config.DATABASE_URL || !gatewayMode(s.config)) return undefined;
  const { gatewayLease } = await import('./replicas/gateway-lease.js');
  return gatewayLease({
    pool: (store as PostgresStore).pool, // DATABASE_URL: openData opened a PostgresStore
    replica,
    clock: s.clock,
    logger: s.logger,
    ...(s.options.leaderTtlMs !== undefined ? { ttlMs: s.options.leaderTtlMs } : {}),
    onChange: (leading) => s.metrics.gatewayLeaseChanges.inc({ role: leading ? 'leader' : 'follower' }),
  });
}

/** The poller, the outbox sender and the pending-effects sweep, on the deps' store and keys. */
function backgroundRunner(
  s: Startup,
  wiring: {
    deps: CoreDeps;
    senders: Partial<Record<ChatPlatform, ChatSender>>;
    apiFor: ApiFactory;
    replicas: ReplicaRegistry;
  },
): Runner {
  const { store, deploymentKey } = wiring.deps;
  const { apiFor } = wiring;
  const { clock, logger, metrics } = s;
  const keyOf = async (owner: string) => (owner ? (await store.keys.get(owner))?.apiKey : deploymentKey);
  return new Runner({
    poller: {
      store,
      watchers: WATCHERS,
      apiFor: async (owner) => {
        const key = await keyOf(owner);
        return key ? apiFor(key) : undefined;
      },
      // Every background check is one GET: ask the key's shared budget what one would wait now.
      budgetDelay: async (owner, _kind, urgency) => {
        const key = await keyOf(owner);
        return key ? apiFor.budgets.forKey(key).delayFor('GET /videos/:id/status', 'background', urgency) : 0;
      },
      clock,
      logger,
      // Demo mode: the embedded simulator's jobs run SIM_SPEED times faster, and their watches look as often.
      serviceSpeed: wiring.deps.serviceSpeed ?? 1,
      concurrency: 64,
      holder: wiring.replicas.id,
      metrics: {
        checked: () => {},
        lag: (_kind, ms) => metrics.pollLag.observe(ms / 1000),
        claims: (claimed, taken) => {
          metrics.watchClaims.inc({ outcome: 'claimed' }, claimed);
          metrics.watchClaims.inc({ outcome: 'taken' }, taken);
        },
        leaseLost: () => metrics.watchLeasesLost.inc(),
      },
    },
    sender: {
      store,
      senders: wiring.senders,
      clock,
      logger,
      metrics: {
        delivery: (platform, op, outcome) => metrics.chatDeliveries.inc({ platform, op, outcome }),
      },
    },
    sweeps: [effectsSweep(wiring.deps, EFFECT_RUNNERS)],
  });
}

async function listen(http: HttpServer, config: Config) {
  return await http.listen(config.PORT, config.HOST).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new StartupError(
        `PORT ${config.PORT} is already in use: stop the other process or set PORT to a free port.`,
      );
    }
    throw error;
  });
}

function banner(shown: {
  config: Config;
  url: string;
  simulator: RunningSimulator | undefined;
  logger: Logger;
}) {
  const { config, url, simulator, logger } = shown;
  const lines = [
    '',
    `  reelbot is running${config.demo ? ' in demo mode (embedded video API simulator)' : ''}.`,
    ...(config.playground ? [`  Playground: ${url}/`] : []),
    `  Health: ${url}/healthz   Metrics: ${url}/metrics`,
    ...(simulator ? [`  Simulator API: ${simulator.url}`] : []),
    ...(simulator && !config.DATABASE_URL
      ? [
          `  Demo data: kept in ${config.REELBOT_DATA_DIR} across restarts (npm start -- --fresh starts over).`,
        ]
      : []),
    ...(config.LOG_LEVEL === 'warn' && config.demo
      ? ['  Logs: warnings and errors only (LOG_LEVEL=info for more).']
      : []),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  logger.debug({ keyId: simulator ? keyId(simulator.keys[0] ?? '') : undefined }, 'demo key created');
}

async function main() {
  // `.env` is read too (DESIGN §2); variables already set in the environment win.
  if (existsSync('.env')) process.loadEnvFile?.('.env');
  let app: RunningApp;
  try {
    app = await startApp(process.env, { fresh: process.argv.slice(2).includes('--fresh') });
  } catch (error) {
    // One sentence for the operator (DESIGN §2); the stack only when asked for with LOG_LEVEL=debug.
    const message = errorMessage(error);
    process.stderr.write(`reelbot cannot start: ${message}\n`);
    if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\nStopping (${signal})…\n`);
    await app.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
