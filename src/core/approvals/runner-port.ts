/**
 * The port between approvals and the commands they run: each command group registers, in its
 * module, how to run an approved request of its commands (`CommandModule.approved`), so approvals depend on
 * this port and never on command internals. The approver's context, the request's stored idempotency key.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import type { Approval } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { type CardText, joinText, link } from '../text/text.js';
import type { ApprovalCardModel, ApprovedCommand } from './model.js';

export interface ApprovedResult {
  /** What the original command would have answered, in the approver's zone (their private confirmation). */
  card: Card;
  /** Neutral words for the shared approval card. */
  outcome: CardText;
}

export type ApprovedRunner = (
  ctx: CommandContext,
  request: { approval: Approval; model: ApprovalCardModel },
) => Promise<ApprovedResult>;

export type ApprovedRunners = Partial<Readonly<Record<ApprovedCommand, ApprovedRunner>>>;

/** A stored string argument, when it is a non-empty string. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Arguments come from our own store, but a bad row must fail clearly rather than send something odd. */
export function malformed(): never {
  throw userError('approval-malformed');
}

/** Who asked, for the card of a write run on their behalf. */
export const approvedBy = (request: { approval: Approval; model: ApprovalCardModel }) => ({
  id: request.approval.id,
  requesterName: request.model.requesterName,
});

/** The links of a result card, as markdown for the shared card. */
export const linksOf = (card: Card): CardText =>
  joinText(
    (card.controls ?? []).flatMap((c) => (c.kind === 'link' ? [link(c.label, c.url)] : [])),
    ' · ',
  );

/** Runs an approved request through the runner its command group registered (`ctx.deps.approved`). */
export function runApproved(
  ctx: CommandContext,
  request: { approval: Approval; model: ApprovalCardModel },
): Promise<ApprovedResult> {
  const runner = ctx.deps.approved?.[request.approval.action.command as ApprovedCommand];
  if (!runner) malformed();
  return runner(ctx, request);
}
