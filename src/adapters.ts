/**
 * Creates the chat adapters the configuration asks for, mounting their routes on the shared HTTP server;
 * `start()` then opens their outbound connections (Slack Socket Mode, Discord gateway, command registration)
 * and registers each one's `ChatSender` for the outbox. Part of the composition root: `src/main.ts` listens
 * between the two, so a slow platform never leaves `/healthz` unanswered. Slack and Discord are imported only
 * when configured: Bolt and discord.js cost about half a second and tens of MB at start-up
 * (docs/performance.md, cold start), which the demo playground does not need.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { createPlaygroundAdapter } from '../adapters/playground/index.js';
import type { Config } from './config.js';
import type { Bot } from './core/bot.js';
import type { ChatPlatform, ChatSender, Clock, Logger, Store } from './core/ports.js';
import { WorkspaceGate } from './core/workspace-gate.js';
import type { Handler, HttpServer } from './http/server.js';

export interface AdapterDeps {
  config: Config;
  bot: Bot;
  store: Store;
  http: HttpServer;
  logger: Logger;
  clock: Clock;
  /** Filled with each started adapter's sender. */
  senders: Partial<Record<ChatPlatform, ChatSender>>;
}

export interface ChatAdapters {
  /** Opens the outbound connections and registers the senders; call once the HTTP server listens. */
  start(): Promise<void>;
  /** Called when a command enqueued chat effects, so the outbox delivers at once. */
  onEnqueue(listener: () => void): void;
  /** Stops what was started (safe after a failed or missing `start`). */
  stop(): Promise<void>;
}

export async function createAdapters(deps: AdapterDeps): Promise<ChatAdapters> {
  const starts: (() => Promise<void>)[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  const listeners: (() => void)[] = [];
  const nudge = () => {
    for (const l of listeners) l();
  };
  const bot = withNudge(deps.bot, nudge);

  if (deps.config.playground) {
    const playground = createPlaygroundAdapter({
      bot,
      http: deps.http,
      logger: deps.logger,
      clock: deps.clock,
    });
    deps.senders.playground = playground.sender;
    stops.push(() => playground.close());
  }

  // One gate for every platform: REELBOT_WORKSPACES names the workspaces the bot serves.
  const gate = new WorkspaceGate({ workspaces: deps.config.REELBOT_WORKSPACES, logger: deps.logger });
  if (deps.config.slack) {
    const { createSlackAdapter } = await import('../adapters/slack/index.js');
    let ready = false;
    const slack = createSlackAdapter({
      config: deps.config.slack,
      bot,
      // Bolt takes no event before its init (in start): until then Slack is asked to retry.
      http: untilReady(deps.http, () => ready),
      logger: deps.logger,
      clock: deps.clock,
      store: deps.store,
      gate,
    });
    starts.push(async () => {
      stops.push(() => slack.stop());
      await slack.start();
      ready = true;
      deps.senders.slack = slack.sender;
    });
  }

  if (deps.config.discord) {
    const { createDiscordAdapter } = await import('../adapters/discord/index.js');
    const discord = createDiscordAdapter({
      config: deps.config.discord,
      bot,
      http: deps.http,
      logger: deps.logger,
      clock: deps.clock,
      gate,
    });
    starts.push(async () => {
      stops.push(() => discord.stop());
      await discord.start();
      deps.senders.discord = discord.sender;
    });
  }

  return {
    async start() {
      for (const start of starts.splice(0)) await start();
    },
    onEnqueue: (listener) => listeners.push(listener),
    async stop() {
      for (const stop of stops.splice(0).reverse()) await stop();
    },
  };
}

/** The server as one adapter mounts on it: its routes answer 503 (Retry-After 1) until `ready()`. */
function untilReady(http: HttpServer, ready: () => boolean): HttpServer {
  const gated =
    (handler: Handler): Handler =>
    (req: IncomingMessage, res: ServerResponse) => {
      if (ready()) return handler(req, res);
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
      res.end('starting');
    };
  return {
    mount: (path, handler, options) => http.mount(path, gated(handler), options),
    get acks() {
      return http.acks;
    },
    listen: (port, host) => http.listen(port, host),
    close: () => http.close(),
    get server() {
      return http.server;
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
    handleCommand: after(bot.handleCommand),
    mayAnswerWithForm: (name) => bot.mayAnswerWithForm(name),
    handleAction: after(bot.handleAction),
    handleForm: after(bot.handleForm),
    autocomplete: bot.autocomplete,
  };
}
