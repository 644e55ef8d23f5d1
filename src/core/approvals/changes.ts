/**
 * Request changes (DESIGN §5, requests with stages): an approver of the stage it waits at sends it back to the
 * requester with a comment (a form, as Reject's reason). The request is then "changes requested": nobody can
 * approve it, its card says why and the comment goes to its thread and to the requester. **Send new version**
 * (the requester, on the card or the notice) asks again in the same card and thread, from the first stage,
 * with what would be published now; a double click or a stale card does nothing twice (`reopen` is a
 * compare-and-set, like every decision).
 */
import { type CommandContext, userError } from '../dispatch/context.js';
import { replyToCard } from '../live/live-card.js';
import type { ActionSpec, FormSpec } from '../parse/command-spec.js';
import { formatMention, formatMentions } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { publicationApproval } from '../publishing/publication.js';
import { getVideo } from '../publishing/schedule-flow.js';
import { type Form, message, type Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { literal, md, storedText } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import { CHANGES_ACTION, RESUBMIT_ACTION } from './card.js';
import { expiredMeanwhile, loadDecidable, REASON_MAX } from './decide.js';
import { approvalModel, notifyRequester, recordDecision, roundKey, updateApprovalCard } from './effects.js';
import { requestLifetimeMs } from './lifetime.js';
import type { ApprovalCardModel } from './model.js';
import { clickedApproval } from './reach.js';
import { nextLookAt } from './reminders.js';
import { stagesOf, stepOf } from './stages.js';
import { alreadyDecided } from './wording.js';
import { effectiveSettings } from './workspace-policy.js';

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

/** Send new version: the requester asks again, in the same card and thread, from the first stage. */
export const resubmitAction: ActionSpec = {
  action: RESUBMIT_ACTION,
  async run(ctx, id): Promise<Response> {
    const store = ctx.deps.store;
    const approval = id ? await store.approvals.get(id) : undefined;
    const model = approval && (await approvalModel(store, approval));
    if (!approval || !model) throw userError('interaction-expired');
    if (approval.conversation !== ctx.req.conversation) throw userError('approval-elsewhere');
    if (approval.requester !== ctx.req.user)
      throw userError('approval-resubmit-not-yours', { who: formatMention(approval.requester) });
    if (approval.status !== 'changes') return info(ctx, approval);
    const now = ctx.now();
    if (model.at !== undefined && model.at <= now)
      throw userError('approval-resubmit-too-late', { when: formatBoth(model.at, await ctx.timeZone()) });
    const settings = await effectiveSettings(store, approval.conversation, {
      knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
    });
    const expiresAt = model.at ?? now + requestLifetimeMs(settings);
    const path = stagesOf(settings).map(stepOf);
    const patch: Partial<ApprovalCardModel> = {
      ...(await newVersion(ctx, approval)),
      status: 'pending',
      requestedAt: now,
      approvers: path[0]?.approvers ?? settings.approvers,
      ...(path.length > 1 ? { path, stage: 0 } : {}),
      ...(model.at === undefined ? { expiresAt } : {}),
    };
    const drop: (keyof ApprovalCardModel)[] = ['decidedByName', 'decidedAt', 'reason'];
    if (path.length <= 1) drop.push('path', 'stage');
    const owner = await ctx.keyOwner();
    const reopened = await store.transaction(async () => {
      if (!(await store.approvals.reopen(approval.id, { expiresAt }))) return undefined;
      const again = (await store.approvals.get(approval.id)) ?? approval;
      await store.watches.add({
        kind: 'approval',
        target: again.id,
        owner,
        conversation: again.conversation,
        cardKey: again.cardKey,
        state: {},
        nextCheckAt: nextLookAt(now, expiresAt, now),
        expiresAt,
      });
      await updateApprovalCard(store, again, { patch, drop, dedupeKey: `${roundKey(again)}:resubmitted` });
      await announce(ctx, again, patch);
      return again;
    });
    if (!reopened) return info(ctx, (await store.approvals.get(approval.id)) ?? approval);
    return message({
      title: md`Sent for approval again`,
      tone: 'info',
      text: md`Your new version of **${storedText(approval.action.summary)}** is back with ${formatMentions(patch.approvers ?? [], md`the approvers`)}${path.length > 1 ? md` at **${literal(path[0]?.name ?? '')}**` : md``}, in the same thread. I tell you here when someone decides.`,
      context: md`Approval \`${literal(approval.id)}\``,
    });
  },
};

/** The card's picture of what would be published now (a publish or schedule of a video), else nothing new. */
async function newVersion(ctx: CommandContext, approval: Approval): Promise<Partial<ApprovalCardModel>> {
  const videoId = approval.action.args.videoId;
  const command = approval.action.command;
  if (typeof videoId !== 'string' || (command !== 'publish' && command !== 'schedule')) return {};
  const again = publicationApproval(await getVideo(ctx, videoId), approval.action);
  return {
    summary: again.summary,
    fields: again.fields ?? [],
    ...(again.sections ? { sections: again.sections } : {}),
    ...(again.image ? { image: again.image } : {}),
  };
}

/** The new version in the request's thread, its first stage's approvers mentioned; the audit row. */
async function announce(ctx: CommandContext, approval: Approval, patch: Partial<ApprovalCardModel>) {
  const store = ctx.deps.store;
  const first = patch.path?.[0]?.name;
  await replyToCard(store, {
    key: approval.cardKey,
    card: {
      title: md`New version`,
      tone: 'warning',
      text: md`**${literal(ctx.req.userName ?? 'The requester')}** sent a new version${first ? md`: it starts again at **${literal(first)}**` : md``}. ${formatMentions(patch.approvers ?? [], md`The approvers`)}: the buttons are on the request above.`,
      notify: [...(patch.approvers ?? [])],
    },
    dedupeKey: `${roundKey(approval)}:resubmitted:thread`,
    threaded: true,
  });
  await store.audit.record({
    at: ctx.now(),
    conversation: approval.conversation,
    actor: ctx.req.user,
    action: 'approval.resubmit',
    details: { approval: approval.id, command: approval.action.command, summary: approval.action.summary },
  });
}
