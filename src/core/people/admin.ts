/**
 * Who may configure what. The workspace policy (governance keys) is set by workspace admins: the platform's
 * own (Slack admins/owners, Discord Manage Server, the demo's Alice; `RequestInfo.isWorkspaceAdmin`) and
 * anyone the workspace's `admin` role names. A channel's other configuration (presentation settings,
 * subscriptions) is limited to the effective `admin` role (`everyone` unless set).
 *
 * A guest from another organisation (Slack Connect, `RequestInfo.externalOrg`) is an admin of THEIR
 * organisation at most: the platform's admin flag counts for nothing here, and they configure nothing unless
 * their organisation is allowed (`REELBOT_WORKSPACES`).
 */
import { holds, named } from '../approvals/holders.js';
import { policyWorkspace, workspacePolicy } from '../approvals/workspace-policy.js';
import { type CommandContext, isAllowedOrg, userError } from '../dispatch/context.js';
import { md } from '../text/text.js';
import { formatMentions, isAmong } from './mentions.js';

/** The workspace's `admin` role holders by name (its policy, not a channel's; none while it is `everyone`). */
export const workspaceAdmins = async (ctx: CommandContext): Promise<string[]> =>
  named(
    (
      await workspacePolicy(ctx.deps.store, policyWorkspace(ctx.req.conversation), {
        knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
      })
    ).roles.admin,
  );

/** A workspace admin by the platform's own account, which a guest of another organisation never is here. */
export const isPlatformAdmin = (ctx: CommandContext): boolean =>
  ctx.req.isWorkspaceAdmin === true && ctx.req.externalOrg === undefined;

/** A workspace admin: by the platform's account, or named by the workspace's `admin` role. */
export async function isWorkspaceAdmin(ctx: CommandContext): Promise<boolean> {
  if (!isAllowedOrg(ctx.req, ctx.deps)) return false;
  if (isPlatformAdmin(ctx)) return true;
  return isAmong(await workspaceAdmins(ctx), ctx.req.user, ctx.req.memberOf);
}

/** Throws the refusal naming who sets the team policy. */
export async function requireWorkspaceAdmin(ctx: CommandContext): Promise<void> {
  refuseGuests(ctx);
  if (await isWorkspaceAdmin(ctx)) return;
  const admins = await workspaceAdmins(ctx);
  throw userError('policy-admins-only', {
    who: admins.length > 0 ? `${formatMentions(admins)} or the workspace’s admins` : 'the workspace’s admins',
  });
}

export async function requireAdmin(ctx: CommandContext, what: string): Promise<void> {
  refuseGuests(ctx);
  if (await isWorkspaceAdmin(ctx)) return;
  const admins = (await ctx.settings()).roles.admin;
  if (holds(admins, ctx.req.user, ctx.req.memberOf)) return;
  throw userError('not-allowed', { who: formatMentions(named(admins), md`the workspace’s admins`), what });
}

/** A member of an organisation nobody allowed changes no configuration here. */
function refuseGuests(ctx: CommandContext): void {
  if (!isAllowedOrg(ctx.req, ctx.deps)) throw userError('config-external-org');
}
