/**
 * The composition root: the only file that knows every concrete class (DESIGN §1). Reads the
 * configuration, starts the embedded simulator in demo mode, opens the store, wires the core, the poller,
 * the outbox sender and every configured chat adapter onto one HTTP server, and stops it all cleanly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startAdapters } from './adapters.js';
import { createVideoApiFactory } from './api/index.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createBot } from './core/bot.js';
import { CatalogCache, keyId } from './core/catalog-cache.js';
import { MODULES } from './core/commands/index.js';
import type { CoreDeps } from './core/context.js';
import { WATCHERS } from './core/live/watchers.js';
import { type ChatPlatform, type ChatSender, type Logger, systemClock } from './core/ports.js';
import { createHttpServer } from './http/server.js';
import { createLogger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { Runner } from './poller/index.js';
import { demoTeam, generateApiKey, type RunningSimulator, startSimulator } from './simulator/index.js';
import { loadSecretKey } from './store/secret-key.js';
import { openStore } from './store/sqlite-store.js';

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export async function startApp(env: Record<string, string | undefined> = process.env): Promise<RunningApp> {
  const config = loadConfig(env);
  const logger = createLogger({ level: config.LOG_LEVEL });
  const clock = systemClock;
  const metrics = createMetrics();

  // Demo mode: the simulator serves the API in-process with a fresh team key.
  let simulator: RunningSimulator | undefined;
  let baseUrl = config.VIDEO_API_URL;
  let deploymentKey = config.VIDEO_API_KEY;
  if (config.demo) {
    const demoKey = deploymentKey ?? generateApiKey();
    simulator = await startSimulator({ port: 0, speed: config.SIM_SPEED, teams: [demoTeam(demoKey)] });
    baseUrl = simulator.url;
    deploymentKey = demoKey;
  }

  const apiFor = createVideoApiFactory({
    baseUrl: baseUrl as string,
    logger,
    onResponse: (e) => {
      metrics.apiCalls.inc({ method: e.method, route: e.route, status: String(e.status) });
      metrics.apiLatency.observe({ route: e.route }, e.durationMs / 1000);
    },
  });
  const store = openStore({
    path: join(config.REELBOT_DATA_DIR, 'reelbot.sqlite'),
    secretKey: loadSecretKey({ env: config.REELBOT_SECRET_KEY, dataDir: config.REELBOT_DATA_DIR }),
    clock,
    logger,
  });

  const deps: CoreDeps = {
    store,
    apiFor,
    clock,
    logger,
    catalog: new CatalogCache(clock),
    metrics: { command: (command, outcome) => metrics.commands.inc({ command, outcome }) },
    ...(deploymentKey ? { deploymentKey } : {}),
  };
  const bot = createBot(deps, MODULES);

  const http = createHttpServer({
    logger,
    health: () => running,
    metrics: async () => {
      metrics.outboxDepth.set(store.outbox.depth());
      return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
    },
  });

  const senders: Partial<Record<ChatPlatform, ChatSender>> = {};
  const adapters = await startAdapters({ config, bot, store, http, logger, clock, senders });

  const runner = new Runner({
    poller: {
      store,
      watchers: WATCHERS,
      apiFor: (owner) => {
        const key = owner ? store.keys.get(owner)?.apiKey : deploymentKey;
        return key ? apiFor(key) : undefined;
      },
      // Every background check is one GET: ask the key's shared budget what one would wait now.
      budgetDelay: (owner) => {
        const key = owner ? store.keys.get(owner)?.apiKey : deploymentKey;
        return key ? apiFor.budgets.forKey(key).delayFor('GET /videos/:id/status', 'background') : 0;
      },
      clock,
      logger,
      concurrency: 8,
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
  });
  adapters.onEnqueue(() => runner.nudge());
  runner.start();

  const listening = await http.listen(config.PORT, config.HOST);
  let running = true;
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
      running = false;
      await adapters.stop();
      await runner.stop();
      await http.close();
      store.close();
      await simulator?.close();
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
    if (error instanceof ConfigError) {
      process.stderr.write(`reelbot cannot start: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
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
