/**
 * `settings [key value]`: the channel's settings card, and one setting changed at a time. Threading and the
 * channel time zone act now; the approval keys (`approval`, `approvers`, `self-approval`, `spend-threshold`,
 * `role`) are stored here and enforced by the approval flow.
 */
import type { Card } from '../../cards.js';
import { message, type Response } from '../../cards.js';
import { type CommandSpec, defineCommand } from '../../command-spec.js';
import { type CommandContext, userError } from '../../context.js';
import type { ChannelSettings } from '../../ports.js';
import { err, type Result } from '../../result.js';
import { literal } from '../../text.js';
import { requireAdmin } from './admin.js';
import { formatMentions, isAmong, parseMentions } from './mentions.js';
import { normalizeTimeZone } from './time-zone.js';

export const SETTING_KEYS = [
  'threading',
  'timezone',
  'approval',
  'approvers',
  'self-approval',
  'spend-threshold',
  'role',
] as const;
type SettingKey = (typeof SETTING_KEYS)[number];
const ROLES = ['publish', 'spend', 'admin'] as const;
type Role = (typeof ROLES)[number];

const EXPECTED: Record<SettingKey, string> = {
  threading: '`on` or `off`',
  timezone: 'an IANA zone like `Europe/Paris`, or `none`',
  approval: '`off`, `publish` or `spend`',
  approvers: 'mentions of people or groups, or `none`',
  'self-approval': '`on` or `off`',
  'spend-threshold': 'a whole number of credits (0 or more)',
  role: '`publish`, `spend` or `admin`, then mentions or `everyone`',
};

const MAX_THRESHOLD = 1_000_000;

export const settingsCommand: CommandSpec = defineCommand({
  name: 'settings',
  summary: 'Show or change this channel’s settings (threading, time zone, approvals, roles)',
  options: [
    {
      name: 'key',
      kind: 'choice',
      positional: true,
      choices: SETTING_KEYS,
      description: 'The setting to change',
    },
    { name: 'value', kind: 'text', positional: true, rest: true, description: 'Its new value' },
  ],
  examples: [
    'settings',
    'settings threading off',
    'settings timezone Europe/Paris',
    'settings approval publish',
    'settings approvers @alice @bob',
    'settings role admin @alice',
  ],
  details:
    '`threading on|off`: milestones of a card as thread replies. `timezone <zone>|none`: the default zone ' +
    'for members who set none. `approval off|publish|spend`: publishing (and with `spend`, costly creations) ' +
    'needs an approver. `approvers <mentions>|none`. `self-approval on|off`. `spend-threshold <credits>`. ' +
    '`role publish|spend|admin <mentions>|everyone`: who may publish, spend or change this channel’s setup.',
  async run(ctx, args): Promise<Response> {
    const current = ctx.settings();
    if (!args.key) return message(settingsCard(current));
    const key = args.key as SettingKey;
    const value = args.value?.trim() ?? '';
    if (value === '') throw userError('setting-needs-value', { key, expected: EXPECTED[key] });
    requireAdmin(ctx, 'change settings');

    const next = applySetting(ctx, current, key, value);
    if (!next.ok) throw next.error;
    const { store } = ctx.deps;
    // Who changed what, from what: approvals and roles are the channel's controls, so every change is audited.
    const setting = key === 'role' ? `role ${value.split(/\s+/)[0]?.toLowerCase() ?? ''}` : key;
    store.transaction(() => {
      store.settings.put(ctx.req.conversation, next.value.settings);
      store.audit.record({
        at: ctx.now(),
        conversation: ctx.req.conversation,
        actor: ctx.req.user,
        action: 'settings.change',
        details: {
          setting,
          from: settingValue(current, key, value),
          to: settingValue(next.value.settings, key, value),
        },
      });
    });
    ctx.deps.logger.info({ conversation: ctx.req.conversation, setting: key }, 'channel setting changed');
    const card = settingsCard(next.value.settings);
    card.title = 'Channel settings updated';
    card.tone = 'success';
    card.text = `${next.value.summary}${card.text ? `\n${card.text}` : ''}`;
    card.context = `Changed by ${literal(ctx.req.userName ?? 'a member')} · ${card.context ?? ''}`;
    return message(card, 'channel');
  },
});

type Applied = Result<{ settings: ChannelSettings; summary: string }>;

function applySetting(ctx: CommandContext, s: ChannelSettings, key: SettingKey, value: string): Applied {
  const next: ChannelSettings = structuredClone(s);
  const bad = (): Applied => fail('bad-setting-value', { key, value, expected: EXPECTED[key] });
  switch (key) {
    case 'threading':
    case 'self-approval': {
      const on = onOff(value);
      if (on === undefined) return bad();
      if (key === 'threading') next.threading = on;
      else next.selfApproval = on;
      return done(
        next,
        key === 'threading'
          ? `Threading is **${on ? 'on' : 'off'}**: milestones go ${on ? 'in the card’s thread' : 'to the channel'}.`
          : `Self-approval is **${on ? 'allowed' : 'not allowed'}**.`,
      );
    }
    case 'timezone': {
      if (/^(none|off|clear|unset)$/i.test(value)) {
        delete next.timeZone;
        return done(next, 'The channel has **no time zone**: members see their own, else UTC.');
      }
      const zone = normalizeTimeZone(value);
      if (!zone) return fail('bad-timezone', { value });
      next.timeZone = zone;
      return done(next, `The channel time zone is **${zone}** (for members who did not set their own).`);
    }
    case 'approval': {
      const policy = value.toLowerCase();
      if (policy !== 'off' && policy !== 'publish' && policy !== 'spend') return bad();
      // Without an admin role anyone could switch approvals off again: name the admins first.
      if (policy !== 'off' && s.roles.admin.length === 0) return fail('approval-needs-admin', {});
      next.approval = policy;
      return done(next, `Approval is **${policy}**: ${approvalText(next)}`);
    }
    case 'approvers': {
      if (/^(none|nobody|clear)$/i.test(value)) {
        next.approvers = [];
        return done(next, 'The approver list is **empty**.');
      }
      const refs = parseMentions(value, ctx.req.user);
      if (!refs.ok) return refs;
      next.approvers = refs.value;
      return done(next, `Approvers: ${formatMentions(refs.value)}.`);
    }
    case 'spend-threshold': {
      const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(n) || n > MAX_THRESHOLD) return bad();
      next.spendThreshold = n;
      return done(next, `Spend threshold: **${n} credits**.`);
    }
    case 'role': {
      const [roleWord, ...rest] = value.split(/\s+/);
      const role = roleWord?.toLowerCase() as Role;
      const who = rest.join(' ').trim();
      if (!ROLES.includes(role) || who === '') return bad();
      if (/^(everyone|anyone|all)$/i.test(who)) {
        next.roles[role] = [];
        return done(next, `Everyone may **${roleVerb(role)}**.`);
      }
      const refs = parseMentions(who, ctx.req.user);
      if (!refs.ok) return refs;
      // Whoever restricts admin must stay an admin, or the channel's setup is locked for good.
      if (role === 'admin' && !isAmong(refs.value, ctx.req.user, ctx.req.memberOf)) {
        return fail('admin-lockout', {});
      }
      next.roles[role] = refs.value;
      return done(next, `Only ${formatMentions(refs.value)} may **${roleVerb(role)}**.`);
    }
  }
}

/** A setting's value in plain words, for the audit trail (`role` is the role named in `value`). */
function settingValue(s: ChannelSettings, key: SettingKey, value: string): string {
  const onOrOff = (on: boolean) => (on ? 'on' : 'off');
  switch (key) {
    case 'threading':
      return onOrOff(s.threading);
    case 'timezone':
      return s.timeZone ?? 'none';
    case 'approval':
      return s.approval;
    case 'approvers':
      return s.approvers.join(' ') || 'none';
    case 'self-approval':
      return onOrOff(s.selfApproval);
    case 'spend-threshold':
      return String(s.spendThreshold);
    case 'role': {
      const role = value.split(/\s+/)[0]?.toLowerCase() as Role;
      return (ROLES.includes(role) ? s.roles[role] : []).join(' ') || 'everyone';
    }
  }
}

function settingsCard(s: ChannelSettings): Card {
  const warnings: string[] = [];
  if (s.approval !== 'off' && s.approvers.length === 0) {
    warnings.push(
      '⚠️ Approval is on but nobody is an approver: set them with `/reel settings approvers @name`.',
    );
  }
  return {
    title: 'Channel settings',
    tone: 'info',
    ...(warnings.length > 0 ? { text: warnings.join('\n') } : {}),
    fields: [
      {
        label: 'Threading',
        value: s.threading ? 'on (milestones in the card’s thread)' : 'off',
        short: true,
      },
      {
        label: 'Time zone',
        value: s.timeZone ?? 'not set (members’ own zones, else UTC)',
        short: true,
      },
      { label: 'Approval', value: `${s.approval} — ${approvalText(s)}` },
      { label: 'Approvers', value: formatMentions(s.approvers, 'nobody yet'), short: true },
      { label: 'Self-approval', value: s.selfApproval ? 'allowed' : 'not allowed', short: true },
      { label: 'Spend threshold', value: `${s.spendThreshold} credits`, short: true },
      {
        label: 'Roles',
        value: ROLES.map((r) => `${roleVerb(r)}: ${formatMentions(s.roles[r])}`).join('\n'),
      },
    ],
    context: 'Change one with `/reel settings <key> <value>`, e.g. `/reel settings threading off`.',
  };
}

function approvalText(s: ChannelSettings): string {
  if (s.approval === 'off') return 'publishing needs no approval';
  if (s.approval === 'publish') return 'publishing and scheduling need an approver';
  return `publishing, scheduling and creations over ${s.spendThreshold} credits need an approver`;
}

const roleVerb = (r: Role): string =>
  r === 'publish' ? 'publish' : r === 'spend' ? 'spend credits' : 'change settings and subscriptions';

function onOff(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (['on', 'yes', 'true', 'enable', 'enabled'].includes(v)) return true;
  if (['off', 'no', 'false', 'disable', 'disabled'].includes(v)) return false;
  return undefined;
}

const done = (settings: ChannelSettings, summary: string): Applied => ({
  ok: true,
  value: { settings, summary },
});
const fail = (code: string, params: Record<string, string | number>): Applied => err(userError(code, params));
