/**
 * Audit entries in words (one line each, for the card) and as CSV (for `--csv`). Times are in the caller's
 * zone; CSV also carries UTC so a spreadsheet can sort and compare across zones.
 */

import { csvLine } from '../format/csv.js';
import { formatMention } from '../people/mentions.js';
import { platformName } from '../platforms/post-blocks.js';
import type { AuditEntry } from '../ports/index.js';
import { channel, code, link, literal, toPlainText } from '../text/text.js';
import { formatBoth, formatCsvDateTime } from '../time/format.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Names for the ids the entries carry (looked up by the caller, best effort): people read names, not ids. */
export interface AuditNames {
  videos: ReadonlyMap<string, string>;
  series: ReadonlyMap<string, string>;
  /** Ids the service no longer knows (deleted since). */
  gone: ReadonlySet<string>;
}

export const NO_NAMES: AuditNames = { videos: new Map(), series: new Map(), gone: new Set() };

/** `“Launch teaser”` when the name is known; else "a video since deleted", or "a video" when unreadable. */
function videoRef(e: AuditEntry, names: AuditNames): string {
  if (!e.videoId) return 'a video';
  const name = names.videos.get(e.videoId) ?? str(e.details?.videoName);
  if (name) return `“${literal(name)}”`;
  return names.gone.has(e.videoId) ? 'a video since deleted' : 'a video';
}

/** `the series “Night Terrors”`: its name as recorded, else as the service names it now. */
function seriesRef(e: AuditEntry, names: AuditNames): string {
  const name = str(e.details?.name) ?? (e.seriesId ? names.series.get(e.seriesId) : undefined);
  if (name) return `the series “${literal(name)}”`;
  return e.seriesId && names.gone.has(e.seriesId) ? 'a series since deleted' : 'a series';
}

/** Why the policy refused, in words (`policy.refuse` entries). */
const REFUSALS: Record<string, string> = {
  'not-allowed': 'not in the role for it',
  'approval-not-approver': 'not an approver',
  'approval-self': 'approving their own request',
  'approval-unverifiable': 'approver membership could not be verified',
  'policy-loosen': 'a channel rule looser than the workspace policy',
};

/** What was refused: the request's summary, the setting, or the action's role. */
function refusedWhat(d: Record<string, unknown>): string {
  if (str(d.summary)) return ` — ${d.summary as string}`;
  if (str(d.setting)) return ` — ${code(d.setting as string)}`;
  return str(d.role) ? ` — needs the ${literal(d.role as string)} role` : '';
}

/** A setting's audited value: people and groups as mentions, anything else in code. */
function settingShown(v: unknown, setting?: unknown): string {
  const words = str(v)?.split(' ') ?? [];
  if (words.length === 0) return 'nothing';
  // The alerts channel is a conversation address: a channel, never a person.
  const named = setting === 'alerts' ? channel : formatMention;
  return words.every((w) => w.includes(':')) ? words.map(named).join(' ') : code(words.join(' '));
}

/** How a pending request was withdrawn (`approval.withdraw` entries). */
const WITHDRAWN_WITH: Record<string, string> = {
  unschedule: ' (by cancelling the schedule)',
  button: '',
};

/** What one entry's wording reads: the entry, its details and the pieces most lines share. */
interface Line {
  e: AuditEntry;
  d: Record<string, unknown>;
  zone: string;
  names: AuditNames;
  summary: string;
  video: string;
  series: string;
  platform: (p: string) => string;
  credits: string;
  via: string;
}

const when = (l: Line, key = 'scheduledTime'): string => {
  const at = Date.parse(str(l.d[key]) ?? '');
  return Number.isFinite(at) ? formatBoth(at, l.zone) : '';
};

/**
 * Every audited action and its words, after the actor: `published “Launch teaser” to YouTube`, as card
 * markdown. `summary` and `error` details were stored as card markdown (approval summaries, failure
 * messages); other details are values as given. A new audited action gets its words here
 * (test/core/words.test.ts walks every action the code records).
 */
export const AUDIT_WORDING: Readonly<Record<string, (l: Line) => string>> = {
  'approval.request': (l) => `asked for approval: ${l.summary}`,
  'approval.approve': (l) =>
    `approved: ${l.summary}${str(l.d.requester) ? ` (asked by ${formatMention(l.d.requester as string)})` : ''}`,
  'approval.reject': (l) =>
    `rejected: ${l.summary}${str(l.d.reason) ? ` — “${literal(l.d.reason as string)}”` : ''}`,
  'approval.expire': (l) => `approval expired unanswered: ${l.summary}`,
  'approval.withdraw': (l) => `withdrew the request: ${l.summary}${WITHDRAWN_WITH[str(l.d.via) ?? ''] ?? ''}`,
  'approval.replace': (l) =>
    `changed what was ${l.d.was === 'approved' ? 'approved' : 'asked for'}, so it goes back to the approvers: ${l.summary}`,
  'approval.fail': (l) => `approved, but it failed: ${l.summary}${str(l.d.error) ? ` — ${l.d.error}` : ''}`,
  'approval.retry': (l) => `retried: ${l.summary}`,
  'approval.reschedule': (l) => `rescheduled: ${l.summary}${when(l) ? ` → ${when(l)}` : ''}`,
  'approval.stage': (l) =>
    `approved at the ${literal(str(l.d.stage) ?? 'first')} stage: ${l.summary}${str(l.d.next) ? ` (on to ${literal(l.d.next as string)})` : ''}`,
  'approval.changes': (l) =>
    `asked for changes: ${l.summary}${str(l.d.comment) ? ` — “${literal(l.d.comment as string)}”` : ''}`,
  'approval.resubmit': (l) => `sent a new version to the approvers: ${l.summary}`,
  'video.publish': (l) => {
    const url = str(l.d.postUrl);
    return `published ${l.video} to ${l.platform(str(l.d.platform) ?? 'a platform')}${l.via}${url ? ` — ${link('post', url)}` : ''}`;
  },
  'video.schedule': (l) => {
    const where = list(l.d.platforms).map(l.platform).join(', ') || 'its platforms';
    return `scheduled ${l.video} on ${where}${when(l) ? ` for ${when(l)}` : ''}${l.via}`;
  },
  'video.reschedule': (l) => {
    const where = list(l.d.platforms).map(l.platform).join(', ') || 'its platforms';
    return `moved ${l.video} on ${where}${when(l) ? ` to ${when(l)}` : ''}${l.via}`;
  },
  'video.unschedule': (l) => {
    const where = list(l.d.platforms).map(l.platform).join(', ');
    return `cancelled the schedule of ${l.video}${where ? ` on ${where}` : ''}`;
  },
  'video.delete': (l) => `deleted ${l.video}`,
  'video.create': (l) =>
    `created ${l.video}${l.credits}${str(l.d.requester) ? ` for ${formatMention(l.d.requester as string)}` : ''}`,
  'video.render': (l) => `rendered ${l.video}`,
  'series.generate': (l) => `generated an episode (${l.video}) of ${l.series}${l.credits}${l.via}`,
  'series.create': (l) =>
    `started ${l.series}${l.e.credits !== undefined ? ` (${l.e.credits} credits for its first episode)` : ''}${l.via}`,
  'series.edit': (l) => `changed ${l.series} (${literal(list(l.d.fields).join(', ') || 'settings')})${l.via}`,
  'series.pause': (l) => `paused ${l.series}`,
  'series.resume': (l) => `resumed ${l.series}${l.via}`,
  'series.delete': (l) => `deleted ${l.series}`,
  'settings.change': (l) => {
    const scope =
      l.d.scope === 'workspace' ? ' for the workspace' : l.d.scope === 'channel' ? ' in this channel' : '';
    return `set ${code(str(l.d.setting) ?? 'a setting')} to ${settingShown(l.d.to, l.d.setting)} (was ${settingShown(l.d.from, l.d.setting)})${scope}`;
  },
  'policy.nobody': (l) =>
    `changed the workspace's ${code(str(l.d.setting) ?? 'policy')}, which leaves nobody for ${list(l.d.rules).map(code).join(', ') || 'a rule'} in this channel`,
  'policy.refuse': (l) =>
    `was refused: ${REFUSALS[str(l.d.why) ?? ''] ?? 'not allowed by the policy'}${refusedWhat(l.d)}`,
};

/** What happened, after the actor, in words (see `AUDIT_WORDING`). */
export function describeEntry(e: AuditEntry, zone: string, names: AuditNames = NO_NAMES): string {
  const d = e.details ?? {};
  const line: Line = {
    e,
    d,
    zone,
    names,
    summary: str(d.summary) ?? 'a request',
    video: videoRef(e, names),
    series: seriesRef(e, names),
    platform: (p: string) => platformName(p),
    credits: e.credits !== undefined ? ` (${e.credits} credits)` : '',
    via: str(d.approval) ? ' (approved request)' : '',
  };
  const wording = Object.hasOwn(AUDIT_WORDING, e.action) ? AUDIT_WORDING[e.action] : undefined;
  // A row written by another version of reelbot: still words, never the raw action.
  return wording ? wording(line) : `did something this version has no words for${line.credits}`;
}

export const CSV_HEADER = ['time', 'time_utc', 'actor', 'action', 'video', 'series', 'credits', 'details'];

/** One CSV cell (RFC 4180 quoting, formulas neutralised): `../format/csv.ts`. */
export { csvCell } from '../format/csv.js';

/** CSV is plain text: the card-markdown details (summary, error) are shown as words. */
function plainDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out = { ...details };
  for (const key of ['summary', 'error'] as const) {
    const value = out[key];
    if (typeof value === 'string') out[key] = toPlainText(value);
  }
  return out;
}

/** One row's values, in `CSV_HEADER`'s order (not yet quoted). */
export function csvValues(e: AuditEntry, zone: string): string[] {
  return [
    formatCsvDateTime(e.at, zone),
    new Date(e.at).toISOString(),
    e.actor,
    e.action,
    e.videoId ?? '',
    e.seriesId ?? '',
    e.credits === undefined ? '' : String(e.credits),
    e.details === undefined ? '' : JSON.stringify(plainDetails(e.details)),
  ];
}

export const csvRow = (e: AuditEntry, zone: string): string => csvLine(csvValues(e, zone));
