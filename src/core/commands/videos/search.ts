/**
 * `videos --search <text> --status <status>`: the team's videos whose name holds the text (case-insensitive)
 * and that are in that state, newest first, ten at a time. The API has no search, so the list is walked a
 * page of 100 at a time, politely: at most `SCAN_PAGES` pages and `STATUS_READS` status reads per answer.
 * Where an answer stopped, **More →** carries on from there (its value says where).
 *
 * A video's state is read from what the service says of it:
 * - `rendered`: it has an MP4 (the list says so);
 * - `scheduled`, `posted`: the calendar holds a post of it in that state (from 180 days back to 180 ahead);
 * - `failed`: a post of it failed, or its generation did;
 * - `generating`, `ready`: its generation status (one read each), not rendered yet.
 */
import { type CommandContext, userError } from '../../dispatch/context.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import type { Card, Control, Response } from '../../text/cards.js';
import { catalogLabeller } from '../../text/labels.js';
import { code, command, hole, literal, md } from '../../text/text.js';
import { addDays, dayKey } from '../../time/zone.js';
import type { VideoListItem } from '../../video-api/video-api.js';
import { videoPages } from '../../video-api/video-pages.js';
import { SHOW_HERE_ACTION } from './status.js';
import { videosTable } from './table.js';

export const VIDEO_STATUSES = ['generating', 'ready', 'rendered', 'scheduled', 'posted', 'failed'] as const;
export type VideoState = (typeof VIDEO_STATUSES)[number];

/** Matches shown per answer. */
const SHOWN = 10;
/** Pages of 100 one answer walks at most. */
const SCAN_PAGES = 10;
/** Generation status reads one answer makes at most. */
const STATUS_READS = 25;
/** How far back and ahead the calendar is read for scheduled, posted and failed posts. */
const CALENDAR_DAYS = 180;
/** The longest search text: it travels in the More button's value. */
export const SEARCH_MAX = 100;

export const SEARCH_ACTION = 'videos.search';

export interface VideoSearch {
  text?: string | undefined;
  status?: VideoState | undefined;
  archived: boolean;
}

/** Where a walk goes on: the list's page (from 1) and the item on it (from 0). */
interface Cursor {
  page: number;
  offset: number;
}

/** The answer to a search from `from`: what matched, and where to go on when there may be more. */
export async function searchCard(ctx: CommandContext, q: VideoSearch, from: Cursor = FIRST): Promise<Card> {
  const walk = await searchFrom(ctx, q, from);
  const zone = await ctx.timeZone();
  const what = searchWords(q);
  if (walk.found.length === 0 && !walk.next) {
    return {
      title: md`No videos found`,
      tone: 'info',
      text: md`No ${what}${from.page === 1 && from.offset === 0 ? md`` : md` further down the list`} (${walk.scanned} searched). Try fewer words, or ${command('videos')} for the whole list.`,
    };
  }
  const controls: Control[] = [];
  if (walk.found.length > 0) {
    controls.push({
      kind: 'select',
      action: SHOW_HERE_ACTION,
      placeholder: 'Show a live card here…',
      options: walk.found.map((v) => ({ label: v.name.slice(0, 75) || v.id, value: v.id })),
    });
  }
  if (walk.next)
    controls.push({
      kind: 'button',
      action: SEARCH_ACTION,
      value: cursorValue(q, walk.next),
      label: 'More →',
    });
  const model = await catalogLabeller(ctx, 'models');
  return {
    title: md`Videos: ${what}`,
    tone: 'info',
    text: walk.next
      ? md`${walk.found.length} found in the ${walk.scanned} looked at so far, newest first. **More →** searches further.`
      : md`${walk.found.length} found, newest first (${walk.scanned} searched). ${command('show', [hole('id')])} for details.`,
    ...(walk.found.length > 0 ? { table: videosTable(walk.found, { zone, now: ctx.now(), model }) } : {}),
    controls,
    context: md`Times in ${literal(zone)}`,
  };
}

/** More →: value `<page>.<offset>|<archived 0/1>|<status>|<text>`; replaces the answer in place. */
export const videosSearchAction: ActionSpec = {
  action: SEARCH_ACTION,
  async run(ctx, value): Promise<Response> {
    const [at = '', archived, status = '', ...text] = value.split('|');
    const [page, offset] = at.split('.').map(Number);
    const known = (VIDEO_STATUSES as readonly string[]).includes(status);
    const valid =
      Number.isSafeInteger(page) && Number.isSafeInteger(offset) && (page ?? 0) >= 1 && (offset ?? -1) >= 0;
    if (!valid || (status !== '' && !known)) throw userError('bad-button');
    const q: VideoSearch = {
      text: text.join('|') || undefined,
      status: known ? (status as VideoState) : undefined,
      archived: archived === '1',
    };
    return { kind: 'update', card: await searchCard(ctx, q, { page: page ?? 1, offset: offset ?? 0 }) };
  },
};

const FIRST: Cursor = { page: 1, offset: 0 };

const cursorValue = (q: VideoSearch, at: Cursor): string =>
  `${at.page}.${at.offset}|${q.archived ? 1 : 0}|${q.status ?? ''}|${q.text ?? ''}`;

/** "rendered videos named “moon”", "archived videos named “moon”", "failed videos". */
function searchWords(q: VideoSearch) {
  const kind = md`${q.status ? md`${literal(q.status)} ` : md``}${q.archived ? md`archived ` : md``}videos`;
  return q.text ? md`${kind} named like ${code(q.text)}` : kind;
}

interface Walk {
  found: VideoListItem[];
  scanned: number;
  next?: Cursor;
}

/** Walks the list from `from` until `SHOWN` matches, the end, or the answer's budget of pages and reads. */
async function searchFrom(ctx: CommandContext, q: VideoSearch, from: Cursor): Promise<Walk> {
  const api = await ctx.api();
  const inState = stateCheck(ctx, q.status);
  const wanted = q.text?.toLowerCase();
  const walk: Walk = { found: [], scanned: 0 };
  for await (const { page, items, more } of videoPages(api, {
    from: from.page,
    maxPages: SCAN_PAGES,
    archived: q.archived,
  })) {
    for (let i = page === from.page ? from.offset : 0; i < items.length; i++) {
      const video = items[i] as VideoListItem;
      if (walk.found.length === SHOWN) return { ...walk, next: { page, offset: i } };
      if (wanted && !video.name.toLowerCase().includes(wanted)) {
        walk.scanned++;
        continue;
      }
      const verdict = await inState(video);
      // Out of status reads: the next answer goes on from this video.
      if (verdict === 'later') return { ...walk, next: { page, offset: i } };
      walk.scanned++;
      if (verdict) walk.found.push(video);
    }
    if (!more) return walk;
    if (page === from.page + SCAN_PAGES - 1) return { ...walk, next: { page: page + 1, offset: 0 } };
  }
  return walk;
}

type Verdict = boolean | 'later';

/** Whether a video is in `state`, reading the calendar once and generation statuses within the budget. */
function stateCheck(
  ctx: CommandContext,
  state: VideoState | undefined,
): (v: VideoListItem) => Promise<Verdict> {
  if (!state) return async () => true;
  let posts: Promise<Map<string, Set<string>>> | undefined;
  let reads = 0;
  const postStates = async (id: string) => {
    posts ??= calendarStates(ctx);
    return (await posts).get(id) ?? new Set<string>();
  };
  const generation = async (id: string): Promise<string | 'later'> => {
    if (reads === STATUS_READS) return 'later';
    reads++;
    return (await (await ctx.api()).videos.status(id)).status;
  };
  return async (v) => {
    const rendered =
      v.renderedVideoUrl !== null && v.renderedVideoUrl !== undefined && v.renderedVideoUrl !== '';
    if (state === 'rendered') return rendered;
    if (state === 'scheduled' || state === 'posted') return (await postStates(v.id)).has(state);
    if (state === 'failed' && (await postStates(v.id)).has('failed')) return true;
    // A rendered video finished generating: neither generating, nor ready to render, nor failed.
    if (rendered) return false;
    const status = await generation(v.id);
    if (status === 'later') return 'later';
    if (state === 'failed') return status === 'failed';
    if (state === 'ready') return status === 'completed';
    return status === 'pending' || status === 'processing';
  };
}

/** The calendar's posts from 180 days back to 180 ahead: each video's post states. */
async function calendarStates(ctx: CommandContext): Promise<Map<string, Set<string>>> {
  const today = dayKey(ctx.now(), 'UTC');
  const entries = await (await ctx.api()).posts.calendar({
    startDate: addDays(today, -CALENDAR_DAYS),
    endDate: addDays(today, CALENDAR_DAYS),
  });
  const states = new Map<string, Set<string>>();
  for (const e of entries) states.set(e.projectId, (states.get(e.projectId) ?? new Set()).add(e.status));
  return states;
}
