/**
 * Creates the chat adapters the configuration asks for, mounting their routes on the shared HTTP server;
 * `start()` then opens their outbound connections (Slack Socket Mode, Discord gateway, command registration)
 * and registers each one's `ChatSender` for the outbox. Part of the composition root: `src/main.ts` listens
 * between the two, so a slow platform never leaves `/healthz` unanswered. Slack and Discord are imported only
 * when configured: Bolt and discord.js cost about half a second and tens of MB at start-up
 * (docs/performance.md, cold start), which the demo playground does not need.
 */
import type { GatewayLeadership } from '../adapters/discord/gateway-session.js';
import type { Config } from './config.js';
import type { Bot } from './core/bot.js';
import type { ChatAdapter, ChatPlatform, ChatSender, Clock, Logger, Store } from './core/ports.js';
import { WorkspaceGate } from './core/workspace-gate.js';
import type { HttpServer } from './http/server.js';

export interface AdapterDeps {
  config: Config;
  bot: Bot;
  store: Store;
  http: HttpServer;
  logger: Logger;
  clock: Clock;
  /** Filled with each started adapter's sender. */
  senders: Partial<Record<ChatPlatform, ChatSender>>;
  /** Replicas sharing a database: the Discord gateway session is held only while this one leads. */
  gatewayLeadership?: GatewayLeadership;
}

export interface ChatAdapters {
  /** Opens the outbound connections and registers the senders; call once the HTTP server listens. */
  start(): Promise<void>;
  /** Called when a command enqueued chat effects, so the outbox delivers at once. */
  onEnqueue(listener: () => void): void;
  /** Stops what was started (safe after a failed or missing `start`). */
  stop(): Promise<void>;
}

/** What every adapter factory is given: the deps, the bot that nudges the outbox, the one workspace gate. */
type FactoryDeps = Omit<AdapterDeps, 'senders'> & { gate: WorkspaceGate };

/** A platform: its part of the configuration (absent: not configured) and how to create its adapter. */
interface AdapterEntry {
  create(deps: FactoryDeps): Promise<ChatAdapter> | undefined;
}

/** Typed per entry: `create` gets the configuration part `configOf` found, and runs only when there is one. */
function entry<T>(
  configOf: (config: Config) => T | undefined,
  create: (part: T, deps: FactoryDeps) => Promise<ChatAdapter>,
): AdapterEntry {
  return {
    create(deps) {
      const part = configOf(deps.config);
      return part === undefined ? undefined : create(part, deps);
    },
  };
}

/** Every platform; each adapter module is imported only when configured. */
const ADAPTERS: readonly AdapterEntry[] = [
  entry(
    (config) => (config.playground ? {} : undefined),
    async (_, { bot, http, logger, clock }) =>
      (await import('../adapters/playground/index.js')).createPlaygroundAdapter({ bot, http, logger, clock }),
  ),
  entry(
    (config) => config.slack,
    async (slack, { bot, http, logger, clock, store, gate }) =>
      (await import('../adapters/slack/index.js')).createSlackAdapter({
        config: slack,
        ...{ bot, http, logger, clock, store, gate },
      }),
  ),
  entry(
    (config) => config.discord,
    async (discord, { bot, http, logger, clock, store, gate, gatewayLeadership }) =>
      (await import('../adapters/discord/index.js')).createDiscordAdapter({
        config: discord,
        ...{ bot, http, logger, clock, store, gate },
        ...(gatewayLeadership ? { gatewayLeadership } : {}),
      }),
  ),
];

export async function createAdapters(deps: AdapterDeps): Promise<ChatAdapters> {
  const listeners: (() => void)[] = [];
  const bot = withNudge(deps.bot, () => {
    for (const listener of listeners) listener();
  });
  // One gate for every platform: REELBOT_WORKSPACES names the workspaces the bot serves.
  const gate = new WorkspaceGate({ workspaces: deps.config.REELBOT_WORKSPACES, logger: deps.logger });
  const adapters: ChatAdapter[] = [];
  for (const platform of ADAPTERS) {
    const adapter = await platform.create({ ...deps, bot, gate });
    if (adapter) adapters.push(adapter);
  }
  const started: ChatAdapter[] = [];
  return {
    async start() {
      for (const adapter of adapters) {
        started.push(adapter);
        await adapter.start();
        deps.senders[adapter.name] = adapter.sender;
      }
    },
    onEnqueue: (listener) => listeners.push(listener),
    async stop() {
      for (const adapter of started.splice(0).reverse()) await adapter.stop();
    },
  };
}

/** Every handled interaction may have queued cards: nudge the outbox sender after each one. */
function withNudge(bot: Bot, nudge: () => void): Bot {
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } finally {
        nudge();
      }
    };
  return {
    commands: bot.commands,
    handleText: after(bot.handleText),
    handleTooLong: bot.handleTooLong,
    handleCommand: after(bot.handleCommand),
    mayAnswerWithForm: (name) => bot.mayAnswerWithForm(name),
    handleAction: after(bot.handleAction),
    handleForm: after(bot.handleForm),
    autocomplete: bot.autocomplete,
  };
}
