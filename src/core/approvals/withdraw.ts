/**
 * `unschedule` on a video whose schedule still waits for approval: the request is withdrawn, so an approver
 * cannot later schedule what the team meant to cancel. Pending schedule requests are found through their
 * expiry watches (every schedule request has one).
 */
import type { CommandContext } from '../context.js';
import { auditApproval, closeExpiryWatch, updateApprovalCard } from './effects.js';

/** Withdraws this conversation's pending schedule requests for `videoId`; how many there were. */
export function withdrawScheduleRequests(ctx: CommandContext, videoId: string): number {
  const store = ctx.deps.store;
  const now = ctx.now();
  return store.transaction(() => {
    let count = 0;
    for (const watch of store.watches.activeWhere({ kind: 'approval', conversation: ctx.req.conversation })) {
      const approval = store.approvals.get(watch.target);
      if (approval?.status !== 'pending' || approval.action.command !== 'schedule') continue;
      if (approval.action.args.videoId !== videoId) continue;
      const decision = { status: 'expired' as const, by: ctx.req.user, at: now, reason: 'withdrawn' };
      if (!store.approvals.decide(approval.id, decision)) continue;
      closeExpiryWatch(store, approval.id);
      updateApprovalCard(
        store,
        approval,
        { status: 'expired', withdrawnBy: ctx.req.userName ?? 'a member', decidedAt: now },
        `approval:${approval.id}:withdrawn`,
      );
      auditApproval(store, approval, { at: now, actor: ctx.req.user, action: 'approval.withdraw' });
      count++;
    }
    return count;
  });
}
