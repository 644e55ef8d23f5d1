/**
 * Who may see and stop a conversation's subscriptions from the dashboard: a workspace admin, or a
 * member of that conversation — the one the request comes from, or one the platform says they are in. A
 * platform that cannot tell (or fails to) counts as "not a member": a private channel's subscriptions are
 * never shown, nor stopped, on a guess.
 */
import type { RequestInfo } from '../dispatch/context.js';
import type { ConversationAddress } from '../ports/index.js';

export async function mayManageFromHome(
  req: RequestInfo,
  conversation: ConversationAddress,
): Promise<boolean> {
  if (req.isWorkspaceAdmin === true || conversation === req.conversation) return true;
  try {
    return (await req.conversations?.isMember(conversation)) === true;
  } catch {
    return false;
  }
}
