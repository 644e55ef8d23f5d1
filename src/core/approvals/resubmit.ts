/**
 * A new version of a request sent back with Request changes (changes.ts): **Send new version** (the requester,
 * on the card or the notice), or the same command typed again, asks again in the same card and thread, from
 * the first stage, with what would be published now. A double click or a stale card does nothing twice
 * (`reopen` is a compare-and-set, like every decision).
 */
import { type CommandContext, userError } from '../dispatch/context.js';
import { replyToCard } from '../live/live-card.js';
import type { ActionSpec } from '../parse/command-spec.js';
import { formatMention, formatMentions } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { publicationApproval } from '../publishing/publication.js';
import { getVideo } from '../publishing/schedule-flow.js';
import { message, type Response } from '../text/cards.js';
import { literal, md, storedText } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import { RESUBMIT_ACTION } from './card.js';
import { approvalModel, roundKey, updateApprovalCard } from './effects.js';
import { requestLifetimeMs } from './lifetime.js';
import type { ApprovalCardModel } from './model.js';
import { nextLookAt } from './reminders.js';
import { stagesOf, stepOf } from './stages.js';
import { alreadyDecided } from './wording.js';
import { effectiveSettings } from './workspace-policy.js';

export const resubmitAction: ActionSpec = {
  action: RESUBMIT_ACTION,
  async run(ctx, id): Promise<Response> {
    const approval = id ? await ctx.deps.store.approvals.get(id) : undefined;
    if (!approval) throw userError('interaction-expired');
    if (approval.conversation !== ctx.req.conversation) throw userError('approval-elsewhere');
    if (approval.requester !== ctx.req.user)
      throw userError('approval-resubmit-not-yours', { who: formatMention(approval.requester) });
    return sendNewVersion(ctx, approval);
  },
};

/**
 * The caller's request in this conversation that was sent back for changes and asks for the same thing
 * (`command` with the same arguments), if any: typing the command again sends it as its new version.
 */
export async function sentBackFor(
  ctx: CommandContext,
  request: { command: string; args: Record<string, unknown> },
): Promise<Approval | undefined> {
  const same = JSON.stringify(request.args);
  return (await ctx.deps.store.approvals.sentBack(ctx.req.conversation, ctx.req.user)).find(
    (a) => a.action.command === request.command && JSON.stringify(a.action.args) === same,
  );
}

/** Reopens `approval` (the caller's, sent back for changes) at its first stage, in the same card and thread. */
export async function sendNewVersion(ctx: CommandContext, approval: Approval): Promise<Response> {
  const store = ctx.deps.store;
  const model = await approvalModel(store, approval);
  if (!model) throw userError('interaction-expired');
  if (approval.status !== 'changes')
    return message({ title: md`Nothing to do`, tone: 'info', text: await alreadyDecided(approval, ctx) });
  const now = ctx.now();
  if (model.at !== undefined && model.at <= now)
    throw userError('approval-resubmit-too-late', { when: formatBoth(model.at, await ctx.timeZone()) });
  const settings = await effectiveSettings(store, approval.conversation, {
    knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
  });
  const expiresAt = model.at ?? now + requestLifetimeMs(settings);
  const path = stagesOf(settings, approval.requester).map(stepOf);
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
  if (!reopened) {
    const now = (await store.approvals.get(approval.id)) ?? approval;
    return message({ title: md`Nothing to do`, tone: 'info', text: await alreadyDecided(now, ctx) });
  }
  return message({
    title: md`Sent for approval again`,
    tone: 'info',
    text: md`Your new version of **${storedText(approval.action.summary)}** is back with ${formatMentions(patch.approvers ?? [], md`the approvers`)}${path.length > 1 ? md` at **${literal(path[0]?.name ?? '')}**` : md``}, in the same thread. I tell you here when someone decides.`,
    context: md`Approval \`${literal(approval.id)}\``,
  });
}

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
