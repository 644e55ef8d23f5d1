/**
 * A member acting on a request from another conversation (changing what it publishes from a DM or another
 * channel) is judged where the request was asked: that conversation's effective policy, roles and approvers,
 * and that conversation for its card. They act there as that workspace knows them: in the same workspace, as
 * themselves with their groups; on a platform whose user ids hold across workspaces and DMs (Discord:
 * `ChatCapabilities.workspacelessDms`), as the same id under the request's workspace (or `@me`), their groups
 * unknown there (a role of another guild, or none read in a DM, never counts); anywhere else as a stranger,
 * whom only a rule open to everyone lets through.
 */

import { type CommandContext, createContext } from '../dispatch/context.js';
import { decodeAddress, userAddress, workspaceOf } from '../ports/address.js';
import type { ConversationAddress, UserAddress } from '../ports/index.js';

/**
 * The user `user` under the workspace of `conversation`, when both are of the same platform and its user ids
 * hold across workspaces (`idsAcrossWorkspaces`).
 */
function sameUserThere(
  user: UserAddress,
  conversation: ConversationAddress,
  idsAcrossWorkspaces: boolean,
): UserAddress | undefined {
  const who = decodeAddress(user);
  const where = decodeAddress(conversation);
  if (!idsAcrossWorkspaces || who.platform !== where.platform) return undefined;
  return userAddress(who.platform, where.workspace, who.id);
}

/** The caller's context as the conversation `conversation` (a request's own) sees them. */
export function contextWhereAsked(ctx: CommandContext, conversation: ConversationAddress): CommandContext {
  if (ctx.req.conversation === conversation) return ctx;
  // What was typed or clicked here (its message, its mentions) means nothing there.
  const { message: _message, mentions: _mentions, ...req } = ctx.req;
  if (workspaceOf(req.user) === workspaceOf(conversation))
    return createContext({ ...req, conversation }, ctx.deps);
  // Their groups and admin standing are those of their own workspace, not the request's.
  const { memberOf: _groups, isWorkspaceAdmin: _admin, ...person } = req;
  return createContext(
    {
      ...person,
      user: sameUserThere(req.user, conversation, req.capabilities?.workspacelessDms === true) ?? req.user,
      conversation,
      membershipUnverified: true,
    },
    ctx.deps,
  );
}
