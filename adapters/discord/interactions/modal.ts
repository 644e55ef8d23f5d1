/**
 * A submitted modal: its values, read back (long values restored), go to the core as the form's answer. A page
 * of a form in pages that is not the last is only kept: the answer is a "Step 1 of 2 done" message whose
 * button opens the next page; the last page hands the core the values of every page at once.
 */

import { parseCustomId } from '../custom-id.js';
import { readModalFiles, testOrigin, withAttachments } from '../file-input.js';
import type { Replier } from '../interactions.js';
import { initialValues, pagesOf, readSubmission, submittedValues } from '../modal.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';
import { expired, privately } from './payloads.js';
import { respond } from './respond.js';

export async function answerModal(ctx: InteractionContext, i: InboundOf<'modal'>, reply: Replier) {
  const { memory } = ctx;
  const id = parseCustomId(i.customId);
  if (id?.kind !== 'modal') return expired(ctx, reply);
  const form = await memory.form(id.key);
  const formId = form?.id ?? id.formId;
  const state = form?.state ?? id.state ?? '';
  // A page of a form in pages cannot be read without the form (restarted since it opened).
  if (!formId || (id.page !== undefined && !form)) return expired(ctx, reply);
  // An upload's attachment is kept with its value, so a form in pages reads it at the last page.
  const restore = await memory.restorer(submittedValues(i.fields));
  let values = withAttachments(form, readSubmission(form, i.fields, restore), i.attachments);
  if (form && id.page !== undefined) {
    // Pages not shown this time (a form reopened at a later page) keep what their inputs hold.
    values = { ...initialValues(form), ...(await memory.pages(id.key)), ...values };
    // The page count the modal was shown with (its inputs may have been split to fit), else the form's own.
    const pages = id.pages ?? pagesOf(form).length;
    if (id.page < pages - 1) {
      await memory.keepPages(id.key, form, values);
      return privately(reply, ctx.render.step(form, { key: id.key, page: id.page, pages }));
    }
  }
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
    async () => {
      // Uploaded files become their inputs' text (a refused one answers as a form error), parts are joined.
      const read = await readModalFiles(form, values, testOrigin(ctx.rest.options.api));
      if ('refused' in read) return read.refused;
      return ctx.bot.handleForm(req, { formId, state, values: read.values });
    },
  );
}
