/**
 * A governance change (`settings approval|approvers|stages|… value`) in words: the setting it names, its
 * value for the audit trail, its one-sentence summary, and the check that a named stage exists.
 */
import { formatHolders } from '../approvals/holders.js';
import { userError } from '../dispatch/context.js';
import { formatMentions } from '../people/mentions.js';
import type { PolicyTightening, WorkspacePolicy } from '../ports/index.js';
import { type CardText, code, command, joinText, literal, md } from '../text/text.js';
import type { AlertChange, QueueChange, SettingChange } from './setting-change.js';
import { approvalText, formatDuration, roleVerb } from './settings-card.js';

/** A change of the workspace policy (or of a channel's tightening of it). */
export type GovernanceChange = Exclude<
  SettingChange,
  { key: 'threading' } | { key: 'timezone' } | QueueChange | AlertChange
>;

/** A change naming a stage must name one of the workspace's stages. */
export function checkStage(policy: WorkspacePolicy, c: GovernanceChange): void {
  const stage = c.key === 'stage-rule' || c.key === 'approvers' ? c.stage : undefined;
  if (stage === undefined) return;
  const names = (policy.stages ?? []).map((s) => s.name);
  if (names.length === 0) throw userError('approval-no-stages');
  if (!names.includes(stage))
    throw userError('approval-unknown-stage', { stage, stages: joinText(names.map(code), ', ') });
}

/** The setting a change names, as the audit trail and its summary call it. */
export function settingName(c: GovernanceChange): string {
  if (c.key === 'role') return `role ${c.role}`;
  if (c.key === 'stages') return 'approval stages';
  if (c.key === 'stage-rule') return `approval --stage ${c.stage}`;
  return c.key === 'approvers' && c.stage ? `approvers --stage ${c.stage}` : c.key;
}

/** A rule's value in plain words for the audit trail; `inherited` where a tightening leaves it unset. */
export function ruleValue(p: WorkspacePolicy | PolicyTightening, c: GovernanceChange): string {
  const list = (refs: string[] | undefined, empty: string) =>
    refs === undefined ? 'inherited' : refs.join(' ') || empty;
  switch (c.key) {
    case 'approval':
      return p.approval ?? 'inherited';
    case 'approvers':
      if (c.stage !== undefined)
        return list(p.stages?.find((s) => s.name === c.stage)?.approvers ?? [], 'general approvers');
      return list(p.approvers, 'none');
    case 'stages':
      return p.stages?.map((s) => s.name).join(',') || 'one stage';
    case 'stage-rule':
      return p.stages?.find((s) => s.name === c.stage)?.all ? 'all' : 'any';
    case 'self-approval':
      return p.selfApproval === undefined ? 'inherited' : p.selfApproval ? 'on' : 'off';
    case 'spend-threshold':
      return p.spendThreshold === undefined ? 'inherited' : String(p.spendThreshold);
    case 'monthly-cap':
      return p.monthlyCap === undefined ? 'none' : String(p.monthlyCap);
    case 'lifetime':
      return p.requestLifetimeMs === undefined ? 'default' : formatDuration(p.requestLifetimeMs);
    case 'reminders':
      return p.reminders === false ? 'off' : 'on';
    case 'role': {
      const holders = p.roles?.[c.role];
      return holders === 'everyone' ? 'everyone' : list(holders, 'nobody');
    }
  }
}

/** What a governance change now means, in one sentence for its confirmation. */
export function summaryOf(c: GovernanceChange, effective: WorkspacePolicy): CardText {
  switch (c.key) {
    case 'approval':
      return md`Approval is **${literal(effective.approval)}**: ${approvalText(effective)}.`;
    case 'approvers':
      if (c.stage !== undefined)
        return c.refs.length === 0
          ? md`The **${literal(c.stage)}** stage is decided by the general approvers.`
          : md`Approvers of the **${literal(c.stage)}** stage: ${formatMentions(c.refs)}.`;
      return c.refs.length === 0
        ? md`Approvers: ${formatMentions(effective.approvers, md`**nobody**`)}`
        : md`Approvers: ${formatMentions(c.refs)}.`;
    case 'stages':
      return c.names.length === 0
        ? md`Approval has **one stage**: one approver’s decision is enough.`
        : md`Approval stages: ${joinText(c.names.map(literal), md` → `)}. A request passes each in turn; set a stage’s approvers with ${command('settings', ['approvers', '@name'], { stage: c.names[0] })}.`;
    case 'stage-rule':
      return c.all
        ? md`At the **${literal(c.stage)}** stage, **every** listed approver must approve.`
        : md`At the **${literal(c.stage)}** stage, **one** approver’s Approve moves it on.`;
    case 'self-approval':
      return md`Self-approval is **${effective.selfApproval ? md`allowed` : md`not allowed`}**.`;
    case 'spend-threshold':
      return md`Spend threshold: **${effective.spendThreshold} credits**.`;
    case 'monthly-cap':
      return effective.monthlyCap === undefined
        ? md`No monthly cap: spending needs an approver only as the approval rule says.`
        : md`Monthly cap: **${effective.monthlyCap} credits**: a spend past it this month needs an approver.`;
    case 'lifetime':
      return md`Requests wait **${formatDuration(c.ms)}** for an approver, then expire.`;
    case 'reminders':
      return c.on
        ? md`Reminders are **on**: the approvers of a pending request are reminded at half its lifetime and an hour before it expires.`
        : md`Reminders are **off**: approvers are mentioned only when a request reaches them.`;
    case 'role': {
      const holders = effective.roles[c.role];
      if (c.refs === 'everyone')
        return holders === 'everyone'
          ? md`Everyone may **${roleVerb(c.role)}**.`
          : md`Everyone the workspace allows may **${roleVerb(c.role)}** (${formatHolders(holders)}).`;
      return md`Only ${formatHolders(c.refs)} may **${roleVerb(c.role)}**.`;
    }
  }
}
