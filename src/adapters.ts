/**
 * Starts the chat adapters the configuration asks for, on the shared HTTP server, and registers each
 * one's `ChatSender` for the outbox. Part of the composition root. Slack and Discord are imported only
 * when configured: Bolt and discord.js cost about half a second and tens of MB at start-up
 * (docs/performance.md, cold start), which the demo playground does not need.
 */

import { createPlaygroundAdapter } from '../adapters/playground/index.js';
import type { Config } from './config.js';
import type { Bot } from './core/bot.js';
import type { ChatPlatform, ChatSender, Clock, Logger, Store } from './core/ports.js';
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
}

export interface StartedAdapters {
  /** Called when a command enqueued chat effects, so the outbox delivers at once. */
  onEnqueue(listener: () => void): void;
  stop(): Promise<void>;
}

export async function startAdapters(deps: AdapterDeps): Promise<StartedAdapters> {
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
    const slack = createSlackAdapter({
      config: deps.config.slack,
      bot,
      http: deps.http,
      logger: deps.logger,
      clock: deps.clock,
      store: deps.store,
      gate,
    });
    await slack.start();
    deps.senders.slack = slack.sender;
    stops.push(() => slack.stop());
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
    await discord.start();
    deps.senders.discord = discord.sender;
    stops.push(() => discord.stop());
  }

  return {
    onEnqueue: (listener) => listeners.push(listener),
    async stop() {
      for (const stop of stops.reverse()) await stop();
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
