/**
 * The `schedule` watch: follows one video's scheduled posts in one conversation until every platform is
 * posted or failed. It reads GET /calendar around the scheduled day; far from the due time it looks rarely
 * (at most every 30 min, and right at the due time), then every 15–60 s until each platform settles. Each
 * settlement edits the video card and says "Posted to X" / "Failed on Y" once in the card's thread (the
 * outbox dedupe key names the calendar entry and its status). Channel subscribers to `calendar` are told by
 * the feed watcher, not here.
 */

import { platformName } from '../platforms/names.js';
import type { ConversationAddress, Store, UserAddress, Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { type CardText, command, joinText, literal, md } from '../text/text.js';
import { formatBoth, formatDateTime } from '../time/format.js';
import { dayKey } from '../time/zone.js';
import type { CalendarEntry } from '../video-api/video-api.js';
import { postToChannel } from './live-card.js';
import { videoCardTrouble } from './look-trouble.js';
import { type PostOrigin, readPostOrigin, sayPostFailed } from './post-failure.js';
import { replyToVideo, updateVideoCard } from './projections.js';
import { watchResults } from './results-watcher.js';
import type { VideoCardModel } from './video-card.js';
import { keyTrouble, type WatchContext, type Watcher, type WatchResult, type WatchStop } from './watcher.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const SCHEDULE_MIN_INTERVAL_MS = 15 * SECOND;
export const SCHEDULE_MAX_INTERVAL_MS = 30 * MINUTE;
/** Once due, a post normally settles within minutes (the service may render first): look often, then less. */
const DUE_FAST_MS = 15 * SECOND;
const DUE_SLOW_MS = 60 * SECOND;
const DUE_FAST_WINDOW_MS = 5 * MINUTE;
/** How long after the last scheduled time the watch keeps looking. */
export const SCHEDULE_GRACE_MS = 2 * HOUR;

export type PlatformOutcome = 'posted' | 'failed' | 'cancelled';

/** One post followed: a platform may have several (a schedule kept beside an earlier one). */
export interface FollowedPost extends PostOrigin {
  platform: string;
  /** Scheduled instant (ISO). */
  at: string;
  outcome?: PlatformOutcome;
}

/** What a schedule watch remembers. */
export interface ScheduleWatchState {
  /** Every post followed, in the order asked. */
  posts: FollowedPost[];
  /** The platforms of those posts, each once, in order. */
  platforms: string[];
  /** The latest scheduled instant (ISO). */
  scheduledTime: string;
  /** The zone times are shown in (the scheduler's). */
  zone: string;
  name: string;
}

const isOutcome = (o: unknown): o is PlatformOutcome => o === 'posted' || o === 'failed' || o === 'cancelled';
const unique = (xs: string[]): string[] => [...new Set(xs)];

/** Reads a stored state; one stored before `posts` (a time and an outcome per platform) reads as one post each. */
export function readScheduleState(raw: Record<string, unknown>): ScheduleWatchState {
  const scheduledTime = typeof raw.scheduledTime === 'string' ? raw.scheduledTime : new Date(0).toISOString();
  const posts: FollowedPost[] = [];
  if (Array.isArray(raw.posts)) {
    for (const p of raw.posts as unknown[]) {
      const post = (p ?? {}) as Record<string, unknown>;
      if (typeof post.platform !== 'string' || typeof post.at !== 'string') continue;
      posts.push({
        platform: post.platform,
        at: post.at,
        ...(isOutcome(post.outcome) ? { outcome: post.outcome } : {}),
        ...readPostOrigin(post),
      });
    }
  } else {
    const platforms = Array.isArray(raw.platforms)
      ? raw.platforms.filter((p): p is string => typeof p === 'string')
      : [];
    const times = (raw.times ?? {}) as Record<string, unknown>;
    const outcomes = (raw.outcomes ?? {}) as Record<string, unknown>;
    for (const platform of platforms) {
      const at = typeof times[platform] === 'string' ? (times[platform] as string) : scheduledTime;
      const outcome = outcomes[platform];
      posts.push({ platform, at, ...(isOutcome(outcome) ? { outcome } : {}) });
    }
  }
  return {
    posts,
    platforms: unique(posts.map((p) => p.platform)),
    scheduledTime,
    zone: typeof raw.zone === 'string' ? raw.zone : 'UTC',
    name: typeof raw.name === 'string' ? raw.name : '',
  };
}

/** A platform's status on the card: its outcome once every post of it settled (the latest one's). */
function statusesOf(s: ScheduleWatchState): Record<string, string> {
  const statuses: Record<string, string> = {};
  for (const platform of s.platforms) {
    const posts = s.posts.filter((p) => p.platform === platform);
    const last = posts.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).at(-1);
    if (last?.outcome && posts.every((p) => p.outcome)) statuses[platform] = last.outcome;
  }
  return statuses;
}

/**
 * The card's `schedule` part: one time (zone and UTC) or, when posts differ in time, every time with its
 * platforms (a platform posting twice is listed at both times; a settled one says how it went).
 */
export function scheduleCardPart(s: ScheduleWatchState): NonNullable<VideoCardModel['schedule']> {
  const byTime = new Map<string, FollowedPost[]>();
  for (const p of s.posts) byTime.set(p.at, [...(byTime.get(p.at) ?? []), p]);
  const statuses = statusesOf(s);
  const entries = [...byTime.entries()].sort(([a], [b]) => Date.parse(a) - Date.parse(b));
  if (entries.length === 1) {
    const at = Date.parse((entries[0] as [string, FollowedPost[]])[0]);
    const local = formatDateTime(at, s.zone);
    return {
      platforms: s.platforms,
      at: local,
      zone: formatBoth(at, s.zone).slice(local.length + 1),
      statuses,
    };
  }
  const label = (p: FollowedPost) =>
    p.outcome && statuses[p.platform] === undefined
      ? `${platformName(p.platform)} ${p.outcome}`
      : platformName(p.platform);
  const at = entries
    .map(([t, ps]) => `${formatDateTime(Date.parse(t), s.zone)} (${ps.map(label).join(', ')})`)
    .join('; ');
  return { platforms: s.platforms, at, zone: s.zone, statuses };
}

const pendingOf = (s: ScheduleWatchState): FollowedPost[] => s.posts.filter((p) => p.outcome === undefined);
const latest = (s: ScheduleWatchState): number => Math.max(...s.posts.map((p) => Date.parse(p.at)));

/** When to look next: rarely while far from due (and exactly at due), then often until settled. */
export function nextScheduleCheck(s: ScheduleWatchState, now: number): number {
  const pending = pendingOf(s);
  if (pending.length === 0) return SCHEDULE_MAX_INTERVAL_MS;
  const due = Math.min(...pending.map((p) => Date.parse(p.at)));
  if (now < due) return Math.max(SCHEDULE_MIN_INTERVAL_MS, Math.min(SCHEDULE_MAX_INTERVAL_MS, due - now));
  return now - due < DUE_FAST_WINDOW_MS ? DUE_FAST_MS : DUE_SLOW_MS;
}

/**
 * Starts following a schedule, or folds it into the video's watch (one per video, whichever conversation
 * scheduled which platform). Posts still pending stay followed: the service keeps them until cancelled, so a
 * platform scheduled again at another time is followed at both. A post already followed at the same time is
 * not doubled; settled posts of the platforms scheduled now are dropped (the card shows the new ones). Call
 * inside the transaction that records the schedule.
 */
export async function watchSchedule(
  store: Store,
  input: {
    videoId: string;
    name: string;
    platforms: string[];
    at: number;
    zone: string;
    conversation: ConversationAddress;
    owner: UserAddress;
    cardKey: string | null;
    now: number;
    /** Who scheduled it (and approved it), and what each platform's post carries: pinged if it fails. */
    origin?: (platform: string) => PostOrigin;
  },
): Promise<{ watch: Watch; state: ScheduleWatchState }> {
  const existing = await store.watches.findActive('schedule', input.videoId);
  const previous = existing ? readScheduleState(existing.state) : undefined;
  const iso = new Date(input.at).toISOString();
  const kept = (previous?.posts ?? []).filter(
    (p) => !input.platforms.includes(p.platform) || (p.outcome === undefined && p.at !== iso),
  );
  const posts = [
    ...kept,
    ...input.platforms.map((platform) => ({ platform, at: iso, ...input.origin?.(platform) })),
  ];
  const state: ScheduleWatchState = {
    posts,
    platforms: unique(posts.map((p) => p.platform)),
    scheduledTime: '',
    zone: input.zone,
    name: input.name,
  };
  state.scheduledTime = new Date(latest(state)).toISOString();
  if (existing) await store.watches.update(existing.id, { status: 'done' });
  const watch = await store.watches.add({
    kind: 'schedule',
    target: input.videoId,
    owner: input.owner,
    conversation: input.conversation,
    cardKey: input.cardKey,
    state: state as unknown as Record<string, unknown>,
    nextCheckAt: input.now + nextScheduleCheck(state, input.now),
    expiresAt: latest(state) + SCHEDULE_GRACE_MS,
  });
  return { watch, state };
}

/** Stops following a video's schedule (after `unschedule`). Returns the stopped watch. */
export async function stopScheduleWatch(store: Store, videoId: string): Promise<Watch | undefined> {
  const watch = await store.watches.findActive('schedule', videoId);
  if (watch) await store.watches.update(watch.id, { status: 'done' });
  return watch;
}

const nameOf = (p: string): CardText => platformName(p);

const postedCard = (s: ScheduleWatchState, platform: string): Card => ({
  title: md`Posted to ${nameOf(platform)}`,
  tone: 'success',
  text: md`**${literal(s.name)}** went out on ${nameOf(platform)}.`,
});

/**
 * The calendar entry of a post: same platform, at its time (within a minute, should the service round it), not
 * already taken by another post. An older entry of the same platform (last week's post) never answers for this one.
 */
function entryFor(
  entries: CalendarEntry[],
  post: FollowedPost,
  taken: ReadonlySet<string>,
): CalendarEntry | undefined {
  const at = Date.parse(post.at);
  return entries
    .filter(
      (e) =>
        e.platform === post.platform &&
        !taken.has(e.id) &&
        Math.abs(Date.parse(e.scheduledTime) - at) < 60_000,
    )
    .sort(
      (a, b) => Math.abs(Date.parse(a.scheduledTime) - at) - Math.abs(Date.parse(b.scheduledTime) - at),
    )[0];
}

/** A settled post: its outcome, and the calendar entry that says so. */
interface Settled {
  post: FollowedPost;
  outcome: PlatformOutcome;
  entryId: string;
}

/**
 * The settled posts on the video card, and each posted or failed one said once in every conversation showing
 * the video (in its thread there), else where it was scheduled; a failure with Retry now and its pings.
 */
async function sayOutcomes(
  store: Store,
  { watch, next, settled, now }: { watch: Watch; next: ScheduleWatchState; settled: Settled[]; now: number },
): Promise<void> {
  const stamp = settled.map((x) => `${x.post.platform}@${Date.parse(x.post.at)}=${x.outcome}`).join(',');
  if (watch.cardKey) {
    await updateVideoCard(store, watch.cardKey, {
      patch: { schedule: scheduleCardPart(next) },
      dedupeKey: `schedule:${watch.id}:${stamp}`,
    });
  }
  for (const x of settled) {
    if (x.outcome === 'cancelled') continue;
    const dedupeKey = `schedule:${watch.target}:${x.entryId}:${x.outcome}`;
    if (x.outcome === 'failed') {
      await sayPostFailed(store, {
        videoId: watch.target,
        name: next.name,
        platform: x.post.platform,
        entryId: x.entryId,
        origin: x.post,
        conversation: watch.conversation,
        dedupeKey,
      });
      continue;
    }
    const card = postedCard(next, x.post.platform);
    if (!(await replyToVideo(store, watch.target, { card, dedupeKey })))
      await postToChannel(store, { conversation: watch.conversation, card, dedupeKey });
    // Its views come back to the card at about a day and at 7 days, joined by its title (results-watcher.ts).
    const post = { videoId: watch.target, platform: x.post.platform, title: next.name, at: now };
    await watchResults(store, { owner: watch.owner, conversation: watch.conversation, post });
  }
}

export const scheduleWatcher: Watcher = {
  kind: 'schedule',
  minIntervalMs: SCHEDULE_MIN_INTERVAL_MS,
  maxIntervalMs: SCHEDULE_MAX_INTERVAL_MS,
  // Posts settle over minutes: a calendar look can wait for looks at running jobs.
  deferrable: () => true,

  async check(ctx: WatchContext, watch: Watch): Promise<WatchResult> {
    const s = readScheduleState(watch.state);
    const pending = pendingOf(s);
    if (pending.length === 0) return { state: watch.state, done: true };
    // The window spans every pending time, and now: a post may go out late (the service renders first).
    const times = pending.map((p) => Date.parse(p.at));
    const startDate = dayKey(Math.min(...times) - DAY, 'UTC');
    const endDate = dayKey(Math.max(...times, ctx.now) + DAY, 'UTC');
    const entries = (await ctx.api.posts.calendar({ startDate, endDate }, { priority: 'background' })).filter(
      (e) => e.projectId === watch.target,
    );

    // Each post claims its own entry: two posts of one platform are never settled by one entry.
    const taken = new Set<string>();
    const matched = new Map<FollowedPost, CalendarEntry>();
    for (const p of pending) {
      const entry = entryFor(entries, p, taken);
      if (entry) {
        taken.add(entry.id);
        matched.set(p, entry);
      }
    }
    const settled: Settled[] = [];
    for (const p of pending) {
      const entry = matched.get(p);
      if (!entry)
        settled.push({ post: p, outcome: 'cancelled', entryId: `${p.platform}:${Date.parse(p.at)}` });
      else if (entry.status === 'posted' || entry.status === 'failed') {
        settled.push({ post: p, outcome: entry.status, entryId: entry.id });
      }
    }
    if (settled.length === 0)
      return { state: watch.state, done: false, nextCheckInMs: nextScheduleCheck(s, ctx.now) };

    const outcomes = new Map(settled.map((x) => [x.post, x.outcome]));
    const next: ScheduleWatchState = {
      ...s,
      posts: s.posts.map((p) => {
        const outcome = outcomes.get(p);
        return outcome ? { ...p, outcome } : p;
      }),
    };
    const done = pendingOf(next).length === 0;
    ctx.logger.debug(
      {
        videoId: watch.target,
        settled: settled.map((x) => ({ platform: x.post.platform, outcome: x.outcome })),
      },
      'scheduled posts settled',
    );
    return {
      state: next as unknown as Record<string, unknown>,
      done,
      nextCheckInMs: nextScheduleCheck(next, ctx.now),
      apply: (store) => sayOutcomes(store, { watch, next, settled, now: ctx.now }),
    };
  },

  async trouble({ store, watch, event }) {
    await videoCardTrouble({ store, watch, event }, { videoId: watch.target, what: '', seen: undefined });
  },
  async expire({ store, watch, reason }: WatchStop): Promise<void> {
    const s = readScheduleState(watch.state);
    const pending = pendingOf(s);
    if (pending.length === 0) return;
    const where = joinText(unique(pending.map((p) => p.platform)).map(nameOf), ', ');
    const due = md`**${literal(s.name)}** is due on ${where} at ${formatBoth(Date.parse(s.scheduledTime), s.zone)}`;
    const card: Card =
      reason === 'expired'
        ? {
            title: md`Still waiting on the service`,
            tone: 'warning',
            text: md`**${literal(s.name)}** was due on ${where} at ${formatBoth(Date.parse(s.scheduledTime), s.zone)}, and the service has not reported it posted or failed after 2 hours. I stopped watching; ${command('calendar')} shows its current status.`,
          }
        : {
            title: md`Stopped watching the schedule`,
            tone: 'warning',
            text: md`${due}. I stopped watching it: ${keyTrouble(reason)}. The post itself is not affected; ${command('calendar')} shows its status.`,
          };
    const dedupeKey = `schedule:${watch.id}:expired`;
    const notice =
      reason === 'expired'
        ? md`Stopped watching the schedule on ${where}; see ${command('calendar')}.`
        : md`Stopped watching the schedule on ${where}: ${keyTrouble(reason)}; see ${command('calendar')}.`;
    await updateVideoCard(store, watch.target, { patch: { notice }, dedupeKey: `${dedupeKey}:card` });
    if (!(await replyToVideo(store, watch.target, { card, dedupeKey: `${dedupeKey}:reply` })))
      await postToChannel(store, { conversation: watch.conversation, card, dedupeKey });
  },
};
