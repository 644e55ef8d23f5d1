/**
 * Audit entries in words (one line each, for the card) and as CSV (for `--csv`). Times are in the caller's
 * zone; CSV also carries UTC so a spreadsheet can sort and compare across zones.
 */

import { csvLine } from '../format/csv.js';
import { formatMention } from '../people/mentions.js';
import { platformName } from '../platforms/post-blocks.js';
import type { AuditEntry } from '../ports.js';
import { code, link, literal, toPlainText } from '../text.js';
import { formatBoth, formatCsvDateTime, formatDateTime } from '../time/format.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** `“Launch teaser”` when the name is known, else the id in code. */
function videoRef(e: AuditEntry, names: ReadonlyMap<string, string>): string {
  if (!e.videoId) return 'a video';
  const name = names.get(e.videoId);
  return name ? `“${literal(name)}”` : code(e.videoId);
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
function settingShown(v: unknown): string {
  const words = str(v)?.split(' ') ?? [];
  if (words.length === 0) return 'nothing';
  return words.every((w) => w.includes(':')) ? words.map(formatMention).join(' ') : code(words.join(' '));
}

/**
 * What happened, after the actor: `published “Launch teaser” to YouTube`, as card markdown. `summary` and
 * `error` details were stored as card markdown (approval summaries, failure messages); other details are
 * values as given.
 */
export function describeEntry(e: AuditEntry, zone: string, names: ReadonlyMap<string, string>): string {
  const d = e.details ?? {};
  const summary = str(d.summary) ?? 'a request';
  const platform = (p: string) => literal(platformName(p));
  const credits = e.credits !== undefined ? ` (${e.credits} credits)` : '';
  const via = str(d.approval) ? ' (approved request)' : '';
  switch (e.action) {
    case 'approval.request':
      return `asked for approval: ${summary}`;
    case 'approval.approve':
      return `approved: ${summary}${str(d.requester) ? ` (asked by ${formatMention(d.requester as string)})` : ''}`;
    case 'approval.reject':
      return `rejected: ${summary}${str(d.reason) ? ` — “${literal(d.reason as string)}”` : ''}`;
    case 'approval.expire':
      return `approval expired unanswered: ${summary}`;
    case 'approval.fail':
      return `approved, but it failed: ${summary}${str(d.error) ? ` — ${d.error}` : ''}`;
    case 'approval.retry':
      return `retried: ${summary}`;
    case 'approval.reschedule': {
      const at = Date.parse(str(d.scheduledTime) ?? '');
      return `rescheduled: ${summary}${Number.isFinite(at) ? ` → ${formatBoth(at, zone)}` : ''}`;
    }
    case 'video.publish': {
      const url = str(d.postUrl);
      return `published ${videoRef(e, names)} to ${platform(str(d.platform) ?? 'a platform')}${via}${url ? ` — ${link('post', url)}` : ''}`;
    }
    case 'video.schedule': {
      const at = Date.parse(str(d.scheduledTime) ?? '');
      const where = list(d.platforms).map(platform).join(', ') || 'its platforms';
      return `scheduled ${videoRef(e, names)} on ${where}${Number.isFinite(at) ? ` for ${formatBoth(at, zone)}` : ''}${via}`;
    }
    case 'video.unschedule': {
      const where = list(d.platforms).map(platform).join(', ');
      return `cancelled the schedule of ${videoRef(e, names)}${where ? ` on ${where}` : ''}`;
    }
    case 'video.delete':
      return `deleted ${videoRef(e, names)}`;
    case 'video.create':
      return `created ${videoRef(e, names)}${credits}${str(d.requester) ? ` for ${formatMention(d.requester as string)}` : ''}`;
    case 'video.render':
      return `rendered ${videoRef(e, names)}`;
    case 'series.generate':
      return `generated an episode (${videoRef(e, names)}) of series ${code(e.seriesId ?? '?')}${credits}${via}`;
    case 'series.create':
      return `started the series “${literal(str(d.name) ?? e.seriesId ?? '?')}”${via}`;
    case 'series.edit':
      return `changed the series “${literal(str(d.name) ?? e.seriesId ?? '?')}” (${literal(list(d.fields).join(', ') || 'settings')})${via}`;
    case 'series.pause':
      return `paused the series “${literal(str(d.name) ?? e.seriesId ?? '?')}”`;
    case 'series.resume':
      return `resumed the series “${literal(str(d.name) ?? e.seriesId ?? '?')}”${via}`;
    case 'series.delete':
      return `deleted the series “${literal(str(d.name) ?? e.seriesId ?? '?')}”`;
    case 'settings.change': {
      const scope =
        d.scope === 'workspace' ? ' for the workspace' : d.scope === 'channel' ? ' in this channel' : '';
      return `set ${code(str(d.setting) ?? '?')} to ${settingShown(d.to)} (was ${settingShown(d.from)})${scope}`;
    }
    case 'policy.nobody':
      return `changed the workspace's ${code(str(d.setting) ?? '?')}, which leaves nobody for ${list(d.rules).map(code).join(', ') || 'a rule'} in this channel`;
    case 'policy.refuse':
      return `was refused: ${REFUSALS[str(d.why) ?? ''] ?? 'not allowed by the policy'}${refusedWhat(d)}`;
    default:
      return `${literal(e.action)}${e.videoId ? ` ${videoRef(e, names)}` : ''}${credits}`;
  }
}

/** One line of the card: `09:05 · @alice published “Launch teaser” to YouTube`. */
export const entryLine = (e: AuditEntry, zone: string, names: ReadonlyMap<string, string>): string =>
  `${formatDateTime(e.at, zone).split(', ')[1] ?? ''} · ${formatMention(e.actor)} ${describeEntry(e, zone, names)}`;

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
