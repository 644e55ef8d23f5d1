/**
 * The effective policy of a conversation (DESIGN §5): its workspace's policy, tightened by the channel's own
 * rules (`settings … --here`). Every conversation of a workspace — channels without settings, private
 * channels, DMs, group DMs — inherits the workspace's; a channel can only make it stricter.
 *
 * Discord DMs have no guild (workspace `@me`): they inherit the strictest combination of the policies of the
 * Discord guilds the deployment knows (those with a stored policy, and those `REELBOT_WORKSPACES` lists), so
 * with one guild, that guild's. People named in a guild policy are matched in DMs by their Discord user id.
 */
import { decodeAddress, userAddress, workspaceOf } from '../address.js';
import {
  type ChannelSettings,
  type ConversationAddress,
  DEFAULT_CHANNEL_SETTINGS,
  type PolicyTightening,
  type Store,
  type WorkspacePolicy,
} from '../ports.js';

export const APPROVAL_ORDER: readonly WorkspacePolicy['approval'][] = ['off', 'publish', 'spend'];
const ROLE_NAMES = ['publish', 'spend', 'admin'] as const;

/** The workspace part of an address whose policy applies (`discord:@me` for every Discord DM). */
export const policyWorkspace = (conversation: ConversationAddress): string => workspaceOf(conversation);

export function defaultPolicy(): WorkspacePolicy {
  const { threading: _t, timeZone: _z, ...policy } = structuredClone(DEFAULT_CHANNEL_SETTINGS);
  return policy;
}

/**
 * The channel's tightening as stored: `here`, or for rows written before workspace policies, the governance
 * values that differ from the defaults (they were the channel's whole policy then; kept as its tightening).
 */
export function tighteningOf(doc: ChannelSettings): PolicyTightening {
  if (doc.here) return doc.here;
  const d = DEFAULT_CHANNEL_SETTINGS;
  const roles: NonNullable<PolicyTightening['roles']> = {};
  for (const r of ROLE_NAMES) if (doc.roles[r].length > 0) roles[r] = [...doc.roles[r]];
  return {
    ...(doc.approval !== d.approval ? { approval: doc.approval } : {}),
    ...(doc.approvers.length > 0 ? { approvers: [...doc.approvers] } : {}),
    ...(doc.spendThreshold !== d.spendThreshold ? { spendThreshold: doc.spendThreshold } : {}),
    ...(Object.keys(roles).length > 0 ? { roles } : {}),
  };
}

/** A list rule, stricter of two: an empty list says nothing (everyone/nobody named), else the common part. */
const stricterList = (a: readonly string[], b: readonly string[] | undefined): string[] =>
  !b || b.length === 0 ? [...a] : a.length === 0 ? [...b] : a.filter((x) => b.includes(x));

/** `base` made stricter by `t`: more approval, fewer holders and approvers, lower threshold and lifetime. */
export function tighten(base: WorkspacePolicy, t: PolicyTightening): WorkspacePolicy {
  const approval =
    t.approval && APPROVAL_ORDER.indexOf(t.approval) > APPROVAL_ORDER.indexOf(base.approval)
      ? t.approval
      : base.approval;
  const lifetimes = [base.requestLifetimeMs, t.requestLifetimeMs].filter((v): v is number => v !== undefined);
  return {
    approval,
    approvers: stricterList(base.approvers, t.approvers),
    selfApproval: base.selfApproval && t.selfApproval !== false,
    spendThreshold: Math.min(base.spendThreshold, t.spendThreshold ?? base.spendThreshold),
    roles: {
      publish: stricterList(base.roles.publish, t.roles?.publish),
      spend: stricterList(base.roles.spend, t.roles?.spend),
      admin: stricterList(base.roles.admin, t.roles?.admin),
    },
    ...(lifetimes.length > 0 ? { requestLifetimeMs: Math.min(...lifetimes) } : {}),
  };
}

/** A guild policy as it reads in a Discord DM: people by their user id under `@me`. */
function asDm(policy: WorkspacePolicy): WorkspacePolicy {
  const move = (refs: string[]) =>
    refs.map((ref) => {
      if (!ref.startsWith('discord:')) return ref;
      return userAddress('discord', '@me', decodeAddress(ref).id);
    });
  return {
    ...policy,
    approvers: move(policy.approvers),
    roles: {
      publish: move(policy.roles.publish),
      spend: move(policy.roles.spend),
      admin: move(policy.roles.admin),
    },
  };
}

/** Combines policies into the strictest (for a DM served by several guilds). */
function strictestOf(policies: WorkspacePolicy[]): WorkspacePolicy {
  const [first, ...rest] = policies;
  if (!first) return defaultPolicy();
  // Lists from different guilds: an empty one says nothing, two non-empty ones keep what both name.
  return rest.reduce((acc, p) => tighten(acc, p), first);
}

export interface PolicyScope {
  /** Workspaces the deployment serves (`REELBOT_WORKSPACES`), for Discord DMs. */
  knownWorkspaces?: readonly string[] | undefined;
}

/** The policy of `workspace` as stored (defaults when none); Discord DMs: the strictest of the guilds'. */
export async function workspacePolicy(
  store: Store,
  workspace: string,
  scope: PolicyScope = {},
): Promise<WorkspacePolicy> {
  if (workspace !== 'discord:@me') return (await store.policies.get(workspace)) ?? defaultPolicy();
  const guilds = new Set(
    [
      ...(scope.knownWorkspaces ?? []),
      ...(await store.policies.list('discord:')).map((p) => p.workspace),
    ].filter((w) => w.startsWith('discord:') && w !== 'discord:@me'),
  );
  return strictestOf(
    await Promise.all([...guilds].map(async (g) => asDm((await store.policies.get(g)) ?? defaultPolicy()))),
  );
}

/** The settings a conversation runs under: its presentation keys, and the effective policy. */
export async function effectiveSettings(
  store: Store,
  conversation: ConversationAddress,
  scope: PolicyScope = {},
): Promise<ChannelSettings> {
  const doc = await store.settings.get(conversation);
  const policy = tighten(
    await workspacePolicy(store, policyWorkspace(conversation), scope),
    tighteningOf(doc),
  );
  const { threading, timeZone } = doc;
  return { threading, ...(timeZone ? { timeZone } : {}), here: tighteningOf(doc), ...policy };
}
