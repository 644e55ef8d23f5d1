/**
 * Approve, Reject (with a reason form) and Retry on an approval card. The button value is only the
 * approval id; each click is re-authorised: the approval must belong to the clicker's conversation, the
 * clicker must be an approver now, and not the requester unless self-approval is on. `store.approvals.decide`
 * is a compare-and-set, so of two concurrent clicks exactly one decides; the other hears who did.
 */
import { randomUUID } from 'node:crypto';
import { type CommandContext, UserError, userError } from '../dispatch/context.js';
import type { ActionSpec, FormSpec } from '../parse/command-spec.js';
import { formatMention } from '../people/mentions.js';
import type { Approval } from '../ports/index.js';
import { type Card, type Form, message, type Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { type CardText, literal, md, storedText } from '../text/text.js';
import { describeApiError, isApiError } from '../video-api/api-errors.js';
import { APPROVE_ACTION, REJECT_ACTION, RETRY_ACTION } from './card.js';
import {
  approvalModel,
  auditApproval,
  notifyRequester,
  recordDecision,
  updateApprovalCard,
} from './effects.js';
import { expireApproval } from './expire.js';
import type { ApprovalCardModel } from './model.js';
import { decisionRefusal } from './policy.js';
import { clickedApproval } from './reach.js';
import { runApproved } from './runner-port.js';
import { approveAtStage } from './stage-approve.js';
import { alreadyDecided } from './wording.js';

const REJECT_FORM = 'approval.reject.form';
export const REASON_MAX = 500;

/** The approval a button names, if the clicker may decide it; a refusal (thrown) otherwise. */
export async function loadDecidable(
  ctx: CommandContext,
  id: string,
): Promise<{ approval: Approval; model: ApprovalCardModel }> {
  const approval = id ? await ctx.deps.store.approvals.get(id) : undefined;
  if (!approval) throw userError('interaction-expired');
  const refusal = await decisionRefusal(ctx, approval);
  if (refusal) throw refusal;
  const model = await approvalModel(ctx.deps.store, approval);
  if (!model) throw userError('interaction-expired');
  return { approval, model };
}

const info = (text: CardText, title = md`Nothing to do`): Response => message({ title, tone: 'info', text });

const decider = (ctx: CommandContext): string => ctx.req.userName ?? 'An approver';

/**
 * A pending approval past its expiry (the poller has not looked yet) is expired now rather than decided:
 * the scheduled time it was for has passed.
 */
export async function expiredMeanwhile(
  ctx: CommandContext,
  approval: Approval,
): Promise<Response | undefined> {
  if (approval.expiresAt === null || approval.expiresAt > ctx.now()) return undefined;
  const store = ctx.deps.store;
  await store.transaction(async () => expireApproval(store, approval, ctx.now()));
  return info(await alreadyDecided((await store.approvals.get(approval.id)) ?? approval, ctx));
}

export const approveAction: ActionSpec = {
  action: APPROVE_ACTION,
  async run(clickCtx, value) {
    // From the inbox, the decision runs as if clicked where the request is (reach.ts).
    const { ctx, id } = await clickedApproval(clickCtx, value);
    const { approval, model } = await loadDecidable(ctx, id);
    if (approval.status !== 'pending') return info(await alreadyDecided(approval, ctx));
    const late = await expiredMeanwhile(ctx, approval);
    if (late) return late;
    // The approved action runs with the approver's key: without one, refuse before deciding anything.
    await ctx.api();
    if (model.path) {
      const staged = await approveAtStage(ctx, approval, model);
      if ('answer' in staged) return staged.answer;
      const decided = (await ctx.deps.store.approvals.get(approval.id)) ?? approval;
      return guardedRun(ctx, decided, staged.run);
    }
    const store = ctx.deps.store;
    const now = ctx.now();
    const won = await store.transaction(async () => {
      return await recordDecision(store, approval, {
        decision: { status: 'approved', by: ctx.req.user, at: now },
        card: { decidedByName: decider(ctx), outcome: { state: 'running', text: md`` } },
        audit: { actor: ctx.req.user, action: 'approval.approve' },
      });
    });
    const decided = (await store.approvals.get(approval.id)) ?? approval;
    if (!won) return info(await alreadyDecided(decided, ctx));
    return guardedRun(ctx, decided, { ...model, decidedByName: decider(ctx) });
  },
};

/** Runs (or re-runs) the approved action once at a time per approval in this process. */
const inFlight = new Map<string, Promise<Response>>();

function guardedRun(ctx: CommandContext, approval: Approval, model: ApprovalCardModel): Promise<Response> {
  if (inFlight.has(approval.id))
    return Promise.resolve(info(md`It is running right now; its card shows the result.`));
  const attempt = execute(ctx, approval, model).finally(() => inFlight.delete(approval.id));
  inFlight.set(approval.id, attempt);
  return attempt;
}

async function execute(ctx: CommandContext, approval: Approval, model: ApprovalCardModel): Promise<Response> {
  const store = ctx.deps.store;
  const by = model.decidedByName ?? decider(ctx);
  try {
    const result = await runApproved(ctx, { approval, model });
    await store.transaction(async () => {
      await updateApprovalCard(store, approval, {
        patch: { outcome: { state: 'done', text: result.outcome } },
        dedupeKey: `approval:${approval.id}:done`,
      });
      await notifyRequester(store, approval, {
        state: 'done',
        card: {
          title: md`Approved`,
          tone: 'success',
          text: md`**${literal(by)}** approved **${storedText(approval.action.summary)}**.\n${result.outcome}`,
          context: md`Approval \`${literal(approval.id)}\``,
        },
      });
    });
    const card: Card = { ...result.card, title: md`Approved · ${result.card.title}` };
    return message(card);
  } catch (error) {
    const reason = describeFailure(ctx, error);
    const now = ctx.now();
    await store.transaction(async () => {
      await updateApprovalCard(store, approval, {
        patch: { outcome: { state: 'failed', text: reason } },
        dedupeKey: `approval:${approval.id}:failed:${now}`,
      });
      await auditApproval(store, approval, {
        at: now,
        actor: ctx.req.user,
        action: 'approval.fail',
        details: { error: reason },
      });
      await notifyRequester(store, approval, {
        state: 'failed',
        card: {
          title: md`Approved, but not done`,
          tone: 'danger',
          text: md`**${literal(by)}** approved **${storedText(approval.action.summary)}**, but it did not go through: ${reason}`,
          context: md`Approval \`${literal(approval.id)}\` · ${literal(by)} can press Retry on its card`,
        },
      });
    });
    return message({
      title: md`Approved, but it did not go through`,
      tone: 'danger',
      text: md`${reason}\nOnce that is fixed, press **Retry** on the approval card: it never runs twice.`,
      context: md`Approval \`${literal(approval.id)}\``,
    });
  }
}

/** Words for a failed run: user mistakes and API errors as usual; anything else is logged with a reference. */
function describeFailure(ctx: CommandContext, error: unknown): CardText {
  if (error instanceof UserError) return say(error.code, error.params);
  if (isApiError(error)) return describeApiError(error);
  const ref = randomUUID().slice(0, 8);
  ctx.deps.logger.error({ ref, err: error, user: ctx.req.user }, 'approved action failed');
  return say('internal', { ref });
}

export const retryAction: ActionSpec = {
  action: RETRY_ACTION,
  async run(ctx, id) {
    const { approval, model } = await loadDecidable(ctx, id);
    if (approval.status !== 'approved') return info(await alreadyDecided(approval, ctx));
    if (model.outcome?.state === 'done') return info(md`It already went through; see the approval card.`);
    // The service matches idempotency keys per API key: only the same key (the approver's) makes a retry safe.
    if (approval.decidedBy !== ctx.req.user) {
      throw userError('approval-retry-approver', {
        who: approval.decidedBy ? formatMention(approval.decidedBy) : 'the approver',
      });
    }
    await ctx.api();
    await auditApproval(ctx.deps.store, approval, {
      at: ctx.now(),
      actor: ctx.req.user,
      action: 'approval.retry',
    });
    return guardedRun(ctx, approval, model);
  },
};

/** Reject opens the reason form; the decision happens on submit. */
export const rejectAction: ActionSpec = {
  action: REJECT_ACTION,
  async run(clickCtx, value) {
    const { ctx, id } = await clickedApproval(clickCtx, value);
    const { approval } = await loadDecidable(ctx, id);
    if (approval.status !== 'pending') return info(await alreadyDecided(approval, ctx));
    const form: Form = {
      id: REJECT_FORM,
      title: 'Reject the request',
      submitLabel: 'Reject',
      // The button's value: an inbox mark carries over to the submission.
      state: value,
      intro: md`Reject **${storedText(approval.action.summary)}**? The requester sees your reason.`,
      inputs: [
        {
          kind: 'text',
          id: 'reason',
          label: 'Reason',
          multiline: true,
          required: false,
          maxLength: REASON_MAX,
          placeholder: 'e.g. The caption needs the launch date',
        },
      ],
    };
    return { kind: 'form', form };
  },
};

export const rejectForm: FormSpec = {
  id: REJECT_FORM,
  async submit(submitCtx, state, values) {
    const reason = (values.reason ?? '').trim();
    if (reason.length > REASON_MAX) {
      return {
        kind: 'form-errors',
        errors: { reason: say('too-long', { option: 'reason', length: reason.length, max: REASON_MAX }) },
      };
    }
    const { ctx, id } = await clickedApproval(submitCtx, state);
    const { approval } = await loadDecidable(ctx, id);
    if (approval.status !== 'pending') return info(await alreadyDecided(approval, ctx));
    const late = await expiredMeanwhile(ctx, approval);
    if (late) return late;
    const store = ctx.deps.store;
    const now = ctx.now();
    const won = await store.transaction(async () => {
      const decided = await recordDecision(store, approval, {
        decision: { status: 'rejected', by: ctx.req.user, at: now, ...(reason ? { reason } : {}) },
        card: { decidedByName: decider(ctx), ...(reason ? { reason } : {}) },
        audit: { actor: ctx.req.user, action: 'approval.reject', ...(reason ? { details: { reason } } : {}) },
      });
      if (!decided) return false;
      await notifyRequester(store, approval, {
        state: 'rejected',
        card: {
          title: md`Request rejected`,
          tone: 'danger',
          text: md`**${literal(decider(ctx))}** rejected **${storedText(approval.action.summary)}**${reason ? md`: “${literal(reason)}”` : md`.`} Nothing was sent.`,
          context: md`Approval \`${literal(approval.id)}\``,
        },
      });
      return true;
    });
    if (!won) return info(await alreadyDecided((await store.approvals.get(approval.id)) ?? approval, ctx));
    return message({
      title: md`Rejected`,
      tone: 'neutral',
      text: md`You rejected **${storedText(approval.action.summary)}**${reason ? md`: “${literal(reason)}”` : md`.`} The requester has been told.`,
      context: md`Approval \`${literal(approval.id)}\``,
    });
  },
};
