/**
 * Refusals by the policy are audited (DESIGN §5: every decision, refusal and policy change), so an admin's
 * `audit --workspace` shows who tried what and was stopped.
 */
import type { CommandContext } from '../dispatch/context.js';
import { decodeGroupReference } from '../ports/address.js';
import type { Approval } from '../ports/index.js';

/** A group/role reference (a `groupReference`), not a person. */
export const isGroupRef = (ref: string): boolean => decodeGroupReference(ref) !== undefined;

export async function recordRefusal(
  ctx: CommandContext,
  o: { why: string; approval?: Approval; role?: string; setting?: string },
): Promise<void> {
  await ctx.deps.store.audit.record({
    at: ctx.now(),
    conversation: ctx.req.conversation,
    actor: ctx.req.user,
    action: 'policy.refuse',
    details: {
      why: o.why,
      ...(o.approval ? { approval: o.approval.id, summary: o.approval.action.summary } : {}),
      ...(o.role ? { role: o.role } : {}),
      ...(o.setting ? { setting: o.setting } : {}),
    },
  });
}
