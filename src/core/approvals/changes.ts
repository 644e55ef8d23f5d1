/**
 * Request changes (DESIGN §5, requests with stages): an approver of the stage it waits at sends it back to the
 * requester with a comment (a form, as Reject's reason). The request is then "changes requested": nobody can
 * approve it, its card says why and the comment goes to its thread and to the requester, who sends a new
 * version (resubmit.ts).
 */
import type { CommandContext } from '../dispatch/context.js';
import { replyToCard } from '../live/live-card.js';
import type { ActionSpec, FormSpec } from '../parse/command-spec.js';
import { formatMention } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { type Form, message, type Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { literal, md, storedText } from '../text/text.js';
import { CHANGES_ACTION, RESUBMIT_ACTION } from './card.js';
import { expiredMeanwhile, loadDecidable, REASON_MAX } from './decide.js';
import { notifyRequester, recordDecision, roundKey } from './effects.js';
import type { ApprovalCardModel } from './model.js';
import { clickedApproval } from './reach.js';
import { alreadyDecided } from './wording.js';

const CHANGES_FORM = 'approval.changes.form';

const info = async (ctx: CommandContext, approval: Approval): Promise<Response> =>
  message({ title: md`Nothing to do`, tone: 'info', text: await alreadyDecided(approval, ctx) });

/** Request changes opens the comment form; the request goes back on submit. */
export const changesAction: ActionSpec = {
  action: CHANGES_ACTION,
  async run(clickCtx, value) {
    const { ctx, id } = await clickedApproval(clickCtx, value);
    const { approval } = await loadDecidable(ctx, id);
    if (approval.status !== 'pending') return info(ctx, approval);
    const form: Form = {
      id: CHANGES_FORM,
      title: 'Request changes',
      submitLabel: 'Send back',
      state: value,
      intro: md`Send **${storedText(approval.action.summary)}** back to the requester? They see your comment, and a new version starts again at the first stage.`,
      inputs: [
        {
          kind: 'text',
          id: 'comment',
          label: 'What should change',
          multiline: true,
          required: true,
          maxLength: REASON_MAX,
          placeholder: 'e.g. Add the launch date to the title',
        },
      ],
    };
    return { kind: 'form', form };
  },
};

export const changesForm: FormSpec = {
  id: CHANGES_FORM,
  async submit(submitCtx, state, values) {
    const comment = (values.comment ?? '').trim();
    if (comment === '' || comment.length > REASON_MAX) {
      const error =
        comment === ''
          ? md`Say what should change: the requester reads it.`
          : say('too-long', { option: 'comment', length: comment.length, max: REASON_MAX });
      return { kind: 'form-errors', errors: { comment: error } };
    }
    const { ctx, id } = await clickedApproval(submitCtx, state);
    const { approval, model } = await loadDecidable(ctx, id);
    if (approval.status !== 'pending') return info(ctx, approval);
    const late = await expiredMeanwhile(ctx, approval);
    if (late) return late;
    const store = ctx.deps.store;
    const won = await store.transaction(() => sendBack(ctx, { approval, model, comment }));
    if (!won) return info(ctx, (await store.approvals.get(approval.id)) ?? approval);
    return message({
      title: md`Changes requested`,
      tone: 'neutral',
      text: md`You sent **${storedText(approval.action.summary)}** back: “${literal(comment)}”. The requester has been told; their new version comes back to the first stage.`,
      context: md`Approval \`${literal(approval.id)}\``,
    });
  },
};

/** Inside the transaction: the decision, the comment in the thread, the requester's notice. */
async function sendBack(
  ctx: CommandContext,
  { approval, model, comment }: { approval: Approval; model: ApprovalCardModel; comment: string },
): Promise<boolean> {
  const store = ctx.deps.store;
  const by = ctx.req.userName ?? 'An approver';
  const decided = await recordDecision(store, approval, {
    decision: { status: 'changes', by: ctx.req.user, at: ctx.now(), reason: comment },
    card: { decidedByName: by, reason: comment },
    audit: { actor: ctx.req.user, action: 'approval.changes', details: { comment } },
  });
  if (!decided) return false;
  const stage = model.path?.[model.stage ?? 0]?.name;
  await replyToCard(store, {
    key: approval.cardKey,
    card: {
      title: md`Changes requested`,
      tone: 'info',
      text: md`**${literal(by)}** asked for changes${stage ? md` at **${literal(stage)}**` : md``}: “${literal(comment)}”\n${formatMention(approval.requester)} can send a new version with **Send new version**; it starts again at the first stage, in this thread.`,
      notify: [approval.requester],
    },
    dedupeKey: `${roundKey(approval)}:changes:thread`,
    threaded: true,
  });
  await notifyRequester(store, approval, {
    state: 'changes',
    card: {
      title: md`Changes requested`,
      tone: 'warning',
      text: md`**${literal(by)}** asked for changes to **${storedText(approval.action.summary)}**: “${literal(comment)}” Nothing was sent. Change it, then press **Send new version**: it goes back to the approvers from the first stage.`,
      context: md`Approval \`${literal(approval.id)}\``,
      controls: [{ kind: 'button', action: RESUBMIT_ACTION, value: approval.id, label: 'Send new version' }],
    },
  });
  return true;
}
