/**
 * The one code path from an interaction (gateway or HTTP, see `inbound.ts`) to the core and back.
 *
 * Discord wants a first response within 3 seconds and allows a modal only as that first response. The core's
 * answer is awaited for `deferAfterMs`; if it is ready, it is the first response (a modal for a form). If not,
 * the interaction is deferred (a private "thinking…" for commands, a silent acknowledgement for clicks) and the
 * answer follows through the interaction's webhook, its visibility following the core's: a channel answer
 * after a private deferral goes out as a public follow-up; a form becomes a button that opens it.
 *
 * This file dispatches; each kind is answered in `interactions/` (`command.ts`, `autocomplete.ts`,
 * `component.ts`, `modal.ts`), the timing above in `interactions/respond.ts`.
 */
import { type APIInteractionResponse, InteractionResponseType, type REST } from 'discord.js';
import type { Clock, Logger } from '../../src/core/index.js';
import { type Bot, errorCard, refusedWhere, say, type WorkspaceGate } from '../../src/core/index.js';
import { AckGate } from '../../src/http/ack-gate.js';
import type { CommandRoutes } from './commands.js';
import type { Inbound, InboundBase } from './inbound.js';
import { DISCORD_CAPABILITIES } from './index.js';
import { answerAutocomplete } from './interactions/autocomplete.js';
import { answerCommand } from './interactions/command.js';
import { answerComponent } from './interactions/component.js';
import type { InteractionContext } from './interactions/context.js';
import { answerModal } from './interactions/modal.js';
import { cardOf, expired, privately } from './interactions/payloads.js';
import { failedInteraction } from './log-error.js';
import type { AdapterMemory } from './memory.js';
import { DiscordRenderer } from './render.js';
import { DM_WORKSPACE } from './request-info.js';

/** How the first response leaves: a REST callback (gateway) or the HTTP answer (HTTP interactions). */
export interface Replier {
  callback(body: APIInteractionResponse): Promise<void>;
}

export interface InteractionHandlerOptions {
  bot: Bot;
  /** Sends follow-ups and edits through the interaction's webhook (no bot token needed). */
  rest: REST;
  routes: CommandRoutes;
  memory: AdapterMemory;
  logger: Logger;
  /** Times the deferral and autocomplete deadlines. */
  clock: Clock;
  /** How long to wait for the core before deferring (Discord's window is 3 s); 0 always defers. */
  deferAfterMs: number;
  /** Autocomplete answers nothing after this long (default 2.5 s). */
  autocompleteTimeoutMs?: number;
  /** Acknowledgements pending (shared with the HTTP server in HTTP mode); a private one by default. */
  acks?: AckGate;
  /** Servers (and DMs) the bot serves (`REELBOT_WORKSPACES`); others are refused before the core runs. */
  gate?: WorkspaceGate;
}

/** Autocomplete's default deadline, inside Discord's 3 s. */
const AUTOCOMPLETE_TIMEOUT_MS = 2_500;

export function createInteractionHandler(o: InteractionHandlerOptions) {
  const ctx = contextOf(o);
  const allowed = (i: InboundBase): boolean => o.gate?.allows('discord', i.guildId ?? DM_WORKSPACE) ?? true;

  /** Handles one interaction; never throws (failures are logged and, when still possible, answered). */
  return async function handle(inbound: Inbound, reply: Replier): Promise<void> {
    let answered = false;
    const acknowledged = ctx.acks.arrived();
    const once: Replier = {
      async callback(response) {
        answered = true;
        try {
          await reply.callback(response);
        } finally {
          acknowledged();
        }
      },
    };
    try {
      if (inbound.kind !== 'ping' && !allowed(inbound)) {
        return await refuse(ctx, inbound, once);
      }
      return await dispatch(ctx, inbound, once);
    } catch (error) {
      const failed = failedInteraction(ctx.log, error, inbound);
      if (!answered && inbound.kind !== 'ping') {
        const card = await ctx.render.card(cardOf(failed)).catch(() => undefined);
        if (card) await privately(reply, card).catch(() => {});
      }
    } finally {
      acknowledged();
    }
  };
}

function contextOf(o: InteractionHandlerOptions): InteractionContext {
  return {
    bot: o.bot,
    rest: o.rest,
    routes: o.routes,
    memory: o.memory,
    clock: o.clock,
    log: o.logger.child({ component: 'discord' }),
    acks: o.acks ?? new AckGate(o.clock),
    render: new DiscordRenderer(o.memory, o.routes),
    deferAfterMs: o.deferAfterMs,
    autocompleteTimeoutMs: o.autocompleteTimeoutMs ?? AUTOCOMPLETE_TIMEOUT_MS,
  };
}

async function dispatch(ctx: InteractionContext, inbound: Inbound, reply: Replier): Promise<void> {
  switch (inbound.kind) {
    case 'ping':
      return await reply.callback({ type: InteractionResponseType.Pong });
    case 'command':
      return await answerCommand(ctx, inbound, reply);
    case 'autocomplete':
      return await answerAutocomplete(ctx, inbound, reply);
    case 'component':
      return await answerComponent(ctx, inbound, reply);
    case 'modal':
      return await answerModal(ctx, inbound, reply);
    case 'other':
      return await expired(ctx, reply);
  }
}

/** An interaction from a server (or DM) the bot does not serve: one private sentence (autocomplete: none). */
async function refuse(ctx: InteractionContext, i: Exclude<Inbound, { kind: 'ping' }>, reply: Replier) {
  if (i.kind === 'autocomplete')
    return reply.callback({
      type: InteractionResponseType.ApplicationCommandAutocompleteResult,
      data: { choices: [] },
    });
  const where = refusedWhere(DISCORD_CAPABILITIES, i.guildId ?? DM_WORKSPACE);
  return privately(reply, await ctx.render.card(cardOf(errorCard(say('workspace-not-allowed', { where })))));
}
