/**
 * Seam for the `spend` approval policy (DESIGN §5): with `settings approval spend`, creating a video above the
 * channel's credit threshold needs an approver. Requesting that approval is a later issue; until it exists the
 * callers refuse (with the reason) rather than silently spend past the channel's policy.
 */
import type { CommandContext } from '../../context.js';

export type SpendKind = 'video' | 'series-episode';

/** True when the channel's policy requires an approval before spending `credits` on `kind`. */
export function requiresApproval(ctx: CommandContext, _kind: SpendKind, credits: number): boolean {
  const settings = ctx.settings();
  return settings.approval === 'spend' && credits > settings.spendThreshold;
}
