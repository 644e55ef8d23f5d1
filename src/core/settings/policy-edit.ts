/**
 * A governance change applied to the workspace policy, or to a channel's tightening (`--here`), where it
 * may only make the workspace's rules stricter:
 * - approval: `spend` ⊇ `publish` ⊇ `off`;
 * - roles: a channel list must be a subset of the workspace's unless that one is `everyone`;
 * - approvers: the safe reading — a channel may name FEWER approvers (a subset of the workspace's list),
 *   never others (naming someone else would let a person the admins did not choose decide). Only where the
 *   workspace has no approval and names no approvers may a channel name its own, with its own approval;
 * - self-approval: a channel may forbid it, never allow it; threshold, monthly cap and request lifetime: only
 *   lower;
 * - reminders: a channel may turn them off, never on when the workspace has them off.
 * `none`/`everyone` for a channel list means "as the workspace says" (the tightening is removed).
 * A workspace rule changed later may leave a channel's list with no one in common with it: that channel then
 * admits nobody (never everyone), and the change names it (`channel-recheck.ts`).
 */

import { formatHolders } from '../approvals/holders.js';
import { APPROVAL_ORDER } from '../approvals/workspace-policy.js';
import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import { formatMentions } from '../people/mentions.js';
import type { ApprovalStage, PolicyTightening, WorkspacePolicy } from '../ports/index.js';
import { md } from '../text/text.js';
import type { AlertChange, QueueChange, SettingChange } from './setting-change.js';

type GovernanceChange = Exclude<
  SettingChange,
  { key: 'threading' } | { key: 'timezone' } | QueueChange | AlertChange
>;

export function applyToPolicy(policy: WorkspacePolicy, change: GovernanceChange): WorkspacePolicy {
  const next = structuredClone(policy);
  switch (change.key) {
    case 'approval':
      next.approval = change.mode;
      break;
    case 'approvers':
      if (change.stage === undefined) next.approvers = change.refs;
      else next.stages = withStage(next.stages, change.stage, { approvers: change.refs });
      break;
    case 'stages':
      // A stage named again keeps its approvers and rule; one or none is the single implicit stage.
      if (change.names.length === 0) delete next.stages;
      else next.stages = change.names.map((name) => next.stages?.find((s) => s.name === name) ?? { name });
      break;
    case 'stage-rule':
      next.stages = withStage(next.stages, change.stage, { all: change.all });
      break;
    case 'self-approval':
      next.selfApproval = change.on;
      break;
    case 'spend-threshold':
      next.spendThreshold = change.credits;
      break;
    case 'monthly-cap':
      if (change.credits === undefined) delete next.monthlyCap;
      else next.monthlyCap = change.credits;
      break;
    case 'role':
      next.roles[change.role] = change.refs;
      break;
    case 'lifetime':
      next.requestLifetimeMs = change.ms;
      break;
    case 'reminders':
      next.reminders = change.on;
      break;
  }
  return next;
}

/** `stages` with stage `name` changed: its own approvers (none: the general ones), or its rule (Any: unset). */
function withStage(
  stages: ApprovalStage[] | undefined,
  name: string,
  change: { approvers?: string[]; all?: boolean },
): ApprovalStage[] {
  return (stages ?? []).map((s) => {
    if (s.name !== name) return s;
    const { approvers, all, ...rest } = s;
    const nextApprovers = change.approvers ?? approvers;
    const nextAll = change.all ?? all;
    return {
      ...rest,
      ...(nextApprovers && nextApprovers.length > 0 ? { approvers: nextApprovers } : {}),
      ...(nextAll ? { all: true } : {}),
    };
  });
}

/** The request lifetime when the workspace sets none (as `approvals/lifetime.ts`). */
const DEFAULT_LIFETIME_MS = 24 * 60 * 60_000;

const subset = (list: readonly string[], of: readonly string[]) => list.every((x) => of.includes(x));

/** `here` with the change, or the refusal saying what the workspace requires. */
export function applyToTightening(
  ws: WorkspacePolicy,
  here: PolicyTightening,
  change: GovernanceChange,
): Result<PolicyTightening> {
  const next: PolicyTightening = structuredClone(here);
  const looser = (requires: string) => err(userError('policy-loosen', { requires }));
  // Stages are the workspace's: a channel cannot reorder them or name a stage's approvers.
  if (change.key === 'stages' || change.key === 'stage-rule' || (change.key === 'approvers' && change.stage))
    return err(userError('approval-stages-workspace'));
  switch (change.key) {
    case 'approval':
      if (APPROVAL_ORDER.indexOf(change.mode) < APPROVAL_ORDER.indexOf(ws.approval))
        return looser(`approval \`${ws.approval}\``);
      if (change.mode === ws.approval) delete next.approval;
      else next.approval = change.mode;
      return ok(next);
    case 'approvers': {
      if (change.refs.length === 0) {
        delete next.approvers;
        return ok(next);
      }
      const open = ws.approval === 'off' && ws.approvers.length === 0;
      if (!open && !subset(change.refs, ws.approvers))
        return looser(`approvers among ${formatMentions(ws.approvers, md`nobody yet`)}`);
      next.approvers = change.refs;
      return ok(next);
    }
    case 'self-approval':
      if (change.on && !ws.selfApproval) return looser('no self-approval');
      if (change.on) delete next.selfApproval;
      else next.selfApproval = false;
      return ok(next);
    case 'spend-threshold':
      if (change.credits > ws.spendThreshold)
        return looser(`a spend threshold of ${ws.spendThreshold} credits or less`);
      next.spendThreshold = change.credits;
      return ok(next);
    case 'reminders':
      if (change.on && ws.reminders === false) return looser('no reminders');
      if (change.on) delete next.reminders;
      else next.reminders = false;
      return ok(next);
    case 'monthly-cap':
      if (ws.monthlyCap !== undefined && (change.credits === undefined || change.credits > ws.monthlyCap))
        return looser(`a monthly cap of ${ws.monthlyCap} credits or less`);
      if (change.credits === undefined) delete next.monthlyCap;
      else next.monthlyCap = change.credits;
      return ok(next);
    case 'lifetime': {
      const limit = ws.requestLifetimeMs ?? DEFAULT_LIFETIME_MS;
      if (change.ms > limit) return looser(`requests to expire within ${Math.round(limit / 60_000)} minutes`);
      next.requestLifetimeMs = change.ms;
      return ok(next);
    }
    case 'role': {
      const roles = { ...next.roles };
      const allowed = ws.roles[change.role];
      if (change.refs === 'everyone') delete roles[change.role];
      else if (allowed !== 'everyone' && !subset(change.refs, allowed))
        return looser(`the ${change.role} role among ${formatHolders(allowed)}`);
      else roles[change.role] = change.refs;
      if (Object.keys(roles).length > 0) next.roles = roles;
      else delete next.roles;
      return ok(next);
    }
  }
}
