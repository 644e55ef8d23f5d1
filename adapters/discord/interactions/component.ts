/**
 * A click on a button or a choice in a select: the action it stands for (in its custom id, or remembered when
 * too long), a confirmation first when it asks for one, an "Open form" button's modal, or a dismissal.
 */
import { InteractionResponseType, Routes } from 'discord.js';
import type { Card, Confirm } from '../../../src/core/index.js';
import { literal, md } from '../../../src/core/index.js';
import { parseCustomId } from '../custom-id.js';
import type { Replier } from '../interactions.js';
import { loggable } from '../log-error.js';
import type { AskedFrom } from '../memory.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';
import { body, editBody, expired, modalOf, webhook } from './payloads.js';
import { respond } from './respond.js';

type Target = { action: string; value: string; confirm?: Confirm };

export async function answerComponent(ctx: InteractionContext, i: InboundOf<'component'>, reply: Replier) {
  const { memory } = ctx;
  const id = parseCustomId(i.customId);
  const req = requestInfoOf(i, i.message.id);
  let target: Target | undefined;
  if (id?.kind === 'action' || id?.kind === 'confirm') target = { action: id.action, value: id.value };
  if (id?.kind === 'stashed') target = await memory.action(id.key);
  if (id?.kind === 'open-form') {
    const form = await memory.form(id.key);
    if (!form) return expired(ctx, reply);
    return reply.callback({
      type: InteractionResponseType.Modal,
      data: await modalOf(ctx, form, { key: id.key, page: id.page ?? 0 }),
    });
  }
  if (id?.kind === 'dismiss') {
    await reply.callback({ type: InteractionResponseType.DeferredMessageUpdate });
    await webhook(ctx.rest, i).remove();
    return;
  }
  if (!target) return expired(ctx, reply);

  const confirm = id?.kind === 'confirm' ? await confirmOf(ctx, i, target) : target.confirm;
  if (confirm) return askFirst(ctx, { i, reply, confirm, target });

  const chosen = i.values?.[0] !== undefined ? await memory.restoreValue(i.values[0]) : undefined;
  // A select has no value of its own: the chosen option is both the value and the choice (as in the playground).
  const input = chosen !== undefined ? { action: target.action, value: chosen, choice: chosen } : target;
  ctx.log.debug({ action: target.action, user: req.user }, 'discord click');
  await respond(
    ctx,
    { interaction: i, reply, answering: { source: 'message', canShowModal: true } },
    async () => {
      const answer = await ctx.bot.handleAction(req, input);
      // The answer to an "are you sure?" replaces the question; the card that asked it shows the outcome too.
      const asked = chosen === undefined ? await memory.takeAsked(target.action, target.value) : undefined;
      if (asked && answer.kind === 'update') await editAskedFrom(ctx, asked, answer.card);
      return answer;
    },
  );
}

/**
 * The "are you sure?" step of a destructive button: the click is acknowledged as an update of its card (so
 * that card stays this interaction's original, editable once the question is answered: a one-shot card then
 * loses its buttons at once), and the question follows privately.
 */
async function askFirst(
  ctx: InteractionContext,
  {
    i,
    reply,
    confirm,
    target,
  }: { i: InboundOf<'component'>; reply: Replier; confirm: Confirm; target: Target },
) {
  await reply.callback({ type: InteractionResponseType.DeferredMessageUpdate });
  await ctx.memory.keepAsked(target.action, target.value, { applicationId: i.applicationId, token: i.token });
  await webhook(ctx.rest, i).followUp(body(await ctx.render.confirm(confirm, target), true));
}

/** Edits the card a question was asked from; a failure (the token ran out) leaves it as it was. */
async function editAskedFrom(ctx: InteractionContext, asked: AskedFrom, card: Card) {
  try {
    await ctx.rest.patch(Routes.webhookMessage(asked.applicationId, asked.token, '@original'), {
      body: editBody(await ctx.render.card(card)),
      auth: false,
    });
  } catch (error) {
    ctx.log.warn({ err: loggable(error) }, 'could not edit the card a confirmation was asked from');
  }
}

/** The question a confirm button asks, as remembered; after a restart, with the clicked message's own words. */
async function confirmOf(
  ctx: InteractionContext,
  i: InboundOf<'component'>,
  target: Target,
): Promise<Confirm> {
  return (
    (await ctx.memory.confirm(target.action, target.value)) ?? {
      title: literal(i.message.title ?? i.label ?? target.action),
      text: md``,
      confirm: i.label ?? target.action,
      deny: '',
    }
  );
}
