/**
 * Channel subscriptions `subscribe calendar` and `subscribe videos` as `feed` watches. One watch per
 * subscription; its target is a stable subscription id (`calendar@<conversation>`). Each check reads one
 * page of the team's data, compares it with what the watch has already seen, and posts once per change:
 * the outbox dedupe key names the change (entry id + status, video id) so a crash, a retry or a
 * re-subscription never repeats a message. The first look only records what exists (no backlog flood).
 * (`subscribe series <s>` uses the series watcher, which already gives each new episode its status card.)
 */

import { platformName } from '../platforms/names.js';
import type { ConversationAddress, Store, Subscription, SubscriptionFilters, Watch } from '../ports/index.js';
import { entryMatches, madeBy, seriesVideos } from '../settings/subscription-filters.js';
import type { Card, Field } from '../text/cards.js';
import { humanise } from '../text/labels.js';
import { type CardText, code, command, hole, joinText, literal, md } from '../text/text.js';
import { formatDateTime } from '../time/format.js';
import {
  type CalendarEntry,
  type VideoApi,
  VideoApiError,
  type VideoListItem,
} from '../video-api/video-api.js';
import { postToChannel, videoCardKey } from './live-card.js';
import { projectionsOf, videoState } from './projections.js';
import { readScheduleState } from './schedule-watcher.js';
import { keyTrouble, type WatchContext, type Watcher, type WatchResult, type WatchStop } from './watcher.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Remembered video ids; a page holds 20, so this covers deletions shuffling older videos onto page 1. */
const MAX_SEEN = 200;
/** New videos posted one by one per check; beyond that one summary (a bulk import must not flood). */
const MAX_CARDS_PER_CHECK = 5;
/** Names looked up per check for calendar messages; the rest show the video id. */
const MAX_NAME_LOOKUPS = 10;
/** A video's live card brought into the conversation (commands/videos/status.ts): the new-video notice's button. */
const SHOW_HERE_ACTION = 'video.show-here';

export type FeedKind = 'calendar' | 'videos';

export interface FeedSubscription {
  kind: FeedKind;
  conversation: ConversationAddress;
}

/** The watch target of a subscription: one per conversation and kind. */
export const feedTarget = (sub: FeedSubscription): string => `${sub.kind}@${sub.conversation}`;

export function parseFeedTarget(target: string): FeedSubscription | undefined {
  const at = target.indexOf('@');
  const kind = target.slice(0, at);
  const conversation = target.slice(at + 1);
  if (at <= 0 || conversation === '' || (kind !== 'calendar' && kind !== 'videos')) return undefined;
  return { kind, conversation };
}

/** What a feed watch remembers between checks. */
export interface FeedState {
  /** False until the first look has recorded what already exists. */
  primed: boolean;
  /** calendar: `<entry id>:<status>` of posted/failed entries; videos: ids already seen. */
  seen: string[];
  /** videos: newest `createdAt` seen, so an old video surfacing after a deletion is not "new". */
  watermark?: string;
}

export interface FeedObservation {
  state: FeedState;
  /** Calendar entries that became posted or failed since the last look. */
  calendar: CalendarEntry[];
  /** Videos created since the last look, oldest first. */
  videos: VideoListItem[];
  nextCheckInMs: number;
}

const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const background = { priority: 'background' } as const;

/**
 * Reads the feed once and returns what is new since `previous` (nothing when not primed yet). `subscribe`
 * calls it with the caller's key to record the baseline, which also proves the key may read the feed.
 */
export async function observeFeed(
  api: VideoApi,
  { kind, previous, now }: { kind: FeedKind; previous?: FeedState | undefined; now: number },
): Promise<FeedObservation> {
  const primed = previous?.primed === true;
  const seen = new Set(previous?.seen ?? []);

  if (kind === 'calendar') {
    // Yesterday to tomorrow (UTC dates, inclusive) holds every post that can flip between two looks.
    const entries = await api.posts.calendar(
      { startDate: ymd(now - DAY), endDate: ymd(now + DAY) },
      background,
    );
    const settled = entries.filter((e) => e.status === 'posted' || e.status === 'failed');
    const fresh = primed ? settled.filter((e) => !seen.has(`${e.id}:${e.status}`)) : [];
    // Entries leave the window only as time moves on, so remembering the current window is enough.
    const state: FeedState = { primed: true, seen: settled.map((e) => `${e.id}:${e.status}`) };
    return { state, calendar: fresh, videos: [], nextCheckInMs: calendarInterval(entries, now) };
  }

  const { items } = await api.videos.list({ page: 1, limit: 20 }, background);
  const watermark = previous?.watermark;
  const fresh = primed
    ? items.filter((v) => !seen.has(v.id) && (!watermark || !v.createdAt || v.createdAt >= watermark))
    : [];
  const newest = items.reduce<string | undefined>(
    (max, v) => (v.createdAt && (!max || v.createdAt > max) ? v.createdAt : max),
    watermark,
  );
  const state: FeedState = {
    primed: true,
    seen: [...new Set([...items.map((v) => v.id), ...(previous?.seen ?? [])])].slice(0, MAX_SEEN),
    ...(newest ? { watermark: newest } : {}),
  };
  // Newest first from the API; announced in creation order.
  return { state, calendar: [], videos: fresh.reverse(), nextCheckInMs: 2 * MINUTE };
}

/** Look again shortly after the next scheduled post is due, else every ten minutes. */
function calendarInterval(entries: CalendarEntry[], now: number): number {
  let next = 10 * MINUTE;
  for (const e of entries) {
    if (e.status !== 'scheduled') continue;
    const due = Date.parse(e.scheduledTime) - now;
    if (Number.isNaN(due)) continue;
    next = Math.min(next, due <= 0 ? MINUTE : due + 30_000);
  }
  return next;
}

export function feedLabel(kind: FeedKind): CardText {
  return kind === 'calendar' ? md`the posting calendar` : md`new videos`;
}

function calendarCard(entry: CalendarEntry, videoName: string, zone: string): Card {
  const where = platformName(entry.platform);
  const when = md`${formatDateTime(entry.scheduledTime, zone)} (${literal(zone)})`;
  const context = md`video ${code(entry.projectId)} · calendar subscription`;
  if (entry.status === 'posted') {
    return {
      title: md`Posted to ${where}`,
      tone: 'success',
      text: md`**${literal(videoName)}** went out on ${where} (scheduled for ${when}).`,
      context,
    };
  }
  return {
    title: md`Post to ${where} failed`,
    tone: 'danger',
    text: md`**${literal(videoName)}** could not be posted to ${where} (scheduled for ${when}).\nCheck the ${where} connection in the dashboard, then schedule it again: ${command('schedule', [entry.projectId, entry.platform, hole('when')])}.`,
    context,
  };
}

function newVideoCard(v: VideoListItem, zone: string): Card {
  const fields: Field[] = [];
  if (v.model) fields.push({ label: md`Model`, value: literal(humanise(v.model)), short: true });
  if (v.createdAt) fields.push({ label: md`Created`, value: formatDateTime(v.createdAt, zone), short: true });
  return {
    title: md`New video: ${literal(v.name)}`,
    tone: 'info',
    text: md`Follow it with ${command('status', [v.id])}.`,
    ...(fields.length > 0 ? { fields } : {}),
    controls: [{ kind: 'button', action: SHOW_HERE_ACTION, value: v.id, label: 'Show here' }],
    context: md`id ${code(v.id)} · videos subscription`,
  };
}

/** Why a subscription cannot go on, in words for the channel; undefined when the error may pass. */
function stopReason(error: unknown, kind: FeedKind): CardText | undefined {
  if (!(error instanceof VideoApiError)) return undefined;
  if (error.type === 'unauthorized') {
    return md`The API key that followed ${feedLabel(kind)} here no longer works (revoked or unlinked). Run ${command('subscribe', [kind])} again with a working key.`;
  }
  if (error.type === 'forbidden_scope') {
    return md`The API key that followed ${feedLabel(kind)} here lacks the scope it needs. Run ${command('subscribe', [kind])} again with a key that has it.`;
  }
  return undefined;
}

/** Polls a subscription's feed and posts what changed. */
export const feedWatcher: Watcher = {
  kind: 'feed',
  minIntervalMs: MINUTE,
  maxIntervalMs: 10 * MINUTE,
  // A channel's feed can wait for looks at running jobs when the key's budget runs short.
  deferrable: () => true,

  async check(ctx: WatchContext, watch: Watch): Promise<WatchResult> {
    const sub = parseFeedTarget(watch.target);
    const row = sub && (await subscriptionOf(ctx.store, sub));
    // Unsubscribed meanwhile (or a malformed row): stop quietly.
    if (!sub || !row) return { state: watch.state, done: true };

    let seen: FeedObservation;
    try {
      seen = await observeFeed(ctx.api, {
        kind: sub.kind,
        previous: watch.state as unknown as FeedState,
        now: ctx.now,
      });
    } catch (error) {
      const reason = stopReason(error, sub.kind);
      if (!reason) throw error;
      ctx.logger.warn(
        { watch: watch.id, feed: sub.kind, errorType: (error as VideoApiError).type },
        'feed subscription stopped',
      );
      return {
        state: watch.state,
        done: true,
        async apply(store) {
          await store.subscriptions.remove(sub.conversation, sub.kind, '');
          await postToChannel(store, {
            conversation: sub.conversation,
            card: { title: md`Subscription stopped`, tone: 'warning', text: reason },
            dedupeKey: `feed:${watch.target}:stopped:${watch.id}`,
          });
        },
      };
    }

    const zone = (await ctx.store.settings.get(sub.conversation)).timeZone ?? md`UTC`;
    // What the filters let through; the state still records everything seen, so nothing comes back later.
    const inSeries =
      row.filters?.series && seen.calendar.length > 0
        ? await seriesVideos(ctx.api, row.filters.series)
        : undefined;
    const calendar = (
      await kept({ store: ctx.store, row }, seen.calendar, (e) => ({ videoId: e.projectId, post: e }))
    ).filter((e) => !inSeries || inSeries.has(e.projectId));
    const videos = await kept({ store: ctx.store, row }, seen.videos, (v) => ({ videoId: v.id }));
    const names = await videoNames(
      ctx,
      calendar.map((e) => e.projectId),
    );
    return {
      state: seen.state as unknown as Record<string, unknown>,
      done: false,
      nextCheckInMs: seen.nextCheckInMs,
      async apply(store) {
        for (const entry of calendar) {
          if (await followedHere(store, sub.conversation, entry)) continue;
          await postToChannel(store, {
            conversation: sub.conversation,
            card: calendarCard(entry, names.get(entry.projectId) ?? entry.projectId, zone),
            dedupeKey: `feed:${watch.target}:${entry.id}:${entry.status}`,
          });
        }
        await announceVideos(store, { watch, sub, videos, zone });
      },
    };
  },

  async expire({ store, watch, reason }: WatchStop): Promise<void> {
    const sub = parseFeedTarget(watch.target);
    if (!sub) return;
    await store.subscriptions.remove(sub.conversation, sub.kind, '');
    const card: Card =
      reason === 'expired'
        ? {
            title: md`Subscription ended`,
            tone: 'warning',
            text: md`This channel no longer follows ${feedLabel(sub.kind)}. Run ${command('subscribe', [sub.kind])} to follow it again.`,
          }
        : {
            title: md`Subscription stopped`,
            tone: 'warning',
            text: md`This channel no longer follows ${feedLabel(sub.kind)}: ${keyTrouble(reason, md`followed ${feedLabel(sub.kind)} here`)}. Run ${command('subscribe', [sub.kind])} to follow it with yours.`,
          };
    await postToChannel(store, {
      conversation: sub.conversation,
      card,
      dedupeKey: `feed:${watch.target}:expired:${watch.id}`,
    });
  },
};

/**
 * Whether the video's status card in this conversation follows this post: its schedule watch here says
 * "Posted to X" on the card (schedule-watcher.ts), so the calendar feed must not say it a second time. Either
 * the watch still waits for the platform, or it already settled it (the card shows the outcome). A card
 * that does not follow the post (scheduled from another channel) leaves the message to the feed.
 */
async function followedHere(
  store: Store,
  conversation: ConversationAddress,
  entry: CalendarEntry,
): Promise<boolean> {
  const here = videoCardKey(entry.projectId, conversation);
  if (!(await projectionsOf(store, entry.projectId)).some((p) => p.key === here)) return false;
  const watch = await store.watches.findActive('schedule', entry.projectId);
  if (watch && readScheduleState(watch.state).platforms.includes(entry.platform)) return true;
  const status = (await videoState(store, entry.projectId))?.schedule?.statuses?.[entry.platform];
  return status === 'posted' || status === 'failed';
}

async function subscriptionOf(store: Store, sub: FeedSubscription): Promise<Subscription | undefined> {
  return (await store.subscriptions.list(sub.conversation)).find((s) => s.kind === sub.kind);
}

/**
 * The items every filter of the subscription matches: a calendar entry's platform and status, and for `by`
 * the member who made the video with the bot (a video made elsewhere matches no `by`).
 */
async function kept<T>(
  { store, row }: { store: Store; row: Subscription },
  items: T[],
  about: (item: T) => { videoId: string; post?: { platform: string; status: string } },
): Promise<T[]> {
  const filters: SubscriptionFilters = row.filters ?? {};
  const out: T[] = [];
  for (const item of items) {
    const { videoId, post } = about(item);
    if (post && !entryMatches(filters, post)) continue;
    if (filters.by && (await madeBy(store, { conversation: row.conversation, videoId })) !== filters.by)
      continue;
    out.push(item);
  }
  return out;
}

/** Names for the videos a message mentions; a failed lookup just shows the id. */
async function videoNames(ctx: WatchContext, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of [...new Set(ids)].slice(0, MAX_NAME_LOOKUPS)) {
    try {
      names.set(id, (await ctx.api.videos.get(id, background)).name);
    } catch (error) {
      ctx.logger.debug(
        { videoId: id, errorType: (error as VideoApiError).type },
        'feed: video name lookup failed',
      );
    }
  }
  return names;
}

async function announceVideos(
  store: Store,
  {
    watch,
    sub,
    videos,
    zone,
  }: { watch: Watch; sub: FeedSubscription; videos: VideoListItem[]; zone: string },
): Promise<void> {
  // A video created from this channel already has its live status card here.
  const fresh: VideoListItem[] = [];
  for (const v of videos) if (!(await store.cards.get(videoCardKey(v.id, sub.conversation)))) fresh.push(v);
  for (const v of fresh.slice(0, MAX_CARDS_PER_CHECK)) {
    await postToChannel(store, {
      conversation: sub.conversation,
      card: newVideoCard(v, zone),
      dedupeKey: `feed:${watch.target}:${v.id}`,
    });
  }
  const rest = fresh.slice(MAX_CARDS_PER_CHECK);
  if (rest.length === 0) return;
  const listed = joinText(
    rest.slice(0, 10).map((v) => md`• ${literal(v.name)} (${code(v.id)})`),
    '\n',
  );
  await postToChannel(store, {
    conversation: sub.conversation,
    card: {
      title: md`${rest.length} more new videos`,
      tone: 'info',
      text: md`${listed}${
        rest.length > 10
          ? md`
…`
          : md``
      }\nSee them all with ${command('videos')}.`,
    },
    dedupeKey: `feed:${watch.target}:more:${rest.map((v) => v.id).join(',')}`,
  });
}
