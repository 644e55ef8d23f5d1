/** The bodies every interaction answer is made of: messages, modals, and the interaction's webhook. */
import {
  type APIInteractionResponseCallbackData,
  type APIModalInteractionResponseCallbackData,
  InteractionResponseType,
  MessageFlags,
  type REST,
  Routes,
} from 'discord.js';
import type { Form, Response } from '../../../src/core/index.js';
import { errorCard, joinText, say } from '../../../src/core/index.js';
import { isComponentsV2, type MessagePayload } from '../components.js';
import type { InboundBase } from '../inbound.js';
import type { Replier } from '../interactions.js';
import { type FormPlace, prefilled } from '../modal.js';
import type { InteractionContext, Submitted } from './context.js';

export const EPHEMERAL = MessageFlags.Ephemeral;
export const COMPONENTS_V2 = MessageFlags.IsComponentsV2;

/**
 * A payload as an interaction answer's body. A Components V2 card carries its flag (with EPHEMERAL for a
 * private answer: `64 | 32768`) and nothing but components; an embed payload clears earlier content on edits,
 * since only the card's `notify` list pings (components.ts).
 */
export const body = (payload: MessagePayload, ephemeral: boolean): APIInteractionResponseCallbackData =>
  isComponentsV2(payload)
    ? {
        components: payload.components,
        allowed_mentions: payload.allowed_mentions,
        flags: payload.flags | (ephemeral ? EPHEMERAL : 0),
      }
    : {
        content: payload.content ?? '',
        embeds: payload.embeds,
        components: payload.components,
        allowed_mentions: payload.allowed_mentions,
        ...(ephemeral ? { flags: EPHEMERAL } : {}),
      };

/**
 * The body of an edit of an interaction's message (its original answer or the clicked message): edits cannot
 * change EPHEMERAL, so only IS_COMPONENTS_V2 stays among the flags. The message edited is either the deferred
 * placeholder (no content, no embeds: the flag can be set on this edit, which is how Discord wants a deferred
 * answer made V2) or a clicked message of the same kind as the payload (see `respond.ts`).
 */
export function editBody(payload: MessagePayload): APIInteractionResponseCallbackData {
  const { flags, ...rest } = body(payload, false);
  return flags !== undefined && flags & COMPONENTS_V2 ? { ...rest, flags: COMPONENTS_V2 } : rest;
}

/** The interaction's own webhook: its original answer (edit, remove) and follow-ups. */
export const webhook = (rest: REST, i: InboundBase) => ({
  edit: (data: APIInteractionResponseCallbackData) =>
    rest.patch(Routes.webhookMessage(i.applicationId, i.token, '@original'), { body: data, auth: false }),
  remove: () => rest.delete(Routes.webhookMessage(i.applicationId, i.token, '@original'), { auth: false }),
  followUp: (data: APIInteractionResponseCallbackData) =>
    rest.post(Routes.webhook(i.applicationId, i.token), { body: data, auth: false }),
});

/** The form as a modal, the form kept (under the place's key, or a fresh one) to read its submission. */
export async function modalOf(
  ctx: InteractionContext,
  form: Form,
  place?: string | FormPlace,
): Promise<APIModalInteractionResponseCallbackData> {
  const key = await ctx.memory.keepForm(form, typeof place === 'object' ? place.key : place);
  return ctx.render.modal(form, place ?? key);
}

/** A core answer as a message body (a form here is the button that opens it). */
export async function messageOf(ctx: InteractionContext, response: Response, errorsOf?: Submitted) {
  const { render, memory } = ctx;
  switch (response.kind) {
    case 'message':
      return body(await render.card(response.card), response.visibility === 'ephemeral');
    case 'update':
      return body(await render.card(response.card), true);
    case 'form':
      return body(render.launcher(response.form, await memory.keepForm(response.form)), true);
    case 'form-errors': {
      const form = errorsOf?.form;
      if (!form)
        return body(
          await render.card(cardOf(errorCard(joinText(Object.values(response.errors), '\n')))),
          true,
        );
      const again = prefilled(form, errorsOf.values);
      return body(render.launcher(again, await memory.keepForm(again), response.errors), true);
    }
    case 'none':
      return undefined;
  }
}

export const privately = (reply: Replier, payload: MessagePayload) =>
  reply.callback({ type: InteractionResponseType.ChannelMessageWithSource, data: body(payload, true) });

export const expired = async (ctx: InteractionContext, reply: Replier) =>
  privately(reply, await ctx.render.card(cardOf(errorCard(say('interaction-expired')))));

export function cardOf(response: Response) {
  if (response.kind !== 'message') throw new Error('expected a message');
  return response.card;
}
