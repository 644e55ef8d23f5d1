/**
 * Answers an interaction with the core's response: as the first response when the core answers within
 * `deferAfterMs`, else after a deferral through the interaction's webhook (see `../interactions.ts`).
 */
import {
  type APIInteractionResponse,
  type APIInteractionResponseCallbackData,
  InteractionResponseType,
} from 'discord.js';
import type { Card, Response } from '../../../src/core/index.js';
import { within } from '../../../src/core/index.js';
import type { MessagePayload } from '../components.js';
import { type Attached, carriesFiles, fileWebhook, listingKept, uploadsOf } from '../files.js';
import type { InboundBase } from '../inbound.js';
import type { Replier } from '../interactions.js';
import { failedInteraction } from '../log-error.js';
import type { Answering, InteractionContext, Source } from './context.js';
import { body, COMPONENTS_V2, EPHEMERAL, editBody, messageOf, modalOf, webhook } from './payloads.js';

/** One interaction being answered, and how it may be. */
export interface Exchange {
  interaction: InboundBase;
  reply: Replier;
  answering: Answering;
  /**
   * Acknowledge before the core starts (and do not start it if Discord refused the acknowledgement), instead of
   * awaiting its answer for `deferAfterMs` so that it can be the first response (a modal must be).
   */
  ackFirst?: boolean;
}

/** Answers with the core's response, `work`; a failure of the core is answered with an error card. */
export async function respond(ctx: InteractionContext, exchange: Exchange, work: () => Promise<Response>) {
  const { reply, answering } = exchange;
  const { source } = answering;
  if (exchange.ackFirst) {
    await reply.callback(deferral(source));
    // Other members' interactions that arrived meanwhile are acknowledged before this one's work starts.
    await ctx.acks.clear();
    const response = await guard(ctx, exchange.interaction, work());
    await deferred(ctx, exchange, response);
    return followUps(ctx, exchange, response);
  }
  const safe = guard(ctx, exchange.interaction, work());
  // 0 means "always defer" (e.g. behind a slow network), not "race a zero timer".
  const early =
    ctx.deferAfterMs > 0
      ? await within(
          ctx.clock,
          ctx.deferAfterMs,
          safe.then((response) => ({ response })),
        )
      : undefined;
  const hook = webhook(ctx.rest, exchange.interaction);
  // Files go through the webhook (multipart), never in the first callback (an HTTP answer has no files).
  if (early && !carriesFiles(early.response)) {
    const first = await initial(ctx, exchange, early.response);
    await reply.callback(first);
    // A command answered "nothing to say": the private placeholder goes away again.
    if (early.response.kind === 'none' && source === 'reply') await hook.remove();
    return followUps(ctx, exchange, early.response);
  }
  await reply.callback(deferral(source));
  const response = await safe;
  await deferred(ctx, exchange, response);
  return followUps(ctx, exchange, response);
}

/**
 * The further cards of a several-card answer (`more`, the `home` dashboard): each a follow-up of the same
 * visibility, in order, after the first card (a dashboard exceeds one message's 40 components).
 */
async function followUps(ctx: InteractionContext, exchange: Exchange, response: Response) {
  if (response.kind !== 'message' || !response.more) return;
  const hook = webhook(ctx.rest, exchange.interaction);
  for (const card of response.more)
    await hook.followUp(body(await ctx.render.card(card), response.visibility === 'ephemeral'));
}

/** The core's answer, or (when it failed) an error card with a reference to the logged failure. */
const guard = (ctx: InteractionContext, interaction: InboundBase, running: Promise<Response>) =>
  running.catch((error: unknown) => failedInteraction(ctx.log, error, interaction));

const deferral = (source: Source): APIInteractionResponse =>
  source === 'message'
    ? { type: InteractionResponseType.DeferredMessageUpdate }
    : { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: EPHEMERAL } };

/**
 * The card replacing the clicked message. Discord documents turning an existing message into a Components V2
 * one only for the edit endpoints, so a message posted before V2 (without the flag: embeds) is updated in its
 * own shape (embeds.ts) — the interaction says which kind it is; the outbox's next channel edit upgrades it
 * (sender.ts). Every message posted since is V2 and stays V2 (the flag cannot be removed).
 */
function updateOf(ctx: InteractionContext, exchange: Exchange, card: Card): Promise<MessagePayload> {
  const clicked = clickedOf(exchange);
  return clicked && !((clicked.flags ?? 0) & COMPONENTS_V2)
    ? ctx.render.embedCard(card)
    : ctx.render.card(card);
}

/**
 * The message the interaction came from (a click): its flags, and the files it holds, which an update of it
 * lists so that charts the new card does not show go (files.ts `droppingCharts`).
 */
const clickedOf = (exchange: Exchange) =>
  (exchange.interaction as { message?: { flags?: number; attachments?: Attached[] } }).message;

/** The first response when the core answered in time. */
async function initial(
  ctx: InteractionContext,
  exchange: Exchange,
  response: Response,
): Promise<APIInteractionResponse> {
  const { answering } = exchange;
  if (response.kind === 'form' && answering.canShowModal)
    return { type: InteractionResponseType.Modal, data: await modalOf(ctx, response.form) };
  if (response.kind === 'update' && answering.source === 'message') {
    return {
      type: InteractionResponseType.UpdateMessage,
      data: listingKept(
        body(await updateOf(ctx, exchange, response.card), false),
        clickedOf(exchange)?.attachments,
      ),
    };
  }
  if (response.kind === 'none') return deferral(answering.source);
  const data = (await messageOf(ctx, response, answering.errorsOf)) as APIInteractionResponseCallbackData;
  return { type: InteractionResponseType.ChannelMessageWithSource, data };
}

/** The answer to an interaction already acknowledged with a deferral, through its webhook. */
async function deferred(ctx: InteractionContext, exchange: Exchange, response: Response) {
  const { errorsOf } = exchange.answering;
  const uploads = await uploadsOf(response);
  const source = exchange.answering.source;
  // Deferred on a clicked message, the interaction's original is that message: an edit replaces its card.
  const held = source === 'message' ? clickedOf(exchange)?.attachments : undefined;
  const hook = fileWebhook(ctx.rest, exchange.interaction, { uploads, held, log: ctx.log });
  if (source === 'message') {
    if (response.kind === 'update') await hook.edit(editBody(await updateOf(ctx, exchange, response.card)));
    else {
      const data = await messageOf(ctx, response, errorsOf);
      if (data) await hook.followUp(data);
    }
    return;
  }
  // Deferred privately: edit the placeholder, or replace it with a public follow-up for a channel answer.
  if (response.kind === 'none') return void (await hook.remove());
  if (response.kind === 'message' && response.visibility === 'channel') {
    await hook.followUp(body(await ctx.render.card(response.card), false));
    await hook.remove();
    return;
  }
  const data = (await messageOf(ctx, response, errorsOf)) as APIInteractionResponseCallbackData;
  // The placeholder is already private; IS_COMPONENTS_V2 is set on this edit (a deferral cannot carry it).
  const { flags, ...edit } = data;
  await hook.edit(flags !== undefined && flags & COMPONENTS_V2 ? { ...edit, flags: COMPONENTS_V2 } : edit);
}
