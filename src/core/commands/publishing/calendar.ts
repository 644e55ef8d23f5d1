/**
 * `calendar [--from D] [--to D] [--platform P] [--status S]` (GET /calendar): the agenda as a table, oldest first, in
 * the caller's zone, default today and the next 6 days. The service's calendar dates are UTC days, so the
 * query covers the UTC days overlapping the caller's range and entries are then placed on local days.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { plural } from '../../format/account.js';
import { CSV_MAX_ROWS, csvAttachment, csvFilename, rowCount } from '../../format/csv.js';
import { defineCommand } from '../../parse/command-spec.js';
import { formatMentions } from '../../people/mentions.js';
import { platformName } from '../../platforms/post-blocks.js';
import { calendarDrafts, type Draft } from '../../publishing/calendar-drafts.js';
import { type Card, message } from '../../text/cards.js';
import { humanise } from '../../text/labels.js';
import { isNotFound } from '../../text/not-found.js';
import type { Table } from '../../text/table.js';
import { type CardText, code, command, joinText, literal, md } from '../../text/text.js';
import { csvTimesNote, formatCsvDateTime, formatDay, formatListTime } from '../../time/format.js';
import { parseRangeOptions, type RangeOptions } from '../../time/range.js';
import { addDays, dayKey, daysBetween, startOfDay } from '../../time/zone.js';
import { CALENDAR_STATUSES, type CalendarEntry } from '../../video-api/video-api.js';

const DEFAULT_DAYS = 7;
export const MAX_RANGE_DAYS = 90;
/** A card stays readable (and within Slack's block limits). */
const MAX_ENTRIES = 60;
const NAME_LIST_PAGES = 3;
const NAME_LOOKUPS = 5;

const STATUS_ICON: Record<string, CardText> = { scheduled: md`🕒`, posted: md`✅`, failed: md`❌` };

/** Video names for the entries: the team's list first, then a few direct reads; unknown ids stay ids. */
async function videoNames(ctx: CommandContext, ids: Set<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const api = await ctx.api();
  for (let page = 1; page <= NAME_LIST_PAGES && names.size < ids.size; page++) {
    const { items, pagination } = await api.videos.list({ page, limit: 100 });
    for (const v of items) if (ids.has(v.id)) names.set(v.id, v.name);
    if (page * pagination.limit >= pagination.total) break;
  }
  const missing = [...ids].filter((id) => !names.has(id)).slice(0, NAME_LOOKUPS);
  await Promise.all(
    missing.map(async (id) => {
      try {
        names.set(id, (await api.videos.get(id)).name);
      } catch (error) {
        // A deleted video still has calendar history; it is shown by id.
        if (!isNotFound(error)) throw error;
      }
    }),
  );
  return names;
}

/**
 * `--from`/`--to` read together as one phrase (`monday to friday`, `this week`; see time/range.ts): default
 * today and the next 6 days; `--from` naming a single day starts 7 days there.
 */
async function rangeArg(ctx: CommandContext, args: RangeOptions): Promise<{ from: string; to: string }> {
  const zone = await ctx.timeZoneToRead();
  const now = ctx.now();
  const given = args.to !== undefined && args.from === undefined ? { from: 'today', to: args.to } : args;
  const r = parseRangeOptions(given, { zone, now });
  if (!r.ok) throw r.error;
  const from = r.value.from ?? dayKey(now, zone);
  return { from, to: r.value.to ?? addDays(from, DEFAULT_DAYS - 1) };
}

/** The status and platform filters in words (`posted`, `on YouTube`), each left out when not given. */
const filterWords = (args: {
  status?: string | undefined;
  platform?: string | undefined;
}): [CardText | undefined, CardText | undefined] => [
  args.status ? literal(args.status) : undefined,
  args.platform ? md`on ${platformName(args.platform)}` : undefined,
];

export const calendarCommand = defineCommand({
  name: 'calendar',
  summary: 'Scheduled and recent posts, by day in your time zone',
  options: [
    {
      name: 'from',
      kind: 'date',
      description: 'First day, or a whole range: 2026-12-01, today, monday, this week (default today)',
    },
    { name: 'to', kind: 'date', description: 'Last day: friday, 2026-12-05 (default 6 days after --from)' },
    { name: 'platform', kind: 'platform', description: 'Only this platform' },
    {
      name: 'status',
      kind: 'choice',
      choices: CALENDAR_STATUSES,
      description: 'Only scheduled, posted or failed',
    },
    {
      name: 'csv',
      kind: 'boolean',
      description: `Every post in the range (up to ${CSV_MAX_ROWS}) as a CSV file`,
    },
  ],
  examples: [
    'calendar',
    'calendar --from monday --to friday',
    'calendar --from "next week"',
    'calendar --platform youtube --status failed --from 2026-11-01',
    'calendar --from 2026-11-01 --to 2026-11-30 --csv',
  ],
  details: md`Days and times are in your time zone (${command('tz')} sets it). \`--from\` and \`--to\` read as one phrase: \`--from monday --to friday\` is this week’s working days (the coming week’s on a weekend); \`--from\` alone also takes \`this week\`, \`next week\`, \`last month\`, \`last 7 days\` or \`next 30 days\`. A range covers at most ${MAX_RANGE_DAYS} days. \`--csv\` sends every post of the range (up to ${CSV_MAX_ROWS}) as a CSV file, with times in your zone and in UTC.`,
  async run(ctx, args) {
    const zone = await ctx.timeZoneToRead();
    const now = ctx.now();
    const today = dayKey(now, zone);
    const { from, to } = await rangeArg(ctx, args);
    const days = daysBetween(from, to) + 1;
    if (days > MAX_RANGE_DAYS) throw userError('calendar-range-too-long', { days, max: MAX_RANGE_DAYS });

    const entries = (
      await (
        await ctx.api()
      ).posts.calendar({
        startDate: dayKey(startOfDay(from, zone), 'UTC'),
        endDate: dayKey(startOfDay(addDays(to, 1), zone) - 1, 'UTC'),
        ...(args.platform ? { platform: args.platform } : {}),
        ...(args.status ? { status: args.status } : {}),
      })
    )
      .map((e) => ({ e, at: Date.parse(e.scheduledTime) }))
      .filter(({ at }) => Number.isFinite(at) && dayKey(at, zone) >= from && dayKey(at, zone) <= to)
      .sort((a, b) => a.at - b.at);

    // Requests still waiting for approval are drafts of the calendar; a status filter asks about posts only.
    const drafts = args.status
      ? []
      : await calendarDrafts(ctx, {
          from: startOfDay(from, zone),
          to: startOfDay(addDays(to, 1), zone),
          platform: args.platform,
        });

    const defaultRange = args.from === undefined && args.to === undefined;
    const range = defaultRange
      ? md`the next ${DEFAULT_DAYS} days`
      : md`${formatDay(from)} – ${formatDay(to)}`;
    const [status, platform] = filterWords(args);
    const filters = joinText([status, platform], ' ');
    const empty = () => {
      const what =
        status || platform ? joinText([md`No`, status, md`posts`, platform], ' ') : md`Nothing scheduled`;
      return message({
        title: md`Calendar`,
        tone: 'info',
        text: md`${what} in ${range}. Try ${command('schedule', ['last', 'youtube', 'tomorrow', '9am'])}.`,
        context: md`Times in ${literal(zone)}`,
      });
    };
    if (args.csv)
      return entries.length > 0
        ? message(await csvCard(ctx, { entries, zone, range, filters, day: today }))
        : empty();
    const shown = entries.slice(0, MAX_ENTRIES);
    const names = await videoNames(ctx, new Set([...drafts, ...shown.map(({ e }) => e)].map(videoOf)));
    // Another team's request (a video this key cannot read) is not this caller's to see.
    const visible = drafts.filter((d) => names.has(d.videoId));
    if (entries.length === 0 && visible.length === 0) return empty();
    const rows = [...postRows(shown, names), ...draftRows(visible, names)].sort((a, b) => a.at - b.at);
    const waiting = visible.length > 0 ? md` · ${plural(visible.length, 'draft')} awaiting approval` : md``;
    const card: Card = {
      title: md`Calendar · ${range}`,
      tone: 'info',
      table: postsTable(rows, { zone, now }),
      context: md`Times in ${literal(zone)}${filters ? md` · ${filters}` : md``} · ${plural(entries.length, 'post')}${waiting}`,
    };
    if (shown.length < entries.length) {
      card.text = md`Showing the first ${shown.length} of ${entries.length}. Narrow it with \`--to\`, \`--platform\` or \`--status\`, or add \`--csv\` for every one.`;
    }
    return message(card);
  },
});

/** One line of the calendar: when, and the cells after it. */
interface CalendarRow {
  at: number;
  platform: string;
  status: CardText;
  video: CardText;
}

const videoOf = (item: CalendarEntry | Draft): string =>
  'projectId' in item ? item.projectId : item.videoId;

const nameOf = (names: Map<string, string>, id: string): CardText => {
  const known = names.get(id);
  return known === undefined ? code(id) : literal(known);
};

/** The service's posts: scheduled, posted or failed. */
const postRows = (items: { e: CalendarEntry; at: number }[], names: Map<string, string>): CalendarRow[] =>
  items.map(({ e, at }) => ({
    at,
    platform: e.platform,
    status: md`${STATUS_ICON[e.status] ?? md`•`} ${literal(humanise(e.status))}`,
    video: nameOf(names, e.projectId),
  }));

/** Schedules waiting for approval, marked as drafts with who may approve them. */
const draftRows = (drafts: Draft[], names: Map<string, string>): CalendarRow[] =>
  drafts.map((d) => ({
    at: d.at,
    platform: d.platform,
    status: md`📝 Draft, awaiting approval by ${formatMentions(d.approvers, md`nobody yet`)}`,
    video: nameOf(names, d.videoId),
  }));

/** The posts and drafts, oldest first: when (in the caller's zone), where, how it stands and which video. */
function postsTable(rows: CalendarRow[], { zone, now }: { zone: string; now: number }): Table {
  return {
    caption: 'Posts',
    columns: [{ label: 'When' }, { label: 'Platform' }, { label: 'Status' }, { label: 'Video' }],
    rows: rows.map((r) => [formatListTime(r.at, zone, now), platformName(r.platform), r.status, r.video]),
  };
}

const CSV_HEADER = ['time', 'time_utc', 'platform', 'status', 'video', 'video_name', 'post'];

/** `--csv`: every post of the range (up to `CSV_MAX_ROWS`), oldest first, as a CSV file. */
async function csvCard(
  ctx: CommandContext,
  o: {
    entries: { e: CalendarEntry; at: number }[];
    zone: string;
    range: CardText;
    filters: CardText;
    day: string;
  },
): Promise<Card> {
  const rows = o.entries.slice(0, CSV_MAX_ROWS);
  const names = await videoNames(ctx, new Set(rows.map(({ e }) => e.projectId)));
  const attachment = csvAttachment({
    filename: csvFilename('calendar', o.day),
    header: CSV_HEADER,
    rows: rows.map(({ e, at }) => [
      formatCsvDateTime(at, o.zone),
      new Date(at).toISOString(),
      e.platform,
      e.status,
      e.projectId,
      names.get(e.projectId) ?? '',
      e.id,
    ]),
  });
  const cut = rows.length < o.entries.length;
  return {
    title: md`Calendar (CSV)`,
    tone: 'info',
    text: md`${cut ? md`The first ${rowCount(rows.length)} of ${o.entries.length}` : rowCount(rows.length)} for ${o.range}${o.filters ? md` (${o.filters})` : md``}, oldest first, in ${code(attachment.filename)}; ${csvTimesNote('time', 'time_utc', o.zone)}.${cut ? md` Narrow it with \`--to\`, \`--platform\` or \`--status\` for the rest.` : md``}`,
    attachment,
  };
}
