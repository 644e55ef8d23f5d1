/** Create, run again from its stored request: for an approver and for a write whose local record failed. */
import { type ApprovedRunners, malformed, str } from '../../approvals/runner-port.js';
import type { EffectRunners } from '../../effects/reconcile.js';
import { md } from '../../text/text.js';
import { approveCreate } from './create-confirm.js';

export const approved: ApprovedRunners = {
  async create(ctx, { approval }) {
    const requestId = str(approval.action.args.requestId);
    if (!requestId) malformed();
    const card = await approveCreate(ctx, requestId, approval.action.idempotencyKey);
    return { card, outcome: md`${card.title} Its status card is posted in this channel.` };
  },
};

export const effects: EffectRunners = {
  async create(ctx, effect) {
    const requestId = str(effect.args.requestId);
    if (!requestId) malformed();
    await approveCreate(ctx, requestId, effect.idempotencyKey);
  },
};
