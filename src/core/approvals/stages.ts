/**
 * Approval stages (DESIGN §5, `settings approval stages brand,legal`): a request passes each stage in order,
 * decided by that stage's approvers (its own list, else the general approvers): Any (the default) moves on with
 * one Approve, All with one from every listed approver (a listed group or role: one of its members). A policy
 * without stages has one implicit stage, its general approvers, Any: exactly the single gate from before.
 */
import { isAmong } from '../people/mentions.js';
import type { Approval, StageVote, UserAddress, WorkspacePolicy } from '../ports/index.js';
import type { StageStep } from './model.js';

/** A stage as it applies now: its name ('' for the implicit one), approvers, and Any/All. */
export interface Stage {
  name: string;
  approvers: string[];
  all: boolean;
}

type StagePolicy = Pick<WorkspacePolicy, 'approvers' | 'stages' | 'selfApproval'>;

/**
 * The stages of a policy, each with the approvers that decide it. For a request of `requester` without
 * self-approval, an All stage does not wait for the requester, who may not approve it.
 */
export function stagesOf(policy: StagePolicy, requester?: UserAddress): Stage[] {
  const stages = policy.stages ?? [];
  if (stages.length === 0) return [{ name: '', approvers: [...policy.approvers], all: false }];
  const decides = (ref: string) => policy.selfApproval || ref !== requester;
  return stages.map((s) => {
    const all = s.all === true;
    const approvers = s.approvers ?? policy.approvers;
    return { name: s.name, approvers: all ? approvers.filter(decides) : [...approvers], all };
  });
}

/**
 * The stage a request waits at (the last one if the policy has fewer stages now than when it was asked), as
 * `stagesOf` reads it for `requester`.
 */
export function currentStage(policy: StagePolicy, approval: Approval, requester?: UserAddress): Stage {
  const stages = stagesOf(policy, requester);
  return stages[Math.min(approval.stage ?? 0, stages.length - 1)] as Stage;
}

/** The references of `stage` a person answers for: themselves, or the listed groups they are in. */
export const coveredBy = (stage: Stage, user: UserAddress, memberOf?: readonly string[]): string[] =>
  stage.approvers.filter((ref) => isAmong([ref], user, memberOf));

/** Whether the votes at a stage complete it: one for Any, every listed reference covered for All. */
export function stageComplete(stage: Stage, votes: readonly StageVote[]): boolean {
  if (votes.length === 0) return false;
  if (!stage.all) return true;
  return stage.approvers.every((ref) => votes.some((v) => v.covers.includes(ref)));
}

/** Stage names as typed (`brand,legal` or `brand legal`): lower-case words, each once. */
export function parseStageNames(value: string): string[] | undefined {
  const names = value
    .split(/[\s,]+/)
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const valid = names.every((n) => /^[a-z][a-z0-9_-]{0,23}$/.test(n));
  if (names.length === 0 || !valid || new Set(names).size !== names.length || names.length > 5)
    return undefined;
  return names;
}

/** A stage as a request's card shows it before anyone approved it. */
export const stepOf = (stage: Stage): StageStep => ({
  name: stage.name,
  all: stage.all,
  approvers: [...stage.approvers],
  by: [],
  covered: [],
});
