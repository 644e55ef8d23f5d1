/**
 * The approval policy (the conversation's effective one: workspace ⊕ channel; DESIGN §5, `settings approval off|publish|spend`): which requests wait for
 * an approver, and who may decide one.
 */

import { type CommandContext, isAllowedOrg, type UserError, userError } from '../dispatch/context.js';
import { formatMention, formatMentions, isAmong } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { md } from '../text/text.js';
import { passesMonthlyCap } from './month-spend.js';
import { isGroupRef, recordRefusal } from './refusals.js';
import { currentStage } from './stages.js';
import { effectiveSettings } from './workspace-policy.js';

/** What is asked: publishing (publish, schedule), or spending credits (unknown cost counts as above). */
export type ApprovalNeed = { kind: 'publish' } | { kind: 'spend'; credits: number | undefined };

/**
 * Whether `need` waits for an approver in the caller's conversation. `publish` and `spend` both cover
 * publishing; `spend` also covers creations above the channel's threshold. A spend past the monthly cap
 * (`settings monthly-cap`) waits whatever the rule.
 */
export async function needsApproval(ctx: CommandContext, need: ApprovalNeed): Promise<boolean> {
  const s = await ctx.settings();
  // Past the monthly cap, any spend waits for an approver, whatever the approval rule and threshold.
  if (need.kind === 'spend' && (await passesMonthlyCap(ctx, need.credits))) return true;
  if (s.approval === 'off') return false;
  if (need.kind === 'publish') return true;
  return s.approval === 'spend' && (need.credits === undefined || need.credits > s.spendThreshold);
}

/**
 * Why the caller may not decide `approval`, or undefined when they may. The approval must belong to the
 * clicker's conversation (a forged button naming another channel's approval is refused), the clicker must
 * be an approver now (listed, or in a listed group/role), and not the requester unless self-approval is on.
 */
export async function decisionRefusal(
  ctx: CommandContext,
  approval: Approval,
): Promise<UserError | undefined> {
  if (approval.conversation !== ctx.req.conversation) return userError('approval-elsewhere');
  const refusal = await approverRefusal(ctx, approval);
  if (refusal) await recordRefusal(ctx, { why: refusal.code, approval });
  return refusal;
}

/** Whether the clicker is an approver of the request's conversation now (its effective policy). */
async function approverRefusal(ctx: CommandContext, approval: Approval): Promise<UserError | undefined> {
  // A member of another organisation in a shared channel decides nothing here unless their org is allowed.
  if (!isAllowedOrg(ctx.req, ctx.deps)) return userError('approval-external-org');
  const s = await effectiveSettings(ctx.deps.store, approval.conversation, {
    knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
  });
  // The approvers of the stage it waits at (the only stage of a policy without stages: its approvers).
  const { approvers } = currentStage(s, approval);
  if (!isAmong(approvers, ctx.req.user, ctx.req.memberOf)) {
    // Named through a group we cannot check right now: refused, never trusted from an old answer.
    if (ctx.req.membershipUnverified && approvers.some(isGroupRef)) return userError('approval-unverifiable');
    return userError('approval-not-approver', { approvers: formatMentions(approvers, md`nobody`) });
  }
  if (approval.requester === ctx.req.user && !s.selfApproval) {
    const others = approvers.filter((a) => a !== ctx.req.user);
    return userError('approval-self', { approvers: formatMentions(others, md`another approver`) });
  }
  return undefined;
}

/** The words for who decided, for "already approved by X". */
export const deciderOf = (approval: Approval): string =>
  approval.decidedBy ? formatMention(approval.decidedBy) : 'the scheduled time passing';
