/**
 * The effective policy of a conversation (DESIGN §5): its workspace's policy, tightened by the channel's own
 * rules (`settings … --here`). Every conversation of a workspace — channels without settings, private
 * channels, DMs, group DMs — inherits the workspace's; a channel can only make it stricter.
 *
 * Discord DMs have no guild (workspace `@me`): they inherit the strictest combination of the policies of the
 * Discord guilds the deployment knows (those with a stored policy, and those `REELBOT_WORKSPACES` lists), so
 * with one guild, that guild's. People named in a guild policy are matched in DMs by their Discord user id.
 */
import { DM_WORKSPACE, decodeAddress, isDmWorkspace, userAddress, workspaceOf } from '../ports/address.js';
import {
  type ChannelSettings,
  type ConversationAddress,
  DEFAULT_CHANNEL_SETTINGS,
  type Holders,
  type PolicyTightening,
  type Store,
  type WorkspacePolicy,
} from '../ports/index.js';
import { named, storedHolders, stricterHolders } from './holders.js';

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
 * A role list left empty by those rows said "everyone": no rule.
 */
export function tighteningOf(doc: ChannelSettings): PolicyTightening {
  if (doc.here) return withRoleLists(doc.here);
  const d = DEFAULT_CHANNEL_SETTINGS;
  return withRoleLists({
    ...(doc.approval !== d.approval ? { approval: doc.approval } : {}),
    ...(doc.approvers.length > 0 ? { approvers: [...doc.approvers] } : {}),
    ...(doc.spendThreshold !== d.spendThreshold ? { spendThreshold: doc.spendThreshold } : {}),
    roles: {
      publish: named(doc.roles.publish),
      spend: named(doc.roles.spend),
      admin: named(doc.roles.admin),
    },
  });
}

/** `t` keeping only the role lists that name someone (an empty or `everyone` one sets no rule). */
function withRoleLists(t: PolicyTightening): PolicyTightening {
  const { roles: stored, ...rest } = t;
  const roles: NonNullable<PolicyTightening['roles']> = {};
  for (const r of ROLE_NAMES) {
    const list = stored?.[r] as Holders | undefined;
    if (list !== undefined && list !== 'everyone' && list.length > 0) roles[r] = [...list];
  }
  return { ...rest, ...(Object.keys(roles).length > 0 ? { roles } : {}) };
}

/** A workspace policy as stored, role lists read by `storedHolders` (the one normalising read). */
export function fromStored(policy: WorkspacePolicy): WorkspacePolicy {
  return {
    ...policy,
    roles: {
      publish: storedHolders(policy.roles.publish),
      spend: storedHolders(policy.roles.spend),
      admin: storedHolders(policy.roles.admin),
    },
  };
}

/** The policy `workspace` stored (defaults when none), read through `fromStored`. */
export async function storedPolicy(store: Store, workspace: string): Promise<WorkspacePolicy> {
  const stored = await store.policies.get(workspace);
  return stored ? fromStored(stored) : defaultPolicy();
}

/**
 * Approvers, stricter of two: a workspace that names none leaves a channel free to name its own; once it
 * names some, only those both name (possibly nobody).
 */
const stricterApprovers = (a: readonly string[], b: readonly string[] | undefined): string[] =>
  !b || b.length === 0 ? [...a] : a.length === 0 ? [...b] : a.filter((x) => b.includes(x));

/**
 * `base` made stricter by `t` (a channel's tightening, or another workspace's policy for a DM): more approval,
 * fewer holders and approvers, lower threshold and lifetime. Never looser than either.
 */
export function tighten(base: WorkspacePolicy, t: PolicyTightening | WorkspacePolicy): WorkspacePolicy {
  const approval =
    t.approval && APPROVAL_ORDER.indexOf(t.approval) > APPROVAL_ORDER.indexOf(base.approval)
      ? t.approval
      : base.approval;
  const caps = [base.monthlyCap, t.monthlyCap].filter((v): v is number => v !== undefined);
  const lifetimes = [base.requestLifetimeMs, t.requestLifetimeMs].filter((v): v is number => v !== undefined);
  return {
    approval,
    approvers: stricterApprovers(base.approvers, t.approvers),
    selfApproval: base.selfApproval && t.selfApproval !== false,
    spendThreshold: Math.min(base.spendThreshold, t.spendThreshold ?? base.spendThreshold),
    roles: {
      publish: stricterHolders(base.roles.publish, t.roles?.publish),
      spend: stricterHolders(base.roles.spend, t.roles?.spend),
      admin: stricterHolders(base.roles.admin, t.roles?.admin),
    },
    ...(lifetimes.length > 0 ? { requestLifetimeMs: Math.min(...lifetimes) } : {}),
    ...(base.reminders === false || t.reminders === false ? { reminders: false } : {}),
    // Stages are the workspace's (a channel sets none); for a DM, the first server's that has some.
    ...((base.stages ?? t.stages) ? { stages: base.stages ?? t.stages } : {}),
    ...(caps.length > 0 ? { monthlyCap: Math.min(...caps) } : {}),
  };
}

/** A workspace's policy as it reads in its platform's DMs (`platform`: `discord:`): people by their id under `@me`. */
function asDm(policy: WorkspacePolicy, platform: string): WorkspacePolicy {
  const move = <H extends Holders>(refs: H): H =>
    refs === 'everyone'
      ? refs
      : (refs.map((ref) => {
          if (!ref.startsWith(platform)) return ref;
          const person = decodeAddress(ref);
          return userAddress(person.platform, DM_WORKSPACE, person.id);
        }) as H);
  return {
    ...policy,
    approvers: move(policy.approvers),
    ...(policy.stages
      ? { stages: policy.stages.map((s) => (s.approvers ? { ...s, approvers: move(s.approvers) } : s)) }
      : {}),
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
  // Role lists from different guilds keep whom both admit: two servers naming different publishers leave
  // nobody to publish from a DM. Approvers as a channel's: one guild naming none leaves the other's.
  return rest.reduce((acc, p) => tighten(acc, p), first);
}

export interface PolicyScope {
  /** Workspaces the deployment serves (`REELBOT_WORKSPACES`), for Discord DMs. */
  knownWorkspaces?: readonly string[] | undefined;
}

/**
 * The policy of `workspace` as stored (defaults when none); the DMs of a platform whose DMs sit outside every
 * workspace (Discord's `@me`): the strictest of its workspaces'.
 */
export async function workspacePolicy(
  store: Store,
  workspace: string,
  scope: PolicyScope = {},
): Promise<WorkspacePolicy> {
  if (!isDmWorkspace(workspace)) return storedPolicy(store, workspace);
  const platform = `${workspace.split(':')[0]}:`;
  const guilds = new Set(
    [
      ...(scope.knownWorkspaces ?? []),
      ...(await store.policies.list(platform)).map((p) => p.workspace),
    ].filter((w) => w.startsWith(platform) && !isDmWorkspace(w)),
  );
  const policies = [...guilds].map(async (g) => asDm(await storedPolicy(store, g), platform));
  return strictestOf(await Promise.all(policies));
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
