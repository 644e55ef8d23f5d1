/**
 * The Discord adapter. Gateway mode by default: discord.js connects with the bot token and interactions
 * arrive as `interactionCreate` events. With `DISCORD_PUBLIC_KEY`, HTTP interactions instead, at
 * `POST /discord/interactions` on the shared server (Ed25519-verified); no gateway connection is needed.
 * Both feed the same handler (`interactions.ts`). `/reel` is registered at start (idempotent). The outbox
 * posts and edits long-lived cards through `sender` with the bot token over REST, so every replica sends; of
 * several replicas only the leader of `gatewayLeadership` holds the gateway session (gateway-session.ts).
 */
import { REST } from 'discord.js';
import type { Config } from '../../src/config.js';
import type {
  Bot,
  ChatAdapter,
  ChatCapabilities,
  Clock,
  Logger,
  Store,
  WorkspaceGate,
} from '../../src/core/index.js';
import type { HttpServer } from '../../src/http/server.js';
import { CommandRoutes } from './commands.js';
import { createGatewayClient, type GatewayClientOptions, loginError } from './gateway.js';
import { type GatewayLeadership, GatewaySession } from './gateway-session.js';
import { createInteractionsEndpoint, INTERACTIONS_PATH } from './http-endpoint.js';
import { createInteractionHandler } from './interactions.js';
import { DISCORD } from './limits.js';
import { loggable } from './log-error.js';
import { AdapterMemory } from './memory.js';
import { registerCommands } from './register.js';
import { DiscordRenderer } from './render.js';
import { createDiscordSender } from './sender.js';

export type DiscordConfig = NonNullable<Config['discord']>;

export interface DiscordAdapterOptions {
  config: DiscordConfig;
  bot: Bot;
  http: HttpServer;
  logger: Logger;
  clock: Clock;
  /** Where interaction state lives (forms, pages, long values), so any replica serves the next interaction. */
  store: Store;
  /** How long the core may take before an interaction is deferred (default 1.5 s of Discord's 3 s). */
  deferAfterMs?: number;
  /** Register `/reel` at start (default true). */
  registerOnStart?: boolean;
  /** Servers (and DMs) the bot serves; an interaction from any other is refused before the core runs. */
  gate?: WorkspaceGate;
  /** Replicas on one database: the gateway is connected only while this one leads (absent: always). */
  gatewayLeadership?: GatewayLeadership;
}

/** `start` registers the commands, then connects to the gateway (gateway mode; with leadership, while leading). */
export type DiscordAdapter = ChatAdapter;

/** Modals, ephemeral answers, threads, uploads, autocomplete and (Components V2) media galleries. */
export const DISCORD_CAPABILITIES: ChatCapabilities = {
  modals: true,
  ephemeral: true,
  threads: true,
  files: true,
  autocomplete: true,
  mediaGallery: true,
  maxInputLength: DISCORD.textInputValue,
  maxCommandLength: DISCORD.stringOptionMaxLength,
  sharesTimeZones: false,
  workspaceNoun: 'server',
  groupNoun: 'role',
  workspacelessDms: true,
};

const DEFAULTS = { deferAfterMs: 1_500, registerOnStart: true } as const;

/** A REST client for the configured API base (tests point `DISCORD_API_URL` at a local fake). */
export function createRest(
  config: DiscordConfig,
  extra: { rejectOnRateLimit?: boolean; retries?: number } = {},
): REST {
  return new REST({
    ...(config.apiUrl ? { api: config.apiUrl } : {}),
    // The outbox has its own retry policy and honours Retry-After: its client must fail fast instead of waiting.
    ...(extra.rejectOnRateLimit ? { rejectOnRateLimit: () => true } : {}),
    ...(extra.retries !== undefined ? { retries: extra.retries } : {}),
  }).setToken(config.token);
}

export function createDiscordAdapter(options: DiscordAdapterOptions): DiscordAdapter {
  const { config, bot, logger, clock } = options;
  const log = logger.child({ component: 'discord' });
  const settings = { ...DEFAULTS, ...withoutUndefined(options) };
  const memory = new AdapterMemory(options.store.interactions);
  const routes = new CommandRoutes(bot.commands);
  const rest = createRest(config);
  const senderRest = createRest(config, { rejectOnRateLimit: true, retries: 0 });
  const handle = createInteractionHandler({
    bot,
    rest,
    routes,
    memory,
    logger,
    clock,
    deferAfterMs: settings.deferAfterMs,
    // In HTTP mode the shared server counts interactions from their arrival, before they are even read.
    acks: options.http.acks,
    ...(options.gate ? { gate: options.gate } : {}),
  });
  const mode = config.publicKey ? 'http' : 'gateway';
  const session = gatewaySession({ ...options, rest, handle, log });
  let started = false;

  if (config.publicKey) {
    options.http.mount(
      INTERACTIONS_PATH,
      createInteractionsEndpoint({ publicKey: config.publicKey, clock, logger, handle }),
      { interactive: true },
    );
  }

  return {
    name: 'discord',
    capabilities: DISCORD_CAPABILITIES,
    sender: createDiscordSender({ rest: senderRest, render: new DiscordRenderer(memory, routes), logger }),

    async start() {
      if (settings.registerOnStart) await register({ config, bot, rest, log });
      if (mode === 'http') {
        log.info({ path: INTERACTIONS_PATH }, 'discord HTTP interactions ready');
        return;
      }
      started = true;
      await session.start();
    },

    async stop() {
      if (started) await session.stop();
      started = false;
    },
  };
}

/** The gateway connection, held by `GatewaySession` (only while this replica leads, with leadership). */
function gatewaySession(o: DiscordAdapterOptions & GatewayClientOptions): GatewaySession {
  const { config, rest, handle, log } = o;
  return new GatewaySession({
    async connect() {
      const client = createGatewayClient({ config, rest, handle, log });
      try {
        await client.login(config.token);
      } catch (error) {
        await client.destroy();
        throw loginError(error, config);
      }
      log.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'discord gateway connected');
      return client;
    },
    ...(o.gatewayLeadership ? { leadership: o.gatewayLeadership } : {}),
    clock: o.clock,
    log,
  });
}

/** Registers `/reel`; a failure is logged, not fatal. */
async function register(o: { config: DiscordConfig; bot: Bot; rest: REST; log: Logger }): Promise<void> {
  try {
    await registerCommands({
      rest: o.rest,
      applicationId: o.config.applicationId,
      guildId: o.config.guildId,
      commands: o.bot.commands,
      logger: o.log,
    });
  } catch (error) {
    // The commands registered last time keep working; the operator can rerun `npm run register-commands`.
    o.log.error({ err: loggable(error) }, 'discord command registration failed');
  }
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
