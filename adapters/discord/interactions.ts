/**
 * The one code path from an interaction (gateway or HTTP, see `inbound.ts`) to the core and back.
 *
 * Discord wants a first response within 3 seconds and allows a modal only as that first response. The core's
 * answer is awaited for `deferAfterMs`; if it is ready, it is the first response (a modal for a form). If not,
 * the interaction is deferred (a private "thinking…" for commands, a silent acknowledgement for clicks) and the
 * answer follows through the interaction's webhook, its visibility following the core's: a channel answer
 * after a private deferral goes out as a public follow-up; a form becomes a button that opens it.
 */
import { randomUUID } from 'node:crypto';
import {
  type APIInteractionResponse,
  type APIInteractionResponseCallbackData,
  type APIModalInteractionResponseCallbackData,
  InteractionResponseType,
  MessageFlags,
  type REST,
  Routes,
} from 'discord.js';
import { type Bot, errorCard } from '../../src/core/bot.js';
import type { Confirm, Form, Response } from '../../src/core/cards.js';
import { within } from '../../src/core/deadline.js';
import { say } from '../../src/core/messages.js';
import type { Clock, Logger } from '../../src/core/ports.js';
import { refusedWhere, type WorkspaceGate } from '../../src/core/workspace-gate.js';
import { AckGate } from '../../src/http/ack-gate.js';
import { COMMAND_ARGUMENTS } from './command-names.js';
import { type CommandRoutes, ROOT_COMMAND } from './commands.js';
import { parseCustomId } from './custom-id.js';
import type { Inbound, InboundBase } from './inbound.js';
import { clip, DISCORD } from './limits.js';
import { loggable } from './log-error.js';
import type { AdapterMemory } from './memory.js';
import { prefilled, readSubmission } from './modal.js';
import type { MessagePayload } from './render.js';
import { DiscordRenderer } from './renderer.js';
import { DM_WORKSPACE, requestInfoOf } from './request-info.js';

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

const EPHEMERAL = MessageFlags.Ephemeral;
const AUTOCOMPLETE = InteractionResponseType.ApplicationCommandAutocompleteResult;

/** Where an answer can go: a new reply, or (for clicks on a message) an edit of that message. */
type Source = 'reply' | 'message';

export function createInteractionHandler(o: InteractionHandlerOptions) {
  const log = o.logger.child({ component: 'discord' });
  const { bot, memory } = o;
  const acks = o.acks ?? new AckGate(o.clock);
  /** Every payload below is rendered here, commands named as on Discord (renderer.ts). */
  const render = new DiscordRenderer(memory, o.routes);

  /** Only the card's `notify` list pings (render.ts); an answer without one clears earlier content on edits. */
  const body = (payload: MessagePayload, ephemeral: boolean): APIInteractionResponseCallbackData => ({
    content: payload.content ?? '',
    embeds: payload.embeds,
    components: payload.components,
    allowed_mentions: payload.allowed_mentions,
    ...(ephemeral ? { flags: EPHEMERAL } : {}),
  });

  const webhook = (i: InboundBase) => ({
    edit: (data: APIInteractionResponseCallbackData) =>
      o.rest.patch(Routes.webhookMessage(i.applicationId, i.token, '@original'), { body: data, auth: false }),
    remove: () =>
      o.rest.delete(Routes.webhookMessage(i.applicationId, i.token, '@original'), { auth: false }),
    followUp: (data: APIInteractionResponseCallbackData) =>
      o.rest.post(Routes.webhook(i.applicationId, i.token), { body: data, auth: false }),
  });

  function modalOf(form: Form, key = memory.forms.add(form)): APIModalInteractionResponseCallbackData {
    memory.forms.set(key, form);
    return render.modal(form, key);
  }

  /** A core answer as a message body (a form here is the button that opens it). */
  function messageOf(response: Response, errorsOf?: { form?: Form; values: Record<string, string> }) {
    switch (response.kind) {
      case 'message':
        return body(render.card(response.card), response.visibility === 'ephemeral');
      case 'update':
        return body(render.card(response.card), true);
      case 'form':
        return body(render.launcher(response.form, memory.forms.add(response.form)), true);
      case 'form-errors': {
        const form = errorsOf?.form;
        if (!form)
          return body(render.card(cardOf(errorCard(Object.values(response.errors).join('\n')))), true);
        const again = prefilled(form, errorsOf.values);
        return body(render.launcher(again, memory.forms.add(again), response.errors), true);
      }
      case 'none':
        return undefined;
    }
  }

  /** The first response when the core answered in time. */
  function initial(response: Response, source: Source, extra: Extra): APIInteractionResponse {
    if (response.kind === 'form' && extra.canShowModal)
      return { type: InteractionResponseType.Modal, data: modalOf(response.form) };
    if (response.kind === 'update' && source === 'message') {
      return {
        type: InteractionResponseType.UpdateMessage,
        data: body(render.card(response.card), false),
      };
    }
    if (response.kind === 'none') {
      return source === 'message'
        ? { type: InteractionResponseType.DeferredMessageUpdate }
        : { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: EPHEMERAL } };
    }
    const data = messageOf(response, extra.errorsOf) as APIInteractionResponseCallbackData;
    return { type: InteractionResponseType.ChannelMessageWithSource, data };
  }

  interface Extra {
    canShowModal: boolean;
    errorsOf?: { form?: Form; values: Record<string, string> };
  }

  const deferral = (source: Source): APIInteractionResponse =>
    source === 'message'
      ? { type: InteractionResponseType.DeferredMessageUpdate }
      : { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: EPHEMERAL } };

  /**
   * Answers with the core's response. With `ackFirst` the interaction is acknowledged before the core
   * starts (and the core does not start if Discord refused the acknowledgement); otherwise the core's
   * answer is awaited for `deferAfterMs` so that it can be the first response (a modal must be).
   */
  async function respond(
    i: InboundBase,
    reply: Replier,
    work: () => Promise<Response>,
    source: Source,
    extra: Extra,
    ackFirst = false,
  ) {
    const guard = (running: Promise<Response>) =>
      running.catch((error: unknown) => {
        const ref = randomUUID().slice(0, 8);
        log.error({ err: loggable(error), ref }, 'discord interaction failed');
        return errorCard(say('internal', { ref }));
      });
    if (ackFirst) {
      await reply.callback(deferral(source));
      // Other members' interactions that arrived meanwhile are acknowledged before this one's work starts.
      await acks.clear();
      return deferred(i, await guard(work()), source, extra);
    }
    const safe = guard(work());
    // 0 means "always defer" (e.g. behind a slow network), not "race a zero timer".
    const early =
      o.deferAfterMs > 0
        ? await within(
            o.clock,
            o.deferAfterMs,
            safe.then((response) => ({ response })),
          )
        : undefined;
    const hook = webhook(i);
    if (early) {
      const first = initial(early.response, source, extra);
      await reply.callback(first);
      // A command answered "nothing to say": the private placeholder goes away again.
      if (early.response.kind === 'none' && source === 'reply') await hook.remove();
      return;
    }
    await reply.callback(deferral(source));
    return deferred(i, await safe, source, extra);
  }

  /** The answer to an interaction already acknowledged with a deferral, through its webhook. */
  async function deferred(i: InboundBase, response: Response, source: Source, extra: Extra) {
    const hook = webhook(i);
    if (source === 'message') {
      if (response.kind === 'update') await hook.edit(body(render.card(response.card), false));
      else {
        const data = messageOf(response, extra.errorsOf);
        if (data) await hook.followUp(data);
      }
      return;
    }
    // Deferred privately: edit the placeholder, or replace it with a public follow-up for a channel answer.
    if (response.kind === 'none') return void (await hook.remove());
    if (response.kind === 'message' && response.visibility === 'channel') {
      await hook.followUp(body(render.card(response.card), false));
      await hook.remove();
      return;
    }
    const data = messageOf(response, extra.errorsOf) as APIInteractionResponseCallbackData;
    const { flags: _flags, ...edit } = data;
    await hook.edit(edit);
  }

  const privately = (reply: Replier, payload: MessagePayload) =>
    reply.callback({ type: InteractionResponseType.ChannelMessageWithSource, data: body(payload, true) });
  const expired = (reply: Replier) =>
    privately(reply, render.card(cardOf(errorCard(say('interaction-expired')))));

  /** An interaction from a server (or DM) the bot does not serve: one private sentence (autocomplete: none). */
  const refuse = (i: Exclude<Inbound, { kind: 'ping' }>, reply: Replier) => {
    if (i.kind === 'autocomplete') return reply.callback({ type: AUTOCOMPLETE, data: { choices: [] } });
    const where = refusedWhere('discord', i.guildId ?? DM_WORKSPACE);
    return privately(reply, render.card(cardOf(errorCard(say('workspace-not-allowed', { where })))));
  };

  async function command(i: Extract<Inbound, { kind: 'command' }>, reply: Replier) {
    const req = requestInfoOf(i);
    const route =
      i.path.command === ROOT_COMMAND && i.path.sub ? o.routes.find(i.path.group, i.path.sub) : undefined;
    const name = route?.command ?? [i.path.group, i.path.sub].filter(Boolean).join(' ');
    const raw: Record<string, string | number | boolean> = {};
    for (const [option, value] of Object.entries(i.options))
      raw[route?.options.get(option) ?? option] = value;
    // `/reel help command:account link`: the name help showed on Discord, turned back into the core's.
    const naming = route && COMMAND_ARGUMENTS[route.command];
    const typed = naming ? raw[naming] : undefined;
    if (naming && typeof typed === 'string') raw[naming] = render.names.coreName(typed);
    log.debug({ command: name, user: req.user }, 'discord command');
    // A command that cannot answer with a form is acknowledged at once ("thinking…"), then answered: the
    // acknowledgement never waits behind the video API or other members' commands (docs/performance.md,
    // ack latency). One that may answer with a form waits for it, since only a first response can be a modal.
    await respond(
      i,
      reply,
      () => bot.handleCommand(req, name, raw),
      'reply',
      { canShowModal: true },
      !bot.mayAnswerWithForm(name),
    );
  }

  async function autocomplete(i: Extract<Inbound, { kind: 'autocomplete' }>, reply: Replier) {
    const route = i.path.sub ? o.routes.find(i.path.group, i.path.sub) : undefined;
    const option = route?.options.get(i.focused.name);
    let choices: { name: string; value: string }[] = [];
    if (route && option) {
      const suggestions = await within(
        o.clock,
        o.autocompleteTimeoutMs ?? 2_500,
        bot
          .autocomplete(requestInfoOf(i), { command: route.command, option, query: i.focused.value })
          .catch(() => []),
      );
      choices = (suggestions ?? [])
        .filter((s) => s.value.length <= DISCORD.choiceValue && s.value !== '')
        .slice(0, DISCORD.autocompleteChoices)
        .map((s) => ({ name: clip(s.label, DISCORD.choiceName) || s.value, value: s.value }));
    }
    await reply.callback({
      type: InteractionResponseType.ApplicationCommandAutocompleteResult,
      data: { choices },
    });
  }

  async function component(i: Extract<Inbound, { kind: 'component' }>, reply: Replier) {
    const id = parseCustomId(i.customId);
    const req = requestInfoOf(i, i.message.id);
    let target: { action: string; value: string; confirm?: Confirm } | undefined;
    if (id?.kind === 'action' || id?.kind === 'confirm') target = { action: id.action, value: id.value };
    if (id?.kind === 'stashed') target = memory.action(id.key);
    if (id?.kind === 'open-form') {
      const form = memory.forms.get(id.key);
      if (!form) return expired(reply);
      return reply.callback({ type: InteractionResponseType.Modal, data: modalOf(form, id.key) });
    }
    if (id?.kind === 'dismiss') {
      await reply.callback({ type: InteractionResponseType.DeferredMessageUpdate });
      await webhook(i).remove();
      return;
    }
    if (!target) return expired(reply);

    const confirm =
      id?.kind === 'confirm'
        ? (memory.confirm(target.action, target.value) ?? {
            // Not remembered (restart): ask with the clicked message's own words.
            title: i.message.title ?? i.label ?? target.action,
            text: '',
            confirm: i.label ?? target.action,
            deny: '',
          })
        : target.confirm;
    if (confirm) return privately(reply, render.confirm(confirm, target));

    const chosen = i.values?.[0] !== undefined ? memory.restoreValue(i.values[0]) : undefined;
    // A select has no value of its own: the chosen option is both the value and the choice (as in the playground).
    const input = chosen !== undefined ? { action: target.action, value: chosen, choice: chosen } : target;
    log.debug({ action: target.action, user: req.user }, 'discord click');
    await respond(i, reply, () => bot.handleAction(req, input), 'message', { canShowModal: true });
  }

  async function modal(i: Extract<Inbound, { kind: 'modal' }>, reply: Replier) {
    const id = parseCustomId(i.customId);
    if (id?.kind !== 'modal') return expired(reply);
    const form = memory.forms.get(id.key);
    const formId = form?.id ?? id.formId;
    const state = form?.state ?? id.state ?? '';
    if (!formId) return expired(reply);
    const values = readSubmission(form, i.fields, (v) => memory.restoreValue(v));
    const req = requestInfoOf(i, i.message?.id);
    log.debug({ formId, user: req.user }, 'discord form');
    await respond(
      i,
      reply,
      () => bot.handleForm(req, { formId, state, values }),
      i.message ? 'message' : 'reply',
      {
        // Discord cannot answer a modal with another modal: a follow-up form comes as a button.
        canShowModal: false,
        errorsOf: { ...(form ? { form } : {}), values },
      },
    );
  }

  const allowed = (i: InboundBase): boolean => o.gate?.allows('discord', i.guildId ?? DM_WORKSPACE) ?? true;

  /** Handles one interaction; never throws (failures are logged and, when still possible, answered). */
  return async function handle(inbound: Inbound, reply: Replier): Promise<void> {
    let answered = false;
    const acknowledged = acks.arrived();
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
        return await refuse(inbound, once);
      }
      switch (inbound.kind) {
        case 'ping':
          return await once.callback({ type: InteractionResponseType.Pong });
        case 'command':
          return await command(inbound, once);
        case 'autocomplete':
          return await autocomplete(inbound, once);
        case 'component':
          return await component(inbound, once);
        case 'modal':
          return await modal(inbound, once);
        case 'other':
          return await expired(once);
      }
    } catch (error) {
      const ref = randomUUID().slice(0, 8);
      log.error({ err: loggable(error), ref, kind: inbound.kind }, 'discord interaction failed');
      if (!answered && inbound.kind !== 'ping') {
        await privately(reply, render.card(cardOf(errorCard(say('internal', { ref }))))).catch(() => {});
      }
    } finally {
      acknowledged();
    }
  };
}

function cardOf(response: Response) {
  if (response.kind !== 'message') throw new Error('expected a message');
  return response.card;
}
