/**
 * `settings [key value] [--here]`: the effective settings (and where each rule comes from), and one setting
 * changed at a time. Threading and the time zone are the channel's own. The governance keys (`approval`,
 * `approvers`, `self-approval`, `spend-threshold`, `role`, `lifetime`) are the workspace policy, set by its
 * admins; with `--here` an admin makes one stricter for this channel only (never looser: policy-edit.ts).
 */

import { recordRefusal } from '../../approvals/refusals.js';
import {
  policyWorkspace,
  storedPolicy,
  tighteningOf,
  workspacePolicy,
} from '../../approvals/workspace-policy.js';
import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { isPlatformAdmin, requireAdmin, requireWorkspaceAdmin, workspaceAdmins } from '../../people/admin.js';
import { formatMentions, isAmong } from '../../people/mentions.js';
import { dmWorkspaceOf, isDmWorkspace } from '../../ports/address.js';
import type { WorkspacePolicy } from '../../ports/index.js';
import { queueHere } from '../../publishing/slots-queue.js';
import { alertsLine, changeAlerts } from '../../settings/alerts-edit.js';
import {
  channelsAdmittingNobody,
  nobodyWarnings,
  ruleName,
  serversNobodyWarnings,
} from '../../settings/channel-recheck.js';
import {
  checkStage,
  type GovernanceChange,
  ruleValue,
  settingName,
  summaryOf,
} from '../../settings/governance-words.js';
import { applyToPolicy, applyToTightening } from '../../settings/policy-edit.js';
import { applyQueueChange, queueLines, queueSummary, queueValue } from '../../settings/queue-edit.js';
import {
  type AlertChange,
  EXPECTED,
  parseSetting,
  type QueueChange,
  SETTING_KEYS,
  type SettingChange,
  type SettingKey,
} from '../../settings/setting-change.js';
import { settingsCard } from '../../settings/settings-card.js';
import { type Card, message, type Response } from '../../text/cards.js';
import { type CardText, channel, command, joinText, literal, md } from '../../text/text.js';

export { SETTING_KEYS } from '../../settings/setting-change.js';

export const settingsCommand: CommandSpec = defineCommand({
  name: 'settings',
  summary: 'Show or change settings: this channel’s threading and time zone, the team’s approvals and roles',
  options: [
    {
      name: 'key',
      kind: 'choice',
      positional: true,
      choices: SETTING_KEYS,
      description: 'Which setting',
    },
    { name: 'value', kind: 'text', positional: true, rest: true, description: 'New value' },
    {
      name: 'here',
      kind: 'boolean',
      description: 'A team rule tightened here only',
    },
    {
      name: 'stage',
      kind: 'string',
      advanced: true,
      description: 'The approval stage an `approvers` or `approval any|all` change is for',
    },
  ],
  examples: [
    'settings',
    'settings threading off',
    'settings timezone Europe/Paris',
    'settings approval publish',
    'settings approvers @alice @bob',
    'settings role admin @alice',
    'settings approval spend --here',
    'settings lifetime 12h',
    'settings reminders off',
    'settings approval stages brand,legal',
    'settings approvers @&legal --stage legal',
    'settings approval all --stage legal',
    'settings slots youtube "mon-fri 09:00,17:00"',
    'settings daily-cap tiktok 2',
    'settings low-balance 200',
    'settings alerts #budget',
  ],
  details: md`\`threading on|off\`: milestones of a card as thread replies. \`timezone <zone>|none\`: the default zone for members who set none. Team rules, for the whole workspace (its admins): \`approval off|publish|spend\`, \`approvers <mentions>|none\`, \`self-approval on|off\`, \`spend-threshold <credits>\`, \`monthly-cap <credits>|off\` (a spend past it this month needs an approver), \`role publish|spend|admin <mentions>|everyone\`, \`lifetime <duration>\` (how long a request waits), \`reminders on|off\` (approvers reminded at half the lifetime and an hour before expiry), \`approval stages <names>|off\` (stages decided in turn, like \`brand,legal\`), with \`--stage <name>\`: \`approvers <mentions>|none\` (that stage's own approvers) and \`approval any|all\` (one approver moves it on, or every one must approve). Add \`--here\` to make a team rule stricter in this channel only. The queue: \`slots <platform> "<days> <times>"|off\` (in the channel's time zone, else yours; ${command('schedule')} \`… next\` takes the next free one), \`daily-cap <platform> <n>|off\` (more posts a day are warned); \`--here\` sets this channel's own, which wins here. Budget alerts, for the whole workspace: \`low-balance <credits>|off\` (one alert when the balance falls below, again after it rose), \`alerts #channel|off\` (where they go).`,
  async run(ctx, args): Promise<Response> {
    if (!args.key) return message(await cardFor(ctx));
    const key = args.key as SettingKey;
    const value = args.value?.trim() ?? '';
    if (value === '') throw userError('setting-needs-value', { key, expected: EXPECTED[key] });
    const change = parseSetting(ctx, { key, value, stage: args.stage?.trim() || undefined });
    if (!change.ok) throw change.error;
    const c = change.value;
    if (c.key === 'threading' || c.key === 'timezone') return changeChannel(ctx, c);
    if (c.key === 'slots' || c.key === 'daily-cap') return changeQueue(ctx, c, args.here === true);
    if (c.key === 'low-balance' || c.key === 'alerts') return changeBudgetAlerts(ctx, c, args.here === true);
    return args.here ? await tightenHere(ctx, c) : await changeWorkspace(ctx, c);
  },
});

async function cardFor(ctx: CommandContext): Promise<Card> {
  const settings = await ctx.settings();
  const workspace = policyWorkspace(ctx.req.conversation);
  const dm = isDmWorkspace(workspace);
  const alerts = dm ? undefined : alertsLine((await storedPolicy(ctx.deps.store, workspace)).alerts);
  return settingsCard({
    settings,
    here: settings.here ?? {},
    inherited: dm ? 'servers’ policies' : 'workspace policy',
    queue: queueLines(await queueHere(ctx)),
    ...(alerts ? { alerts } : {}),
  });
}

async function changeChannel(
  ctx: CommandContext,
  c: Extract<SettingChange, { key: 'threading' | 'timezone' }>,
) {
  await requireAdmin(ctx, 'change settings');
  const { store } = ctx.deps;
  const raw = await store.settings.get(ctx.req.conversation);
  // Rows from before workspace policies keep their governance as this channel's tightening.
  const next = { ...raw, here: tighteningOf(raw) };
  let summary: CardText;
  if (c.key === 'threading') {
    next.threading = c.on;
    summary = md`Threading is **${c.on ? md`on` : md`off`}**: milestones go ${c.on ? md`in the card’s thread` : md`to the channel`}.`;
  } else if (c.zone) {
    next.timeZone = c.zone;
    summary = md`The channel time zone is **${literal(c.zone)}** (for members who did not set their own).`;
  } else {
    delete next.timeZone;
    summary = md`The channel has **no time zone**: members see their own, else UTC.`;
  }
  const shown = (s: { threading: boolean; timeZone?: string }) =>
    c.key === 'threading' ? (s.threading ? 'on' : 'off') : (s.timeZone ?? 'none');
  await store.transaction(async () => {
    await store.settings.put(ctx.req.conversation, next);
    await audit(ctx, { setting: c.key, from: shown(raw), to: shown(next), scope: 'channel' });
  });
  return updated(ctx, md`Channel settings updated`, summary);
}

/** The workspace's queue, or with `--here` this channel's own (which wins here): no rule, so never tightened. */
async function changeQueue(ctx: CommandContext, c: QueueChange, here: boolean): Promise<Response> {
  const { store } = ctx.deps;
  const conversation = ctx.req.conversation;
  const workspace = policyWorkspace(conversation);
  if (here) await requireAdmin(ctx, 'change settings');
  else if (isDmWorkspace(workspace)) throw userError('policy-in-dm');
  else await requireWorkspaceAdmin(ctx);
  const raw = await store.settings.get(conversation);
  // Slots are wall-clock times in the zone they were set in: the channel's, else the admin's own.
  const zone = raw.timeZone ?? (await ctx.timeZoneToRead());
  const policy = await storedPolicy(store, workspace);
  const before = (here ? raw.ownQueue : policy.queue) ?? {};
  const after = applyQueueChange(before, c, zone);
  await store.transaction(async () => {
    if (here) await store.settings.put(conversation, { ...raw, here: tighteningOf(raw), ownQueue: after });
    else await store.policies.put(workspace, { ...policy, queue: after });
    await audit(ctx, {
      setting: `${c.key} ${c.platform}`,
      from: queueValue(before, c),
      to: queueValue(after, c),
      scope: here ? 'channel' : 'workspace',
    });
  });
  return here
    ? updated(ctx, md`Channel settings updated`, md`${queueSummary(after, c)} (this channel only)`)
    : updated(
        ctx,
        md`Workspace settings updated`,
        md`${queueSummary(after, c)} It applies to the whole workspace.`,
      );
}

/** `settings alerts` and `settings low-balance`: the workspace's alone (settings/alerts-edit.ts). */
async function changeBudgetAlerts(ctx: CommandContext, c: AlertChange, here: boolean): Promise<Response> {
  if (here) throw userError('alerts-workspace-only', { key: c.key });
  const summary = await changeAlerts(ctx, c, (change) =>
    audit(ctx, { setting: c.key, ...change, scope: 'workspace' }),
  );
  return updated(ctx, md`Workspace settings updated`, summary);
}

async function changeWorkspace(ctx: CommandContext, c: GovernanceChange): Promise<Response> {
  const workspace = policyWorkspace(ctx.req.conversation);
  // A Discord DM belongs to no server: its rules are the servers' (workspace-policy.ts).
  if (isDmWorkspace(workspace)) throw userError('policy-in-dm');
  await requireWorkspaceAdmin(ctx);
  const { store } = ctx.deps;
  const current = await storedPolicy(store, workspace);
  // Whoever restricts admin must stay an admin (unless the platform makes them one), or nobody can undo it.
  if (
    c.key === 'role' &&
    c.role === 'admin' &&
    c.refs !== 'everyone' &&
    !isPlatformAdmin(ctx) &&
    !isAmong(c.refs, ctx.req.user, ctx.req.memberOf)
  ) {
    throw userError('admin-lockout');
  }
  checkStage(current, c);
  const next = applyToPolicy(current, c);
  const nobody = await store.transaction(async () => {
    await store.policies.put(workspace, next);
    await audit(ctx, {
      setting: settingName(c),
      from: ruleValue(current, c),
      to: ruleValue(next, c),
      scope: 'workspace',
    });
    return recheckChannels(ctx, { workspace, policy: next, change: c });
  });
  ctx.deps.logger.info({ workspace, setting: c.key }, 'workspace policy changed');
  return updated(
    ctx,
    md`Workspace settings updated`,
    joinText([summaryOf(c, await ctx.settings()), md`It applies to the whole workspace.`, ...nobody], '\n'),
  );
}

/**
 * The channels of `workspace` whose own rules, built on the workspace's, now admit nobody: one warning each
 * with its fix for the admin's answer, and an audit entry in that channel.
 */
async function recheckChannels(
  ctx: CommandContext,
  o: { workspace: string; policy: WorkspacePolicy; change: GovernanceChange },
): Promise<CardText[]> {
  const here = ctx.req.conversation;
  const found = await channelsAdmittingNobody(ctx.deps.store, o.workspace, o.policy);
  for (const { conversation, rules } of found)
    await ctx.deps.store.audit.record({
      at: ctx.now(),
      conversation,
      actor: ctx.req.user,
      action: 'policy.nobody',
      details: { rules: rules.map(ruleName), setting: settingName(o.change) },
    });
  const warnings = found.flatMap(({ conversation, rules }) =>
    nobodyWarnings(rules, conversation === here ? 'this channel' : channel(conversation)),
  );
  // A Discord server's rules also make the DMs' (the strictest of the servers'): say when they admit nobody.
  if (ctx.req.capabilities?.workspacelessDms) {
    const dm = await workspacePolicy(ctx.deps.store, dmWorkspaceOf(o.workspace), {
      knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
    });
    warnings.push(...serversNobodyWarnings(dm));
  }
  return warnings;
}

async function tightenHere(ctx: CommandContext, c: GovernanceChange): Promise<Response> {
  await requireWorkspaceAdmin(ctx);
  const { store } = ctx.deps;
  const conversation = ctx.req.conversation;
  const ws = await workspacePolicy(store, policyWorkspace(conversation), {
    knownWorkspaces: ctx.deps.deploymentKeyWorkspaces,
  });
  const raw = await store.settings.get(conversation);
  const here = tighteningOf(raw);
  const next = applyToTightening(ws, here, c);
  if (!next.ok) {
    await recordRefusal(ctx, { why: 'policy-loosen', setting: settingName(c) });
    throw await withWho(ctx, next.error);
  }
  await store.transaction(async () => {
    await store.settings.put(conversation, { ...raw, here: next.value });
    await audit(ctx, {
      setting: settingName(c),
      from: ruleValue(here, c),
      to: ruleValue(next.value, c),
      scope: 'channel',
    });
  });
  return updated(
    ctx,
    md`Channel settings updated`,
    md`${summaryOf(c, await ctx.settings())} (this channel only)`,
  );
}

/** The loosening refusal names who can change the workspace's rule. */
async function withWho(ctx: CommandContext, error: UserError): Promise<UserError> {
  const admins = await workspaceAdmins(ctx);
  const who =
    admins.length > 0 ? `${formatMentions(admins)} or the workspace’s admins` : 'the workspace’s admins';
  return new UserError(error.code, { ...error.params, who });
}

async function updated(ctx: CommandContext, title: CardText, summary: CardText): Promise<Response> {
  const card = await cardFor(ctx);
  card.title = title;
  card.tone = 'success';
  card.text = md`${summary}${card.text ? md`\n${card.text}` : md``}`;
  card.context = md`Changed by ${literal(ctx.req.userName ?? 'a member')} · ${card.context ?? md``}`;
  return message(card, 'channel');
}

/** Who changed what, from what, for the workspace or this channel: every policy change is audited. */
async function audit(
  ctx: CommandContext,
  details: { setting: string; from: string; to: string; scope: string },
) {
  await ctx.deps.store.audit.record({
    at: ctx.now(),
    conversation: ctx.req.conversation,
    actor: ctx.req.user,
    action: 'settings.change',
    details,
  });
}
