/**
 * What both digests read from the service and the store: the calendar of some days in the digest's zone,
 * video names for its lines, credits spent from the ledger, and requests waiting for approval. Each read that
 * the key's scopes refuse comes back as `undefined`, so the digest says that part is missing instead of
 * stopping the whole message; any other failure throws, and the poller looks again.
 */
import { workspaceOf } from '../ports/address.js';
import type { ConversationAddress, Store } from '../ports/index.js';
import { type CardText, code, literal, md } from '../text/text.js';
import { addDays, dayKey, startOfDay } from '../time/zone.js';
import { type LedgerSpend, ledgerSpend } from '../video-api/ledger-spend.js';
import { type CalendarEntry, type VideoApi, VideoApiError } from '../video-api/video-api.js';

const background = { priority: 'background' } as const;
/** Names looked up per digest; the rest show the video id. */
const MAX_NAME_LOOKUPS = 10;

/** `read()`, or undefined when the key lacks the scope it needs. */
export async function scoped<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof VideoApiError && error.type === 'forbidden_scope') return undefined;
    throw error;
  }
}

/** The calendar entries scheduled on days `from`…`to` (`YYYY-MM-DD`, inclusive) in `zone`, by time. */
export async function calendarDays(
  api: VideoApi,
  days: { from: string; to: string; zone: string },
): Promise<CalendarEntry[]> {
  // The service's dates are UTC days: one either side covers the zone's days.
  const entries = await api.posts.calendar(
    { startDate: addDays(days.from, -1), endDate: addDays(days.to, 1) },
    background,
  );
  return entries
    .filter((e) => {
      const day = dayKey(Date.parse(e.scheduledTime), days.zone);
      return day >= days.from && day <= days.to;
    })
    .sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime));
}

/** Names for the videos the lines mention; a failed lookup just shows the id. */
export async function videoNames(api: VideoApi, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of [...new Set(ids)].slice(0, MAX_NAME_LOOKUPS)) {
    try {
      names.set(id, (await api.videos.get(id, background)).name);
    } catch (error) {
      if (!(error instanceof VideoApiError)) throw error;
    }
  }
  return names;
}

export const videoLabel = (names: Map<string, string>, id: string): CardText => {
  const name = names.get(id);
  return name ? md`**${literal(name)}**` : code(id);
};

/** The balance, and the credits spent on days `from`…`to` (inclusive, in `zone`) by the ledger's debits. */
export async function creditsSpent(
  api: VideoApi,
  days: { from: string; to: string; zone: string },
): Promise<LedgerSpend | undefined> {
  const window = {
    since: startOfDay(days.from, days.zone),
    until: startOfDay(addDays(days.to, 1), days.zone),
  };
  return await scoped(() => ledgerSpend(api, window, background));
}

/** Requests of the conversation's workspace still waiting for a decision. */
export async function waitingApprovals(store: Store, conversation: ConversationAddress): Promise<number> {
  return (await store.approvals.pendingIn(workspaceOf(conversation))).length;
}
