/**
 * Which approval a button names, and the context to decide it in. Buttons on the approval card carry the
 * bare id and are decided where the card is. The inbox (`approvals`, App Home) lists requests of every
 * conversation of the workspace, so its buttons carry `id:inbox`: the click is then re-authorised as if it
 * came from the request's own conversation (that conversation's policy, that conversation for what the
 * approved action posts). The mark grants nothing by itself: a request of another workspace stays refused.
 */

import { type CommandContext, createContext } from '../dispatch/context.js';
import { workspaceOf } from '../ports/address.js';

const INBOX_MARK = 'inbox';

/** The value of an inbox button for approval `id`. */
export const inboxValue = (id: string): string => `${id}:${INBOX_MARK}`;

const sameWorkspace = (a: string, b: string): boolean => {
  try {
    return workspaceOf(a) === workspaceOf(b);
  } catch {
    return false;
  }
};

/** The approval id of a button value, and the context its decision runs in. */
export async function clickedApproval(
  ctx: CommandContext,
  value: string,
): Promise<{ id: string; ctx: CommandContext }> {
  const [id = '', mark] = value.split(':');
  if (mark !== INBOX_MARK) return { id: value, ctx };
  const approval = id ? await ctx.deps.store.approvals.get(id) : undefined;
  if (!approval || approval.conversation === ctx.req.conversation) return { id, ctx };
  // Another workspace's request keeps the clicker's context, where it is refused as belonging elsewhere.
  if (!sameWorkspace(approval.conversation, ctx.req.conversation)) return { id, ctx };
  const { message: _clicked, ...req } = ctx.req;
  return { id, ctx: createContext({ ...req, conversation: approval.conversation }, ctx.deps) };
}
