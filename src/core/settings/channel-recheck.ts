/**
 * Rules that admit nobody (DESIGN §5): a channel's own list and its workspace's with no one in common, as a
 * workspace rule changed after the channel tightened it. The effective rule is then nobody, never everyone;
 * these say where, for which rule, and how to fix it — on the admin's answer and on `settings`.
 */
import { admitsNobody } from '../approvals/holders.js';
import { tighten, tighteningOf } from '../approvals/workspace-policy.js';
import type { ConversationAddress, PolicyTightening, Store, WorkspacePolicy } from '../ports/index.js';
import { say } from '../text/messages.js';
import type { CardText } from '../text/text.js';
import { ROLES, type Role, roleVerb } from './setting-change.js';

/** A rule that admits nobody: a role, or the approvers while approval is on. */
export type NobodyRule = { kind: 'role'; role: Role } | { kind: 'approvers' };

/** The rules of `effective` that admit nobody because of the channel's own (`here`) — its fix is there. */
export function nobodyHere(effective: WorkspacePolicy, here: PolicyTightening): NobodyRule[] {
  const rules: NobodyRule[] = ROLES.filter(
    (role) => here.roles?.[role] !== undefined && admitsNobody(effective.roles[role]),
  ).map((role) => ({ kind: 'role', role }));
  if (here.approvers !== undefined && effective.approval !== 'off' && effective.approvers.length === 0)
    rules.push({ kind: 'approvers' });
  return rules;
}

/** Every stored channel of `workspace` whose own rules admit nobody under `policy`, with those rules. */
export async function channelsAdmittingNobody(
  store: Store,
  workspace: string,
  policy: WorkspacePolicy,
): Promise<{ conversation: ConversationAddress; rules: NobodyRule[] }[]> {
  return (await store.settings.inWorkspace(workspace)).flatMap(({ conversation, settings }) => {
    const here = tighteningOf(settings);
    const rules = nobodyHere(tighten(policy, here), here);
    return rules.length > 0 ? [{ conversation, rules }] : [];
  });
}

/** One warning per rule, with its fix; `where` is card markdown ("this channel", a channel mention). */
export const nobodyWarnings = (rules: readonly NobodyRule[], where: string): CardText[] =>
  rules.map((rule) =>
    rule.kind === 'role'
      ? say('nobody-holds-role', { what: roleVerb(rule.role), role: rule.role, where })
      : say('nobody-approves', { where }),
  );

/**
 * Roles that admit nobody in a Discord DM, whose policy is the strictest of the servers' (no channel rule of
 * its own): one warning each, fixed in the servers.
 */
export const serversNobodyWarnings = (dm: WorkspacePolicy, here: PolicyTightening = {}): CardText[] =>
  ROLES.filter((role) => admitsNobody(dm.roles[role]) && here.roles?.[role] === undefined).map((role) =>
    say('nobody-holds-role-servers', { what: roleVerb(role), role }),
  );

/** How a rule reads in the audit trail (`role publish`, `approvers`), as `settings.change` names settings. */
export const ruleName = (rule: NobodyRule): string =>
  rule.kind === 'role' ? `role ${rule.role}` : 'approvers';
