/** Gateway mode: a discord.js client whose interactions feed the handler, answered through REST callbacks. */
import { Client, Events, GatewayIntentBits, type Interaction, type REST, Routes } from 'discord.js';
import type { Logger } from '../../src/core/index.js';
import { fromGateway } from './inbound/from-gateway.js';
import type { Inbound } from './inbound.js';
import type { DiscordConfig } from './index.js';
import type { Replier } from './interactions.js';
import { loggable } from './log-error.js';

export interface GatewayClientOptions {
  config: DiscordConfig;
  /** Sends the interaction callbacks (the first responses). */
  rest: REST;
  handle: (inbound: Inbound, reply: Replier) => Promise<void>;
  log: Logger;
}

/** A client not yet logged in, its interactions wired to `handle`. */
export function createGatewayClient(options: GatewayClientOptions): Client {
  const { config, rest, handle, log } = options;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    ...(config.apiUrl ? { rest: { api: config.apiUrl } } : {}),
  });
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    const reply: Replier = {
      async callback(response) {
        await rest.post(Routes.interactionCallback(interaction.id, interaction.token), {
          body: response,
          auth: false,
        });
      },
    };
    let inbound: Inbound;
    try {
      inbound = fromGateway(interaction);
    } catch (error) {
      log.error({ err: loggable(error) }, 'discord interaction unreadable');
      return;
    }
    void handle(inbound, reply);
  });
  client.on(Events.Error, (error) => log.error({ err: loggable(error) }, 'discord client error'));
  return client;
}

/** A failed login, with the fix: a refused connection is the network or DISCORD_API_URL, not the token. */
export function loginError(error: unknown, config: DiscordConfig): Error {
  const code = (error as { code?: string }).code ?? '';
  const unreachable = ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET'].includes(code);
  const detail = error instanceof Error ? error.message : String(error);
  return new Error(
    unreachable
      ? `Discord is unreachable (${detail}): check the network${config.apiUrl ? ' and DISCORD_API_URL' : ''}.`
      : `Discord login failed (${detail}): check DISCORD_TOKEN.`,
  );
}
