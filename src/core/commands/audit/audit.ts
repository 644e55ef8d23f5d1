/**
 * `audit [--video V] [--from D] [--to D] [--csv]`: this channel's record of who asked, approved, rejected,
 * published, scheduled, cancelled, deleted and spent what, and when — newest first, in the caller's zone.
 * `--csv` sends the rows (up to 1000) as a CSV file. The log is local (the store), so it also covers deleted
 * videos: `--video` takes a plain id when the video no longer exists.
 */

import { policyWorkspace } from '../../approvals/workspace-policy.js';
import { type AuditNames, CSV_HEADER, csvValues, describeEntry, NO_NAMES } from '../../audit/rows.js';
import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { CSV_MAX_ROWS, csvAttachment, csvFilename, rowCount } from '../../format/csv.js';
import { defineCommand } from '../../parse/command-spec.js';
import { isWorkspaceAdmin } from '../../people/admin.js';
import { formatMention } from '../../people/mentions.js';
import type { AuditEntry } from '../../ports/index.js';
import { type Card, message } from '../../text/cards.js';
import { seriesNames, videoNames } from '../../text/labels.js';
import type { Table } from '../../text/table.js';
import { type CardText, channel, code, literal, md, storedText } from '../../text/text.js';
import { csvTimesNote, formatDay, formatListTime } from '../../time/format.js';
import { parseRangeOptions, type RangeOptions } from '../../time/range.js';
import { addDays, dayKey, startOfDay } from '../../time/zone.js';
import { resolveVideo } from '../../video-api/references.js';

/** Rows read from the store per query (its maximum). */
const MAX_ROWS = 1000;
/** Rows shown on the card; the rest are counted and offered as CSV. */
const CARD_ROWS = 25;

const ID_LIKE = /^[A-Za-z0-9_-]{6,}$/;

/** The video to filter on: a reference the API resolves, or a plain id (a deleted video is still audited). */
async function videoFilter(ctx: CommandContext, ref: string): Promise<{ id: string; name?: string }> {
  try {
    const { id, name } = await resolveVideo(ctx, ref);
    return { id, name };
  } catch (error) {
    const gone = error instanceof UserError && ['not-found-video', 'not-linked'].includes(error.code);
    if (gone && ID_LIKE.test(ref.trim())) return { id: ref.trim() };
    throw error;
  }
}

/** `--from`/`--to` read together as one phrase (`last week`, `monday to friday`; see time/range.ts). */
async function rangeArg(
  ctx: CommandContext,
  args: RangeOptions,
): Promise<{ from?: string | undefined; to?: string | undefined }> {
  // Dates typed are read in the member's zone: ask for it first where the platform does not say it.
  const typed = args.from !== undefined || args.to !== undefined;
  const zone = typed ? await ctx.timeZoneToRead() : await ctx.timeZone();
  const r = parseRangeOptions(args, { zone, now: ctx.now() });
  if (!r.ok) throw r.error;
  return r.value;
}

/** Names for the ids of the lines shown, best effort (see labels.ts); a deleted one says so. */
async function auditNames(ctx: CommandContext, entries: AuditEntry[]): Promise<AuditNames> {
  const videoIds = entries.flatMap((e) => (e.videoId ? [e.videoId] : []));
  // A series row names its series when it was written; older rows are named by the service.
  const seriesIds = entries.flatMap((e) =>
    e.seriesId && typeof e.details?.name !== 'string' ? [e.seriesId] : [],
  );
  try {
    const [videos, series] = await Promise.all([videoNames(ctx, videoIds), seriesNames(ctx, seriesIds)]);
    // A deleted video keeps the name its deletion recorded, on every line about it.
    for (const e of entries) {
      const recorded = e.details?.videoName;
      if (e.videoId && typeof recorded === 'string' && !videos.names.has(e.videoId))
        videos.names.set(e.videoId, recorded);
    }
    return { videos: videos.names, series: series.names, gone: new Set([...videos.gone, ...series.gone]) };
  } catch (error) {
    // No key to read with (e.g. not linked): the lines still read, without names.
    if (error instanceof UserError) return NO_NAMES;
    throw error;
  }
}

export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'The audit log of this channel: who asked, approved, published, scheduled, deleted and spent what',
  options: [
    {
      name: 'video',
      kind: 'video',
      description: 'Only this video (name, id or `last`; a deleted one by id)',
    },
    {
      name: 'from',
      kind: 'date',
      description: 'First day, or a whole range: 2026-12-01, last monday, last week, last 7 days',
    },
    { name: 'to', kind: 'date', description: 'Last day (included)' },
    { name: 'csv', kind: 'boolean', description: 'Every row (up to 1000) as a CSV file' },
    { name: 'workspace', kind: 'boolean', description: 'Every conversation of the workspace (admins)' },
  ],
  examples: [
    'audit',
    'audit --video last',
    'audit --from "last week"',
    'audit --from 2026-11-01 --to 2026-11-30 --csv',
    'audit --workspace',
  ],
  details: md`Lists this channel’s approval requests and decisions, publishes, schedules, cancellations, deletions and credit spends, newest first, with times in your zone. \`--csv\` sends every row (up to ${CSV_MAX_ROWS}, newest first) as a CSV file. \`--workspace\` (workspace admins): every conversation of the workspace, DMs included, with policy changes and refusals.`,
  async run(ctx, args) {
    const zone = await ctx.timeZone();
    const { from, to } = await rangeArg(ctx, args);
    const video = args.video ? await videoFilter(ctx, args.video) : undefined;
    const videoId = video?.id;
    const conversation = ctx.req.conversation;
    const wide = args.workspace === true;
    if (wide && !(await isWorkspaceAdmin(ctx))) throw userError('audit-workspace-admins');
    const workspace = `${policyWorkspace(conversation)}:`;
    const entries = (
      await ctx.deps.store.audit.list({
        // The store matches a prefix: `slack:T1:C1` would also match `slack:T1:C12`, so filter exactly.
        workspacePrefix: wide ? workspace : conversation,
        ...(videoId ? { videoId } : {}),
        ...(from ? { from: startOfDay(from, zone) } : {}),
        ...(to ? { to: startOfDay(addDays(to, 1), zone) } : {}),
        limit: MAX_ROWS,
      })
    ).filter((e) => wide || e.conversation === conversation);
    const where = wide ? md`in this workspace` : md`in this channel`;

    const range = rangeText(from, to);
    // A video still there by its name; a deleted one by the id it was asked for with.
    const what = md`${video ? md` for ${video.name ? md`“${literal(video.name)}”` : md`the deleted video ${code(video.id)}`}` : md``}${range}`;
    if (entries.length === 0) {
      return message({
        title: md`Audit log`,
        tone: 'info',
        text: md`Nothing recorded ${where}${what}. Approvals, publishes, schedules, deletions and credit spends appear here as they happen.`,
      });
    }
    const scope = { what, where, wide };
    if (args.csv) return message(csvCard({ entries, zone, scope, day: dayKey(ctx.now(), zone) }));
    return message(await listCard(ctx, { entries, zone, scope }));
  },
});

interface Scope {
  what: CardText;
  where: CardText;
  /** The whole workspace: each line names its conversation. */
  wide: boolean;
}

function rangeText(from: string | undefined, to: string | undefined): CardText {
  if (from && to) return md` from ${formatDay(from)} to ${formatDay(to)}`;
  if (from) return md` since ${formatDay(from)}`;
  if (to) return md` until ${formatDay(to)}`;
  return md``;
}

const spentText = (entries: AuditEntry[]): CardText => {
  const spent = entries.reduce((sum, e) => sum + (e.credits ?? 0), 0);
  return spent > 0 ? md` · ${spent} credits spent` : md``;
};

async function listCard(
  ctx: CommandContext,
  { entries, zone, scope }: { entries: AuditEntry[]; zone: string; scope: Scope },
): Promise<Card> {
  const { what, where } = scope;
  const shown = entries.slice(0, CARD_ROWS);
  const names = await auditNames(ctx, shown);
  const more =
    entries.length > shown.length
      ? md`\nShowing the newest ${shown.length} of ${entries.length}${entries.length >= MAX_ROWS ? md`+` : md``}. Narrow it with \`--from\`, \`--to\` or \`--video\`, or add \`--csv\`.`
      : md``;
  return {
    title: md`Audit log`,
    tone: 'info',
    text: md`${entries.length}${entries.length >= MAX_ROWS ? md`+` : md``} entries ${where}${what}${spentText(entries)}. Times in ${literal(zone)}, newest first.${more}`,
    table: auditTable(shown, { zone, now: ctx.now(), names, wide: scope.wide }),
  };
}

/** One row per entry: when, who, what they did, where (the whole workspace's log) and the credits spent. */
function auditTable(
  entries: AuditEntry[],
  o: { zone: string; now: number; names: AuditNames; wide: boolean },
): Table {
  const spends = entries.some((e) => e.credits !== undefined);
  return {
    caption: 'Audit log',
    columns: [
      { label: 'When' },
      { label: 'Who' },
      { label: 'What' },
      ...(o.wide ? [{ label: 'Where' }] : []),
      ...(spends ? [{ label: 'Credits' }] : []),
    ],
    rows: entries.map((e) => [
      formatListTime(e.at, o.zone, o.now),
      formatMention(e.actor),
      storedText(describeEntry(e, o.zone, o.names)),
      ...(o.wide ? [channel(e.conversation)] : []),
      ...(spends
        ? [e.credits === undefined ? literal('') : { value: e.credits, text: String(e.credits) }]
        : []),
    ]),
  };
}

/** `--csv`: every row (up to `CSV_MAX_ROWS`) as a CSV file; the card says what the file holds. */
function csvCard({
  entries,
  zone,
  scope,
  day,
}: {
  entries: AuditEntry[];
  zone: string;
  scope: Scope;
  day: string;
}): Card {
  const { what, where, wide } = scope;
  const rows = entries.slice(0, CSV_MAX_ROWS);
  const full = rows.length >= CSV_MAX_ROWS;
  const attachment = csvAttachment({
    filename: csvFilename(wide ? 'audit-workspace' : 'audit', day),
    header: CSV_HEADER,
    rows: rows.map((e) => csvValues(e, zone)),
  });
  return {
    title: md`Audit log (CSV)`,
    tone: 'info',
    text: md`${full ? md`The newest ${rowCount(rows.length)} (the most one file holds)` : rowCount(rows.length)} ${where}${what}${spentText(rows)}, newest first, in ${code(attachment.filename)}; ${csvTimesNote('time', 'time_utc', zone)}.${full ? md` Narrow it with \`--from\`/\`--to\` for older rows.` : md``}`,
    attachment,
  };
}
