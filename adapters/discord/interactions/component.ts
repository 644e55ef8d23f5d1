/**
 * A click on a button or a choice in a select: the action it stands for (in its custom id, or remembered when
 * too long), a confirmation first when it asks for one, an "Open form" button's modal, or a dismissal.
 */
import { InteractionResponseType } from 'discord.js';
import type { Confirm } from '../../../src/core/cards.js';
import { parseCustomId } from '../custom-id.js';
import type { Replier } from '../interactions.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';
import { expired, modalOf, privately, webhook } from './payloads.js';
import { respond } from './respond.js';

type Target = { action: string; value: string; confirm?: Confirm };

export async function answerComponent(ctx: InteractionContext, i: InboundOf<'component'>, reply: Replier) {
  const { memory } = ctx;
  const id = parseCustomId(i.customId);
  const req = requestInfoOf(i, i.message.id);
  let target: Target | undefined;
  if (id?.kind === 'action' || id?.kind === 'confirm') target = { action: id.action, value: id.value };
  if (id?.kind === 'stashed') target = memory.action(id.key);
  if (id?.kind === 'open-form') {
    const form = memory.forms.get(id.key);
    if (!form) return expired(ctx, reply);
    return reply.callback({
      type: InteractionResponseType.Modal,
      data: modalOf(ctx, form, { key: id.key, page: id.page ?? 0 }),
    });
  }
  if (id?.kind === 'dismiss') {
    await reply.callback({ type: InteractionResponseType.DeferredMessageUpdate });
    await webhook(ctx.rest, i).remove();
    return;
  }
  if (!target) return expired(ctx, reply);

  const confirm = id?.kind === 'confirm' ? confirmOf(ctx, i, target) : target.confirm;
  if (confirm) return privately(reply, ctx.render.confirm(confirm, target));

  const chosen = i.values?.[0] !== undefined ? memory.restoreValue(i.values[0]) : undefined;
  // A select has no value of its own: the chosen option is both the value and the choice (as in the playground).
  const input = chosen !== undefined ? { action: target.action, value: chosen, choice: chosen } : target;
  ctx.log.debug({ action: target.action, user: req.user }, 'discord click');
  await respond(ctx, { interaction: i, reply, answering: { source: 'message', canShowModal: true } }, () =>
    ctx.bot.handleAction(req, input),
  );
}

/** The question a confirm button asks, as remembered; after a restart, with the clicked message's own words. */
function confirmOf(ctx: InteractionContext, i: InboundOf<'component'>, target: Target): Confirm {
  return (
    ctx.memory.confirm(target.action, target.value) ?? {
      title: i.message.title ?? i.label ?? target.action,
      text: '',
      confirm: i.label ?? target.action,
      deny: '',
    }
  );
}
