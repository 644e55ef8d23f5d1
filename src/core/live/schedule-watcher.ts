/**
 * The `schedule` watch: follows one video's scheduled posts in one conversation until every platform is
 * posted or failed. It reads GET /calendar around the scheduled day; far from the due time it looks rarely
 * (at most every 30 min, and right at the due time), then every 15–60 s until each platform settles. Each
 * settlement edits the video card and says "Posted to X" / "Failed on Y" once in the card's thread (the
 * outbox dedupe key names the calendar entry and its status). Channel subscribers to `calendar` are told by
 * the feed watcher, not here.
 */

import type { Card } from '../cards.js';
import { platformName } from '../platforms/names.js';
import type { ConversationAddress, Store, UserAddress, Watch } from '../ports.js';
import { command, literal } from '../text.js';
import { formatBoth, formatDateTime } from '../time/format.js';
import { dayKey } from '../time/zone.js';
import type { CalendarEntry } from '../video-api.js';
import { postToChannel } from './live-card.js';
import { videoCardTrouble } from './look-trouble.js';
import { replyToVideo, updateVideoCard } from './projections.js';
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

/** What a schedule watch remembers. */
export interface ScheduleWatchState {
  /** Every platform followed, in the order asked. */
  platforms: string[];
  /** The latest scheduled instant (ISO). */
  scheduledTime: string;
  /** Scheduled instant (ISO) per platform: two schedules of one video may differ. */
  times: Record<string, string>;
  /** The zone times are shown in (the scheduler's). */
  zone: string;
  name: string;
  /** Settled platforms. */
  outcomes: Record<string, PlatformOutcome>;
}

export function readScheduleState(raw: Record<string, unknown>): ScheduleWatchState {
  const platforms = Array.isArray(raw.platforms)
    ? raw.platforms.filter((p): p is string => typeof p === 'string')
    : [];
  const scheduledTime = typeof raw.scheduledTime === 'string' ? raw.scheduledTime : new Date(0).toISOString();
  const times: Record<string, string> = {};
  const rawTimes = (raw.times ?? {}) as Record<string, unknown>;
  for (const p of platforms)
    times[p] = typeof rawTimes[p] === 'string' ? (rawTimes[p] as string) : scheduledTime;
  const outcomes: Record<string, PlatformOutcome> = {};
  for (const [p, o] of Object.entries((raw.outcomes ?? {}) as Record<string, unknown>)) {
    if (o === 'posted' || o === 'failed' || o === 'cancelled') outcomes[p] = o;
  }
  return {
    platforms,
    scheduledTime,
    times,
    zone: typeof raw.zone === 'string' ? raw.zone : 'UTC',
    name: typeof raw.name === 'string' ? raw.name : '',
    outcomes,
  };
}

/** The card's `schedule` part: one time (zone and UTC) or, when platforms differ, each time with its platforms. */
export function scheduleCardPart(s: ScheduleWatchState): NonNullable<VideoCardModel['schedule']> {
  const byTime = new Map<string, string[]>();
  for (const p of s.platforms) {
    const t = s.times[p] ?? s.scheduledTime;
    byTime.set(t, [...(byTime.get(t) ?? []), p]);
  }
  const statuses: Record<string, string> = { ...s.outcomes };
  const entries = [...byTime.entries()].sort(([a], [b]) => Date.parse(a) - Date.parse(b));
  if (entries.length === 1) {
    const at = Date.parse((entries[0] as [string, string[]])[0]);
    const local = formatDateTime(at, s.zone);
    return {
      platforms: s.platforms,
      at: local,
      zone: formatBoth(at, s.zone).slice(local.length + 1),
      statuses,
    };
  }
  const at = entries
    .map(([t, ps]) => `${formatDateTime(Date.parse(t), s.zone)} (${ps.join(', ')})`)
    .join('; ');
  return { platforms: s.platforms, at, zone: s.zone, statuses };
}

const pendingOf = (s: ScheduleWatchState): string[] => s.platforms.filter((p) => s.outcomes[p] === undefined);
const latest = (s: ScheduleWatchState): number =>
  Math.max(...s.platforms.map((p) => Date.parse(s.times[p] ?? s.scheduledTime)));

/** When to look next: rarely while far from due (and exactly at due), then often until settled. */
export function nextScheduleCheck(s: ScheduleWatchState, now: number): number {
  const pending = pendingOf(s);
  if (pending.length === 0) return SCHEDULE_MAX_INTERVAL_MS;
  const due = Math.min(...pending.map((p) => Date.parse(s.times[p] ?? s.scheduledTime)));
  if (now < due) return Math.max(SCHEDULE_MIN_INTERVAL_MS, Math.min(SCHEDULE_MAX_INTERVAL_MS, due - now));
  return now - due < DUE_FAST_WINDOW_MS ? DUE_FAST_MS : DUE_SLOW_MS;
}

/**
 * Starts following a schedule, or folds it into the video's watch in this conversation (a second schedule
 * for other platforms adds to it; a platform scheduled again starts over). Call inside the transaction that
 * records the schedule.
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
  },
): Promise<{ watch: Watch; state: ScheduleWatchState }> {
  // One schedule watch per video, whichever conversation scheduled which platform.
  const existing = await store.watches.findActive('schedule', input.videoId);
  const previous = existing ? readScheduleState(existing.state) : undefined;
  const iso = new Date(input.at).toISOString();
  const times = { ...(previous?.times ?? {}) };
  const outcomes = { ...(previous?.outcomes ?? {}) };
  for (const p of input.platforms) {
    times[p] = iso;
    delete outcomes[p];
  }
  // Platforms that already settled are dropped from a merged schedule: the card shows the new one.
  const kept = (previous?.platforms ?? []).filter(
    (p) => outcomes[p] === undefined && !input.platforms.includes(p),
  );
  const platforms = [...kept, ...input.platforms];
  const state: ScheduleWatchState = {
    platforms,
    times: Object.fromEntries(platforms.map((p) => [p, times[p] ?? iso])),
    scheduledTime: '',
    zone: input.zone,
    name: input.name,
    outcomes: Object.fromEntries(
      platforms.filter((p) => outcomes[p]).map((p) => [p, outcomes[p] as PlatformOutcome]),
    ),
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

const nameOf = (p: string): string => literal(platformName(p));

function outcomeCard(s: ScheduleWatchState, platform: string, outcome: 'posted' | 'failed'): Card {
  return outcome === 'posted'
    ? {
        title: `Posted to ${nameOf(platform)}`,
        tone: 'success',
        text: `**${literal(s.name)}** went out on ${nameOf(platform)}.`,
      }
    : {
        title: `Failed on ${nameOf(platform)}`,
        tone: 'danger',
        text:
          `**${literal(s.name)}** could not be posted to ${nameOf(platform)}. Check the account connection in the dashboard, ` +
          `then ${command('publish', [s.name, platform])} to post it now.`,
      };
}

/**
 * The calendar entry of a platform at our time (within a minute, should the service round it). An older
 * entry of the same platform (last week's post) never answers for this one.
 */
function entryFor(entries: CalendarEntry[], platform: string, at: number): CalendarEntry | undefined {
  return entries
    .filter((e) => e.platform === platform && Math.abs(Date.parse(e.scheduledTime) - at) < 60_000)
    .sort(
      (a, b) => Math.abs(Date.parse(a.scheduledTime) - at) - Math.abs(Date.parse(b.scheduledTime) - at),
    )[0];
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
    const times = pending.map((p) => Date.parse(s.times[p] ?? s.scheduledTime));
    const startDate = dayKey(Math.min(...times) - DAY, 'UTC');
    const endDate = dayKey(Math.max(...times, ctx.now) + DAY, 'UTC');
    const entries = (await ctx.api.posts.calendar({ startDate, endDate }, { priority: 'background' })).filter(
      (e) => e.projectId === watch.target,
    );

    const settled: { platform: string; outcome: PlatformOutcome; entryId: string }[] = [];
    for (const p of pending) {
      const at = Date.parse(s.times[p] ?? s.scheduledTime);
      const entry = entryFor(entries, p, at);
      if (!entry) settled.push({ platform: p, outcome: 'cancelled', entryId: `${p}:${at}` });
      else if (entry.status === 'posted' || entry.status === 'failed') {
        settled.push({ platform: p, outcome: entry.status, entryId: entry.id });
      }
    }
    if (settled.length === 0)
      return { state: watch.state, done: false, nextCheckInMs: nextScheduleCheck(s, ctx.now) };

    const next: ScheduleWatchState = { ...s, outcomes: { ...s.outcomes } };
    for (const x of settled) next.outcomes[x.platform] = x.outcome;
    const done = pendingOf(next).length === 0;
    ctx.logger.debug({ videoId: watch.target, settled }, 'scheduled posts settled');
    return {
      state: next as unknown as Record<string, unknown>,
      done,
      nextCheckInMs: nextScheduleCheck(next, ctx.now),
      async apply(store) {
        const stamp = settled.map((x) => `${x.platform}=${x.outcome}`).join(',');
        if (watch.cardKey) {
          await updateVideoCard(store, watch.cardKey, {
            patch: { schedule: scheduleCardPart(next) },
            dedupeKey: `schedule:${watch.id}:${stamp}`,
          });
        }
        for (const x of settled) {
          if (x.outcome === 'cancelled') continue;
          const card = outcomeCard(next, x.platform, x.outcome);
          const dedupeKey = `schedule:${watch.target}:${x.entryId}:${x.outcome}`;
          // Said in every conversation showing the video, in its thread there; else where it was scheduled.
          if (!(await replyToVideo(store, watch.target, { card, dedupeKey })))
            await postToChannel(store, { conversation: watch.conversation, card, dedupeKey });
        }
      },
    };
  },

  async trouble({ store, watch, event }) {
    await videoCardTrouble({ store, watch, event }, { videoId: watch.target, what: '', seen: undefined });
  },
  async expire({ store, watch, reason }: WatchStop): Promise<void> {
    const s = readScheduleState(watch.state);
    const pending = pendingOf(s);
    if (pending.length === 0) return;
    const where = pending.map(nameOf).join(', ');
    const due = `**${literal(s.name)}** is due on ${where} at ${formatBoth(Date.parse(s.scheduledTime), s.zone)}`;
    const card: Card =
      reason === 'expired'
        ? {
            title: 'Still waiting on the service',
            tone: 'warning',
            text:
              `**${literal(s.name)}** was due on ${where} at ${formatBoth(Date.parse(s.scheduledTime), s.zone)}, ` +
              `and the service has not reported it posted or failed after 2 hours. I stopped watching; ${command('calendar')} shows its current status.`,
          }
        : {
            title: 'Stopped watching the schedule',
            tone: 'warning',
            text: `${due}. I stopped watching it: ${keyTrouble(reason)}. The post itself is not affected; ${command('calendar')} shows its status.`,
          };
    const dedupeKey = `schedule:${watch.id}:expired`;
    const notice =
      reason === 'expired'
        ? `Stopped watching the schedule on ${where}; see ${command('calendar')}.`
        : `Stopped watching the schedule on ${where}: ${keyTrouble(reason)}; see ${command('calendar')}.`;
    await updateVideoCard(store, watch.target, { patch: { notice }, dedupeKey: `${dedupeKey}:card` });
    if (!(await replyToVideo(store, watch.target, { card, dedupeKey: `${dedupeKey}:reply` })))
      await postToChannel(store, { conversation: watch.conversation, card, dedupeKey });
  },
};
