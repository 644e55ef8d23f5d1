/** A submitted modal: its values, read back (long values restored), go to the core as the form's answer. */

import { parseCustomId } from '../custom-id.js';
import type { Replier } from '../interactions.js';
import { readSubmission } from '../modal.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';
import { expired } from './payloads.js';
import { respond } from './respond.js';

export async function answerModal(ctx: InteractionContext, i: InboundOf<'modal'>, reply: Replier) {
  const { memory } = ctx;
  const id = parseCustomId(i.customId);
  if (id?.kind !== 'modal') return expired(ctx, reply);
  const form = memory.forms.get(id.key);
  const formId = form?.id ?? id.formId;
  const state = form?.state ?? id.state ?? '';
  if (!formId) return expired(ctx, reply);
  const values = readSubmission(form, i.fields, (v) => memory.restoreValue(v));
  const req = requestInfoOf(i, i.message?.id);
  ctx.log.debug({ formId, user: req.user }, 'discord form');
  await respond(
    ctx,
    {
      interaction: i,
      reply,
      answering: {
        source: i.message ? 'message' : 'reply',
        // Discord cannot answer a modal with another modal: a follow-up form comes as a button.
        canShowModal: false,
        errorsOf: { ...(form ? { form } : {}), values },
      },
    },
    () => ctx.bot.handleForm(req, { formId, state, values }),
  );
}
