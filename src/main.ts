/**
 * The composition root: the only file that knows every concrete class (DESIGN §1). Reads the
 * configuration, starts the embedded simulator in demo mode, opens the store, wires the core, the poller,
 * the outbox sender and every configured chat adapter onto one HTTP server, and stops it all cleanly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createAdapters } from './adapters.js';
import { createVideoApiFactory } from './api/index.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createBot } from './core/bot.js';
import { CatalogCache, keyId } from './core/catalog-cache.js';
import { EFFECT_RUNNERS } from './core/commands/effect-runners.js';
import { MODULES } from './core/commands/index.js';
import type { CoreDeps } from './core/context.js';
import { errorMessage } from './core/describe-error.js';
import { reconcileEffects } from './core/effects/reconcile.js';
import { WATCHERS } from './core/live/watchers.js';
import { type ChatPlatform, type ChatSender, type Logger, systemClock } from './core/ports.js';
import { createHttpServer } from './http/server.js';
import { createLogger, maskVerbatim } from './observability/logger.js';
import { createMetrics, videoApiHooks } from './observability/metrics.js';
import { Runner } from './poller/index.js';
import { demoTeam, generateApiKey, type RunningSimulator, startSimulator } from './simulator/index.js';
import { lockDataDir } from './store/data-dir-lock.js';
import { loadSecretKey } from './store/secret-key.js';
import { openStore } from './store/sqlite-store.js';

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

/** How often remote writes whose local record failed are looked for (also once at start-up). */
const EFFECT_SWEEP_MS = 30_000;

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export async function startApp(env: Record<string, string | undefined> = process.env): Promise<RunningApp> {
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
    return await start(config, logger, teardown, stopAll);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function start(
  config: Config,
  logger: Logger,
  teardown: (() => Promise<void> | void)[],
  stopAll: () => Promise<void>,
): Promise<RunningApp> {
  const clock = systemClock;
  const metrics = createMetrics();

  // Demo mode: the simulator serves the API in-process with a fresh team key.
  let simulator: RunningSimulator | undefined;
  let baseUrl = config.VIDEO_API_URL;
  let deploymentKey = config.VIDEO_API_KEY;
  if (config.demo) {
    const demoKey = deploymentKey ?? generateApiKey();
    const sim = await startSimulator({
      port: 0,
      speed: config.SIM_SPEED,
      profile: config.SIM_PROFILE,
      teams: [demoTeam(demoKey)],
    });
    teardown.push(() => sim.close());
    simulator = sim;
    baseUrl = sim.url;
    deploymentKey = demoKey;
  }

  const apiFor = createVideoApiFactory({
    baseUrl: baseUrl as string,
    logger,
    onKey: maskVerbatim,
    ...videoApiHooks(metrics),
  });
  const lock = lockDataDir(config.REELBOT_DATA_DIR);
  teardown.push(() => lock.release());
  const store = openStore({
    path: join(config.REELBOT_DATA_DIR, 'reelbot.sqlite'),
    secretKey: loadSecretKey({
      env: config.REELBOT_SECRET_KEY,
      dataDir: config.REELBOT_DATA_DIR,
      warn: (message) => logger.warn({}, message),
    }),
    clock,
    logger,
  });
  teardown.push(() => store.close());

  const deps: CoreDeps = {
    store,
    apiFor,
    clock,
    logger,
    catalog: new CatalogCache(clock),
    metrics: { command: (command, outcome) => metrics.commands.inc({ command, outcome }) },
    ...(deploymentKey ? { deploymentKey } : {}),
    ...(config.REELBOT_WORKSPACES ? { deploymentKeyWorkspaces: config.REELBOT_WORKSPACES } : {}),
  };
  const bot = createBot(deps, MODULES);

  let phase: 'starting' | 'running' | 'stopped' = 'starting';
  const http = createHttpServer({
    logger,
    host: config.HOST,
    ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    health: () => (phase === 'starting' ? 'starting' : phase === 'running'),
    metrics: async () => {
      metrics.outboxDepth.set(store.outbox.depth());
      return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
    },
  });

  const senders: Partial<Record<ChatPlatform, ChatSender>> = {};
  const adapters = await createAdapters({ config, bot, store, http, logger, clock, senders });
  teardown.push(() => adapters.stop());

  const runner = new Runner({
    poller: {
      store,
      watchers: WATCHERS,
      apiFor: (owner) => {
        const key = owner ? store.keys.get(owner)?.apiKey : deploymentKey;
        return key ? apiFor(key) : undefined;
      },
      // Every background check is one GET: ask the key's shared budget what one would wait now.
      budgetDelay: (owner, _kind, urgency) => {
        const key = owner ? store.keys.get(owner)?.apiKey : deploymentKey;
        return key ? apiFor.budgets.forKey(key).delayFor('GET /videos/:id/status', 'background', urgency) : 0;
      },
      clock,
      logger,
      concurrency: 64,
      metrics: {
        checked: () => {},
        lag: (_kind, ms) => metrics.pollLag.observe(ms / 1000),
      },
    },
    sender: {
      store,
      senders,
      clock,
      logger,
      metrics: {
        delivery: (platform, op, outcome) => metrics.chatDeliveries.inc({ platform, op, outcome }),
      },
    },
    sweeps: [
      { name: 'effects', intervalMs: EFFECT_SWEEP_MS, run: () => reconcileEffects(deps, EFFECT_RUNNERS) },
    ],
  });
  adapters.onEnqueue(() => runner.nudge());

  const listening = await http.listen(config.PORT, config.HOST).catch((error: unknown) => {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new StartupError(
        `PORT ${config.PORT} is already in use: stop the other process or set PORT to a free port.`,
      );
    }
    throw error;
  });
  teardown.push(() => http.close());
  // Reachable first: a slow Slack or Discord connection leaves /healthz answering "starting", and nothing is
  // delivered before the bot can be reached.
  await adapters.start();
  runner.start();
  teardown.push(() => runner.stop());
  phase = 'running';
  logger.info(
    {
      url: listening.url,
      demo: config.demo,
      playground: config.playground,
      slack: !!config.slack,
      discord: !!config.discord,
    },
    'reelbot is ready',
  );
  banner(config, listening.url, simulator, logger);

  return {
    url: listening.url,
    async stop() {
      phase = 'stopped';
      await stopAll();
    },
  };
}

function banner(config: Config, url: string, simulator: RunningSimulator | undefined, logger: Logger) {
  const lines = [
    '',
    `  reelbot is running${config.demo ? ' in demo mode (embedded video API simulator)' : ''}.`,
    ...(config.playground ? [`  Playground: ${url}/`] : []),
    `  Health: ${url}/healthz   Metrics: ${url}/metrics`,
    ...(simulator ? [`  Simulator API: ${simulator.url}`] : []),
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
    app = await startApp();
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
