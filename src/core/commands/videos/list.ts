/**
 * `videos [--page N] [--archived] [--csv]`: the team's videos, newest first, a page at a time with Prev/Next
 * buttons (their value carries the page number, so a click is self-contained). `--csv` sends every video the
 * key sees (up to `CSV_MAX_ROWS`) as a CSV file, reading the list 100 at a time.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { CSV_MAX_ROWS, csvAttachment, csvFilename, rowCount } from '../../format/csv.js';
import { excerpt } from '../../format/video.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import type { Card, Control, Response } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { catalogLabeller } from '../../text/labels.js';
import { code, command, hole, literal, md } from '../../text/text.js';
import { csvTimesNote, formatCsvDateTime } from '../../time/format.js';
import { dayKey } from '../../time/zone.js';
import type { VideoListItem } from '../../video-api/video-api.js';
import { SEARCH_MAX, searchCard, VIDEO_STATUSES } from './search.js';
import { SHOW_HERE_ACTION } from './status.js';
import { videosTable } from './table.js';

export const PAGE_SIZE = 10;

async function listPage(ctx: CommandContext, page: number, archived: boolean): Promise<Card> {
  const api = await ctx.api();
  const { items, pagination } = await api.videos.list({ page, limit: PAGE_SIZE, archived });
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  const what = archived ? md`archived videos` : md`videos`;
  if (items.length === 0 && pagination.total > 0) {
    throw userError('page-out-of-range', {
      page,
      what: 'list',
      pages: pages === 1 ? '1 page' : `${pages} pages`,
    });
  }
  if (items.length === 0) {
    return {
      title: archived ? md`No archived videos` : md`No videos yet`,
      tone: 'info',
      text: archived
        ? md`Nothing is archived. ${command('videos')} lists the current ones.`
        : md`Create the first one with ${command('create', [hole('script')])} (or just ${command('create')} for a form), or caption existing media with ${command('caption', [hole('url')])}.`,
    };
  }
  const zone = await ctx.timeZone();
  const model = await catalogLabeller(ctx, 'models');
  // One menu for the page (a button per video would overflow Discord's rows): the live card, here.
  const controls: Control[] = [
    {
      kind: 'select',
      action: SHOW_HERE_ACTION,
      placeholder: 'Show a live card here…',
      options: items.map((v) => ({ label: excerpt(v.name, 75), value: v.id })),
    },
  ];
  const flag = archived ? 'archived' : 'all';
  if (page > 1)
    controls.push({ kind: 'button', action: 'videos.page', value: `${page - 1}:${flag}`, label: '← Prev' });
  if (page < pages)
    controls.push({ kind: 'button', action: 'videos.page', value: `${page + 1}:${flag}`, label: 'Next →' });
  const first = (page - 1) * pagination.limit + 1;
  const card: Card = {
    title: archived ? md`Archived videos` : md`Videos`,
    tone: 'info',
    text: md`${first}–${first + items.length - 1} of ${pagination.total} ${what}, newest first. ${command('show', [hole('id')])} for details.`,
    table: videosTable(items, { zone, now: ctx.now(), model }),
    context: md`Page ${page} of ${pages} · times in ${literal(zone)}`,
  };
  card.controls = controls;
  return card;
}

export const videosCommand: CommandSpec = defineCommand({
  name: 'videos',
  summary: 'List the team’s videos, newest first',
  options: [
    { name: 'page', kind: 'int', min: 1, description: 'Page number (10 per page)' },
    {
      name: 'search',
      kind: 'string',
      maxLength: SEARCH_MAX,
      description: 'Only videos whose name holds this',
    },
    { name: 'status', kind: 'choice', choices: VIDEO_STATUSES, description: 'Only videos in this state' },
    { name: 'archived', kind: 'boolean', description: 'List archived videos only' },
    {
      name: 'csv',
      kind: 'boolean',
      description: `Every video (up to ${CSV_MAX_ROWS}) as a CSV file`,
    },
  ],
  examples: [
    'videos',
    'videos --page 2',
    'videos --search octopus',
    'videos --status failed',
    'videos --archived',
    'videos --csv',
  ],
  details: md`\`--csv\` sends every video your key sees (up to ${CSV_MAX_ROWS}, newest first; with \`--archived\`, the archived ones) as a CSV file: id, name, model, creation time in your zone and in UTC, MP4 and thumbnail links.`,
  async run(ctx, args) {
    if (args.search !== undefined || args.status !== undefined) {
      if (args.page !== undefined) throw userError('search-with-page');
      if (args.csv) throw userError('csv-with-search');
      const q = {
        text: args.search?.trim() || undefined,
        status: args.status,
        archived: args.archived ?? false,
      };
      return message(await searchCard(ctx, q));
    }
    if (args.csv) {
      if (args.page !== undefined) throw userError('csv-with-page');
      return message(await csvCard(ctx, args.archived ?? false));
    }
    return message(await listPage(ctx, args.page ?? 1, args.archived ?? false));
  },
});

/** Prev/Next: value `<page>:<all|archived>`; replaces the list in place. */
export const videosPageAction: ActionSpec = {
  action: 'videos.page',
  async run(ctx, value): Promise<Response> {
    const [pageText, flag] = value.split(':');
    const page = Number(pageText);
    if (!Number.isSafeInteger(page) || page < 1) throw userError('bad-button');
    return { kind: 'update', card: await listPage(ctx, page, flag === 'archived') };
  },
};

/** The API's largest page: `--csv` reads the list with as few calls as it can. */
const CSV_PAGE_SIZE = 100;

/** Every video the key sees, newest first, up to `CSV_MAX_ROWS`; `more` when the team has more than that. */
async function allVideos(ctx: CommandContext, archived: boolean) {
  const api = await ctx.api();
  const items: VideoListItem[] = [];
  let total = 0;
  for (let page = 1; items.length < CSV_MAX_ROWS; page++) {
    const result = await api.videos.list({ page, limit: CSV_PAGE_SIZE, archived });
    items.push(...result.items);
    total = result.pagination.total;
    // A short page, or the total reached, is the end (a total the service got wrong cannot loop forever).
    if (result.items.length === 0 || items.length >= total) break;
  }
  return { items: items.slice(0, CSV_MAX_ROWS), total: Math.max(total, items.length) };
}

const CSV_HEADER = ['id', 'name', 'model', 'created', 'created_utc', 'mp4', 'thumbnail'];

async function csvCard(ctx: CommandContext, archived: boolean): Promise<Card> {
  const zone = await ctx.timeZone();
  const { items, total } = await allVideos(ctx, archived);
  const what = archived ? md`archived videos` : md`videos`;
  if (items.length === 0) {
    return {
      title: archived ? md`No archived videos` : md`No videos yet`,
      tone: 'info',
      text: md`There are no ${what} to export, so no file was made.`,
    };
  }
  const local = (at: string | undefined) => {
    const ms = at === undefined ? Number.NaN : Date.parse(at);
    return Number.isFinite(ms) ? formatCsvDateTime(ms, zone) : '';
  };
  const attachment = csvAttachment({
    filename: csvFilename(archived ? 'videos-archived' : 'videos', dayKey(ctx.now(), zone)),
    header: CSV_HEADER,
    rows: items.map((v) => [
      v.id,
      v.name,
      v.model ?? '',
      local(v.createdAt),
      utc(v.createdAt),
      v.renderedVideoUrl ?? '',
      v.thumbnailUrl ?? '',
    ]),
  });
  const cut = items.length < total;
  return {
    title: archived ? md`Archived videos (CSV)` : md`Videos (CSV)`,
    tone: 'info',
    text: md`${cut ? md`The newest ${rowCount(items.length)} of ${total} ${what}` : md`All ${total} ${what}, one row each`}, newest first, in ${code(attachment.filename)}; ${csvTimesNote('created', 'created_utc', zone)}.${cut ? md` A file holds at most ${CSV_MAX_ROWS} rows.` : md``}`,
    attachment,
  };
}

/** An ISO time in UTC, or '' when the service sent none (or something unreadable). */
function utc(at: string | undefined): string {
  const ms = at === undefined ? Number.NaN : Date.parse(at);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : '';
}
