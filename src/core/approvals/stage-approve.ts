/**
 * Approve on a request with stages (stages.ts): the approver's vote is counted at the stage the request waits
 * at; a stage complete (one vote for Any, every listed approver for All) moves it on, in place on its card,
 * and the next stage's approvers are mentioned in its thread. Only the vote that completes the last stage
 * decides it (`recordDecision`, the same compare-and-set as a request without stages), and then runs it.
 * Votes, the move and the card change commit together: of two approvers pressing at once, both count once,
 * and the move or the decision happens once.
 */
import type { CommandContext } from '../dispatch/context.js';
import { replyToCard } from '../live/live-card.js';
import { formatMentions } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { message, type Response } from '../text/cards.js';
import { literal, md, storedText } from '../text/text.js';
import { auditApproval, recordDecision, roundKey, updateApprovalCard } from './effects.js';
import type { ApprovalCardModel, StageStep } from './model.js';
import { coveredBy, currentStage, type Stage, stageComplete } from './stages.js';
import { alreadyDecided } from './wording.js';
import { effectiveSettings } from './workspace-policy.js';

/** What a vote did: counted (the stage waits for others), moved the request on, decided it, or nothing. */
type Vote =
  | { kind: 'counted'; step: StageStep }
  | { kind: 'moved'; next: StageStep }
  | { kind: 'decided'; model: ApprovalCardModel }
  | { kind: 'not-counted' };

/**
 * Counts the caller's Approve on `approval` (pending, with stages): the approved model when this vote decided
 * it (the caller then runs it), else the answer to show.
 */
export async function approveAtStage(
  ctx: CommandContext,
  approval: Approval,
  model: ApprovalCardModel,
): Promise<{ run: ApprovalCardModel } | { answer: Response }> {
  const store = ctx.deps.store;
  const settings = await effectiveSettings(store, approval.conversation, {
    knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
  });
  const stage = currentStage(settings, approval, approval.requester);
  const vote = await store.transaction(() => countVote(ctx, { approval, model, stage }));
  if (vote.kind === 'decided') return { run: vote.model };
  const summary = storedText(approval.action.summary);
  if (vote.kind === 'moved')
    return {
      answer: message({
        title: md`Approved at ${literal(stepName(model, approval))}`,
        tone: 'success',
        text: md`**${summary}** now waits for the **${literal(vote.next.name)}** stage: ${formatMentions(vote.next.approvers, md`nobody`)}.`,
        context: md`Approval \`${literal(approval.id)}\``,
      }),
    };
  if (vote.kind === 'counted')
    return {
      answer: message({
        title: md`Approved at ${literal(vote.step.name)}`,
        tone: 'info',
        text: md`Your approval counts. At **${literal(vote.step.name)}** every listed approver must approve: ${vote.step.covered.length} of ${vote.step.approvers.length} so far.`,
        context: md`Approval \`${literal(approval.id)}\``,
      }),
    };
  return { answer: await notCounted(ctx, approval) };
}

const stepName = (model: ApprovalCardModel, approval: Approval): string =>
  model.path?.[approval.stage ?? 0]?.name ?? '';

/** Inside the transaction: the vote, and what it completes. */
async function countVote(
  ctx: CommandContext,
  { approval, model, stage }: { approval: Approval; model: ApprovalCardModel; stage: Stage },
): Promise<Vote> {
  const store = ctx.deps.store;
  const now = ctx.now();
  const at = approval.stage ?? 0;
  const round = approval.round ?? 0;
  const covers = coveredBy(stage, ctx.req.user, ctx.req.memberOf);
  const counted = await store.approvals.vote(approval.id, {
    round,
    stage: at,
    by: ctx.req.user,
    covers,
    at: now,
  });
  if (!counted) return { kind: 'not-counted' };
  const votes = (await store.approvals.votes(approval.id, round)).filter((v) => v.stage === at);
  const path = [...(model.path ?? [])];
  const step: StageStep = {
    ...(path[at] as StageStep),
    all: stage.all,
    approvers: stage.approvers,
    by: [...(path[at]?.by ?? []), ctx.req.userName ?? 'An approver'],
    covered: stage.approvers.filter((ref) => votes.some((v) => v.covers.includes(ref))),
  };
  path[at] = step;
  const tag = `${roundKey(approval)}:stage:${at}:vote:${ctx.req.user}`;
  const complete = stageComplete(stage, votes);
  // The vote that decides it is audited as the approval itself.
  if (!complete || at < path.length - 1)
    await auditApproval(store, approval, {
      at: now,
      actor: ctx.req.user,
      action: 'approval.stage',
      details: { stage: step.name, ...(complete ? { next: path[at + 1]?.name } : {}) },
    });
  if (!complete) {
    await updateApprovalCard(store, approval, { patch: { path }, dedupeKey: tag });
    return { kind: 'counted', step };
  }
  if (at >= path.length - 1) {
    const card = {
      decidedByName: ctx.req.userName ?? 'An approver',
      path,
      outcome: { state: 'running' as const, text: md`` },
    };
    const won = await recordDecision(store, approval, {
      decision: { status: 'approved', by: ctx.req.user, at: now },
      card,
      audit: { actor: ctx.req.user, action: 'approval.approve' },
    });
    return won ? { kind: 'decided', model: { ...model, ...card } } : { kind: 'not-counted' };
  }
  return moveOn(ctx, { approval, path, at, tag });
}

/** The stage is complete: the request waits at the next one, whose approvers are mentioned in its thread. */
async function moveOn(
  ctx: CommandContext,
  { approval, path, at, tag }: { approval: Approval; path: StageStep[]; at: number; tag: string },
): Promise<Vote> {
  const store = ctx.deps.store;
  if (!(await store.approvals.advance(approval.id, { round: approval.round ?? 0, from: at, to: at + 1 })))
    return { kind: 'not-counted' };
  const settings = await effectiveSettings(store, approval.conversation, {
    knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
  });
  const fresh = currentStage(settings, { ...approval, stage: at + 1 }, approval.requester);
  const next: StageStep = { ...(path[at + 1] as StageStep), all: fresh.all, approvers: fresh.approvers };
  path[at + 1] = next;
  await updateApprovalCard(store, approval, { patch: { path, stage: at + 1 }, dedupeKey: tag });
  await replyToCard(store, {
    key: approval.cardKey,
    card: {
      title: md`Approval needed at ${literal(next.name)}`,
      tone: 'warning',
      text: md`**${literal(path[at]?.by.join(', ') ?? '')}** approved at **${literal(path[at]?.name ?? '')}**. **${storedText(approval.action.summary)}** now waits for the **${literal(next.name)}** stage${next.all ? md`, where every listed approver must approve` : md``}: ${formatMentions(next.approvers, md`nobody`)}. The buttons are on the request above.`,
      notify: [...next.approvers],
    },
    dedupeKey: `${roundKey(approval)}:stage:${at + 1}:reached`,
    threaded: true,
  });
  return { kind: 'moved', next };
}

/** The vote did not count: this person already approved this stage, or it moved on or was decided meanwhile. */
async function notCounted(ctx: CommandContext, before: Approval): Promise<Response> {
  const now = (await ctx.deps.store.approvals.get(before.id)) ?? before;
  const info = (text: ReturnType<typeof md>) => message({ title: md`Nothing to do`, tone: 'info', text });
  if (now.status !== 'pending') return info(await alreadyDecided(now, ctx));
  if ((now.stage ?? 0) === (before.stage ?? 0) && (now.round ?? 0) === (before.round ?? 0))
    return info(md`You already approved this stage; it waits for the other approvers.`);
  return info(md`It moved on meanwhile; its card shows where it waits now.`);
}
