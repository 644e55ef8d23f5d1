/**
 * `settings <key> <value>` read into one typed change, before anyone decides where it applies (the channel's
 * presentation, the workspace policy, or a channel's tightening with `--here`).
 */

import { parseStageNames } from '../approvals/stages.js';
import { type CommandContext, userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import { parsePlatforms } from '../parse/validate-args.js';
import { parseMentions } from '../people/mentions.js';
import { workspaceOf } from '../ports/address.js';
import type { ConversationAddress, Holders, SlotRule, WorkspacePolicy } from '../ports/index.js';
import { parseSlots, SLOTS_EXAMPLE } from '../publishing/slots.js';
import { type CardText, md } from '../text/text.js';
import type { Platform } from '../video-api/video-api.js';
import { normalizeTimeZone } from './time-zone.js';

/** Keys of the team policy (workspace-wide, tightened per channel); the others are the channel's own. */
const GOVERNANCE = [
  'approval',
  'approvers',
  'self-approval',
  'spend-threshold',
  'monthly-cap',
  'role',
  'lifetime',
  'reminders',
] as const;
/** The publishing queue's keys (DESIGN §10): the workspace's, or a channel's own with `--here`. */
const QUEUE = ['slots', 'daily-cap'] as const;
/** Budget alerts (DESIGN §5): the workspace's, never a channel's. */
const ALERTS = ['low-balance', 'alerts'] as const;
export const SETTING_KEYS = ['threading', 'timezone', ...GOVERNANCE, ...QUEUE, ...ALERTS] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
export const ROLES = ['publish', 'spend', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What a role lets its holders do, as the settings card and answers word it. */
export const roleVerb = (r: Role): CardText =>
  r === 'publish' ? md`publish` : r === 'spend' ? md`spend credits` : md`change settings and subscriptions`;

/** The team policy's keys, to tell them from the channel's own. */
export const GOVERNANCE_KEYS: ReadonlySet<SettingKey> = new Set(GOVERNANCE);

export const EXPECTED: Record<SettingKey, string> = {
  threading: '`on` or `off`',
  timezone: 'an IANA zone like `Europe/Paris`, or `none`',
  approval: '`off`, `publish` or `spend`',
  approvers: 'mentions of people or groups, or `none`',
  'self-approval': '`on` or `off`',
  'spend-threshold': 'a whole number of credits (0 or more)',
  'monthly-cap': 'a whole number of credits a month (0 or more), or `off`',
  role: '`publish`, `spend` or `admin`, then mentions or `everyone`',
  lifetime: 'a duration from `10m` to `30d`, like `12h`',
  reminders: '`on` or `off`',
  slots: `a platform, then days and times like \`youtube "${SLOTS_EXAMPLE}"\`, or \`youtube off\``,
  'daily-cap': 'a platform, then the most posts a day (1 to 50), like `youtube 2`, or `youtube off`',
  'low-balance': 'a whole number of credits (1 or more), or `off`',
  alerts: 'one channel of this workspace (type # and pick it), or `off`',
};

/** A change of the publishing queue, which is no rule: never tightened, a channel's own simply wins there. */
export type QueueChange =
  | { key: 'slots'; platform: Platform; slots: Omit<SlotRule, 'zone'> | undefined }
  | { key: 'daily-cap'; platform: Platform; cap: number | undefined };

/** A budget alert setting; undefined: `off`. */
export type AlertChange =
  | { key: 'low-balance'; credits: number | undefined }
  | { key: 'alerts'; channel: ConversationAddress | undefined };

export type SettingChange =
  | { key: 'threading'; on: boolean }
  | { key: 'timezone'; zone: string | undefined }
  | { key: 'approval'; mode: WorkspacePolicy['approval'] }
  /** An empty list: `none`. With `stage`: that stage's own approvers (`none`: the general ones again). */
  | { key: 'approvers'; refs: string[]; stage?: string }
  /** `approval stages brand,legal`; empty (`off`, or a single name): one implicit stage. */
  | { key: 'stages'; names: string[] }
  /** `approval any|all --stage legal`: whether one approver of the stage or every one decides it. */
  | { key: 'stage-rule'; stage: string; all: boolean }
  | { key: 'self-approval'; on: boolean }
  | { key: 'spend-threshold'; credits: number }
  /** undefined: `off`. */
  | { key: 'monthly-cap'; credits: number | undefined }
  | { key: 'role'; role: Role; refs: Holders }
  | { key: 'lifetime'; ms: number }
  | { key: 'reminders'; on: boolean }
  | QueueChange
  | AlertChange;

const MAX_THRESHOLD = 1_000_000;
const MIN_LIFETIME_MS = 10 * 60_000;
const MAX_LIFETIME_MS = 30 * 24 * 60 * 60_000;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 60 * 60_000, d: 24 * 60 * 60_000 };

/** `settings <key> <value>`, and the stage it is for with `--stage`. */
export function parseSetting(
  ctx: CommandContext,
  { key, value, stage }: { key: SettingKey; value: string; stage?: string | undefined },
): Result<SettingChange> {
  const bad = () => err(userError('bad-setting-value', { key, value, expected: EXPECTED[key] }));
  if (stage !== undefined && key !== 'approval' && key !== 'approvers')
    return err(userError('approval-stage-option'));
  switch (key) {
    case 'threading':
    case 'self-approval':
    case 'reminders': {
      const on = onOff(value);
      return on === undefined ? bad() : ok({ key, on });
    }
    case 'timezone': {
      if (/^(none|off|clear|unset)$/i.test(value)) return ok({ key, zone: undefined });
      const zone = normalizeTimeZone(value);
      return zone ? ok({ key, zone }) : err(userError('bad-timezone', { value }));
    }
    case 'approval': {
      if (stage !== undefined) return parseStageRule(value, stage);
      const staged = /^stages?\s+(.+)$/i.exec(value);
      if (staged) return parseStages(staged[1] ?? '');
      const mode = value.toLowerCase();
      return mode === 'off' || mode === 'publish' || mode === 'spend' ? ok({ key, mode }) : bad();
    }
    case 'approvers': {
      const at = stage === undefined ? {} : { stage: stage.toLowerCase() };
      if (/^(none|nobody|clear)$/i.test(value)) return ok({ key, refs: [], ...at });
      const refs = parseMentions(value, {
        mentioned: ctx.req.mentions,
        group: ctx.req.capabilities?.groupNoun,
      });
      return refs.ok ? ok({ key, refs: refs.value, ...at }) : refs;
    }
    case 'spend-threshold': {
      const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      return Number.isSafeInteger(n) && n <= MAX_THRESHOLD ? ok({ key, credits: n }) : bad();
    }
    case 'monthly-cap': {
      if (/^(off|none|clear)$/i.test(value)) return ok({ key, credits: undefined });
      const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      return Number.isSafeInteger(n) && n <= MAX_THRESHOLD ? ok({ key, credits: n }) : bad();
    }
    case 'role': {
      const [roleWord, ...rest] = value.split(/\s+/);
      const role = roleWord?.toLowerCase() as Role;
      const who = rest.join(' ').trim();
      if (!ROLES.includes(role) || who === '') return bad();
      if (/^(everyone|anyone|all)$/i.test(who)) return ok({ key, role, refs: 'everyone' });
      const refs = parseMentions(who, {
        mentioned: ctx.req.mentions,
        group: ctx.req.capabilities?.groupNoun,
      });
      return refs.ok ? ok({ key, role, refs: refs.value }) : refs;
    }
    case 'slots':
    case 'daily-cap':
      return parseQueueChange(key, value);
    case 'low-balance': {
      if (/^(off|none|clear)$/i.test(value)) return ok({ key, credits: undefined });
      const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      return Number.isSafeInteger(n) && n >= 1 && n <= MAX_THRESHOLD ? ok({ key, credits: n }) : bad();
    }
    case 'alerts':
      return /^(off|none|clear)$/i.test(value) ? ok({ key, channel: undefined }) : readChannel(ctx, value);
    case 'lifetime': {
      const m = /^(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?)$/i.exec(value);
      const ms = m
        ? Number(m[1]) * (UNIT_MS[(m[2] ?? '').charAt(0).toLowerCase()] ?? Number.NaN)
        : Number.NaN;
      return ms >= MIN_LIFETIME_MS && ms <= MAX_LIFETIME_MS ? ok({ key, ms }) : bad();
    }
  }
}

const STAGES_EXPECTED = 'stage names separated by commas, like `brand,legal` (up to 5), or `off`';

/** `stages brand,legal`: the names in order; `off` or a single name: back to one implicit stage. */
function parseStages(value: string): Result<SettingChange> {
  if (/^(off|none|clear)$/i.test(value.trim())) return ok({ key: 'stages', names: [] });
  const names = parseStageNames(value);
  if (!names)
    return err(userError('bad-setting-value', { key: 'approval stages', value, expected: STAGES_EXPECTED }));
  return ok({ key: 'stages', names: names.length > 1 ? names : [] });
}

/** `approval all --stage legal`: every listed approver of the stage must approve; `any`: one is enough. */
function parseStageRule(value: string, stage: string): Result<SettingChange> {
  const rule = value.trim().toLowerCase();
  if (rule !== 'all' && rule !== 'any')
    return err(
      userError('bad-setting-value', { key: 'approval --stage', value, expected: '`any` or `all`' }),
    );
  return ok({ key: 'stage-rule', stage: stage.toLowerCase(), all: rule === 'all' });
}

const MAX_DAILY_CAP = 50;

/** `youtube "mon-fri 09:00,17:00"`, `youtube off`, `tiktok 2`: the platform first, then its value. */
function parseQueueChange(key: 'slots' | 'daily-cap', value: string): Result<SettingChange> {
  const [word = '', ...rest] = value.split(/\s+/);
  const platforms = parsePlatforms(word);
  const what = rest
    .join(' ')
    .replace(/^["“”']+|["“”']+$/g, '')
    .trim();
  if (!platforms.ok || platforms.value.length !== 1 || what === '')
    return err(userError('bad-setting-value', { key, value, expected: EXPECTED[key] }));
  const platform = platforms.value[0] as Platform;
  const off = /^(off|none|clear)$/i.test(what);
  if (key === 'daily-cap') {
    const cap = /^\d+$/.test(what) ? Number(what) : Number.NaN;
    if (!off && !(cap >= 1 && cap <= MAX_DAILY_CAP))
      return err(userError('bad-setting-value', { key, value, expected: EXPECTED[key] }));
    return ok({ key, platform, cap: off ? undefined : cap });
  }
  if (off) return ok({ key, platform, slots: undefined });
  const slots = parseSlots(what);
  return slots.ok ? ok({ key, platform, slots: slots.value }) : slots;
}

/**
 * The one channel typed (as its adapter found it, `RequestInfo.channels`), of the request's own workspace: a
 * channel of another workspace is refused in words, never stored.
 */
function readChannel(ctx: CommandContext, value: string): Result<SettingChange> {
  const named = (ctx.req.channels ?? []).filter((c) => c.text === value.trim());
  const ref = named.length === 1 ? named[0]?.ref : undefined;
  if (!ref) return err(userError('bad-setting-value', { key: 'alerts', value, expected: EXPECTED.alerts }));
  if (workspaceOf(ref) !== workspaceOf(ctx.req.conversation))
    return err(
      userError('alerts-other-workspace', { what: ctx.req.capabilities?.workspaceNoun ?? 'workspace' }),
    );
  return ok({ key: 'alerts', channel: ref });
}

function onOff(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (['on', 'yes', 'true', 'enable', 'enabled'].includes(v)) return true;
  if (['off', 'no', 'false', 'disable', 'disabled'].includes(v)) return false;
  return undefined;
}
