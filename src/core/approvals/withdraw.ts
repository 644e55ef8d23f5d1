/**
 * Withdrawing a pending request before anyone decides: by its requester with the Withdraw button (on the
 * request card or in the inbox), or by `unschedule` on a video whose schedule still waits for approval, so
 * an approver cannot later schedule what the team meant to cancel. The card is edited to "Withdrawn".
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import type { ActionSpec } from '../parse/command-spec.js';
import { formatMention } from '../people/mentions.js';
import { workspaceOf } from '../ports/address.js';
import type { Approval, Store } from '../ports/index.js';
import { message, type Response } from '../text/cards.js';
import { type CardText, literal, md, storedText } from '../text/text.js';
import { WITHDRAW_ACTION } from './card.js';
import { auditApproval, closeExpiryWatch, updateApprovalCard } from './effects.js';
import { clickedApproval } from './reach.js';
import { alreadyDecided } from './wording.js';

interface Withdrawal {
  by: string;
  byName: string;
  how: 'unschedule' | 'button';
  now: number;
}

/** Withdraws a pending approval once (inside a transaction): false when it was decided meanwhile. */
async function withdrawApproval(store: Store, approval: Approval, w: Withdrawal): Promise<boolean> {
  const decision = { status: 'expired' as const, by: w.by, at: w.now, reason: 'withdrawn' };
  if (!(await store.approvals.decide(approval.id, decision))) return false;
  await closeExpiryWatch(store, approval.id);
  await updateApprovalCard(store, approval, {
    patch: { status: 'expired', withdrawnBy: w.byName, withdrawnWith: w.how, decidedAt: w.now },
    dedupeKey: `approval:${approval.id}:withdrawn`,
  });
  await auditApproval(store, approval, {
    at: w.now,
    actor: w.by,
    action: 'approval.withdraw',
    details: { via: w.how },
  });
  return true;
}

/** Withdraws this conversation's pending schedule requests for `videoId`; how many there were. */
export async function withdrawScheduleRequests(ctx: CommandContext, videoId: string): Promise<number> {
  const store = ctx.deps.store;
  const w: Withdrawal = {
    by: ctx.req.user,
    byName: ctx.req.userName ?? 'a member',
    how: 'unschedule',
    now: ctx.now(),
  };
  return await store.transaction(async () => {
    let count = 0;
    // Every pending request has an expiry watch: they are found through it.
    for (const watch of await store.watches.activeWhere({
      kind: 'approval',
      conversation: ctx.req.conversation,
    })) {
      const approval = await store.approvals.get(watch.target);
      if (approval?.status !== 'pending' || approval.action.command !== 'schedule') continue;
      if (approval.action.args.videoId !== videoId) continue;
      if (await withdrawApproval(store, approval, w)) count++;
    }
    return count;
  });
}

const inWorkspace = (approval: Approval, ctx: CommandContext): boolean =>
  workspaceOf(approval.conversation) === workspaceOf(ctx.req.conversation);

/** The Withdraw button: only the requester may; anyone else hears who can. */
export const withdrawAction: ActionSpec = {
  action: WITHDRAW_ACTION,
  async run(ctx, value): Promise<Response> {
    const { id } = await clickedApproval(ctx, value);
    const store = ctx.deps.store;
    const approval = id ? await store.approvals.get(id) : undefined;
    if (!approval || !inWorkspace(approval, ctx)) throw userError('interaction-expired');
    if (approval.requester !== ctx.req.user) {
      throw userError('approval-withdraw-not-yours', { who: formatMention(approval.requester) });
    }
    const answer = (text: CardText) => message({ title: md`Nothing to do`, tone: 'info', text });
    if (approval.status !== 'pending') return answer(await alreadyDecided(approval, ctx));
    const w: Withdrawal = {
      by: ctx.req.user,
      byName: ctx.req.userName ?? 'the requester',
      how: 'button',
      now: ctx.now(),
    };
    if (!(await store.transaction(async () => withdrawApproval(store, approval, w))))
      return answer(await alreadyDecided((await store.approvals.get(approval.id)) ?? approval, ctx));
    return message({
      title: md`Withdrawn`,
      tone: 'neutral',
      text: md`You withdrew **${storedText(approval.action.summary)}**. Nothing was sent, and approvers can no longer approve it.`,
      context: md`Approval \`${literal(approval.id)}\``,
    });
  },
};
