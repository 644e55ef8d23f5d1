/**
 * `subscribe digest daily|weekly` as a `digest` watch: one per conversation and kind, waking every day at the
 * digest's time in its zone (digest-schedule.ts). At a wake on which the digest is due it builds the message
 * and, in the poller's transaction, claims the period's store row (`store.digests.claim`) and enqueues the
 * message with a dedupe key naming the period: a period goes out once, whatever restarts, retries or replicas
 * do, because the row's primary key refuses the second claim and the poller's fencing refuses a commit under a
 * lapsed lease.
 *
 * Late: a wake found at its time, or later within its period (a restart), is sent then. When the bot was down
 * longer than a period, the periods already past are not sent late; the next digest opens with one line
 * naming them ("missed").
 */
import { postToChannel } from '../live/live-card.js';
import type { WatchContext, Watcher, WatchResult, WatchStop } from '../live/watcher.js';
import { keyTrouble } from '../live/watcher.js';
import type { Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { command, hole, joinText, literal, md } from '../text/text.js';
import { formatDayLabel } from '../time/format.js';
import { dailyDigest } from './daily-digest.js';
import { scoped } from './digest-reads.js';
import {
  type DigestSchedule,
  describeDigest,
  isDue,
  nextWake,
  parseDigestTarget,
  periodOf,
  scheduleOf,
  wakesBetween,
} from './digest-schedule.js';
import { type ViewReadings, WEEK_DAYS, weeklyDigest } from './weekly-digest.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** How far back missed periods are named: beyond five weeks the line only says "and earlier". */
const MISSED_HORIZON_MS = 35 * DAY;
/** Daily readings of total views kept: two weeks cover a weekly digest's eight. */
const READINGS_KEPT = 2 * WEEK_DAYS;
const background = { priority: 'background' } as const;

/** What a digest watch remembers: its next wake and, for a weekly one, the daily readings of total views. */
export interface DigestState {
  next: number;
  readings?: ViewReadings;
}

const readState = (state: Record<string, unknown>): DigestState => ({
  next: typeof state.next === 'number' ? state.next : 0,
  readings: (state.readings as ViewReadings | undefined) ?? {},
});

/** The watch's first state: it wakes at the schedule's next time. */
export const firstDigestState = (schedule: DigestSchedule, now: number): DigestState => ({
  next: nextWake(schedule, now),
  readings: {},
});

export const digestWatcher: Watcher = {
  kind: 'digest',
  minIntervalMs: MINUTE,
  // A day, plus a daylight-saving hour.
  maxIntervalMs: DAY + 60 * MINUTE,

  async check(ctx: WatchContext, watch: Watch): Promise<WatchResult> {
    const target = parseDigestTarget(watch.target);
    const row =
      target &&
      (await ctx.store.subscriptions.list(target.conversation)).find(
        (s) => s.kind === 'digest' && s.target === target.kind,
      );
    const schedule = row && scheduleOf(row);
    // Unsubscribed meanwhile (or a malformed row): stop quietly.
    if (!target || !schedule) return { state: watch.state, done: true };
    const state = readState(watch.state);
    if (ctx.now < state.next) return { state: watch.state, done: false, nextCheckInMs: state.next - ctx.now };

    const wakes = wakesBetween(schedule, Math.max(state.next, ctx.now - MISSED_HORIZON_MS), ctx.now);
    const wake = wakes.at(-1) ?? state.next;
    const dues = wakes.filter((w) => isDue(schedule, w));
    const due = dues.at(-1);
    const readings = { ...state.readings };
    const analytics =
      schedule.kind === 'weekly'
        ? await scoped(() => ctx.api.analytics.get({ range: 7 }, background))
        : undefined;
    if (analytics) readings[periodOf(schedule, wake)] = analytics.totalViews;
    const next = nextWake(schedule, ctx.now);
    const result = {
      state: { next, readings: recent(readings) } as unknown as Record<string, unknown>,
      done: false,
      nextCheckInMs: next - ctx.now,
    };
    if (due === undefined) return result;

    const period = periodOf(schedule, due);
    const input = { api: ctx.api, store: ctx.store, conversation: target.conversation, schedule, period };
    const card =
      schedule.kind === 'daily'
        ? await dailyDigest(input)
        : await weeklyDigest({ ...input, analytics, readings: recent(readings), now: ctx.now });
    const sent = withMissed(card, schedule, {
      missed: dues.slice(0, -1).map((w) => periodOf(schedule, w)),
      earlier: state.next < ctx.now - MISSED_HORIZON_MS,
    });
    return {
      ...result,
      async apply(store) {
        const claimed = await store.digests.claim({
          conversation: target.conversation,
          kind: schedule.kind,
          period,
        });
        if (!claimed) return;
        await postToChannel(store, {
          conversation: target.conversation,
          card: sent,
          dedupeKey: `digest:${schedule.kind}:${target.conversation}:${period}`,
        });
      },
    };
  },

  async expire({ store, watch, reason }: WatchStop): Promise<void> {
    const target = parseDigestTarget(watch.target);
    if (!target) return;
    const row = (await store.subscriptions.list(target.conversation)).find(
      (s) => s.kind === 'digest' && s.target === target.kind,
    );
    await store.subscriptions.remove(target.conversation, 'digest', target.kind);
    const schedule = row && scheduleOf(row);
    const what = schedule ? describeDigest(schedule) : md`The ${literal(target.kind)} digest`;
    const again = command(
      'subscribe',
      target.kind === 'daily'
        ? ['digest', 'daily', hole('time')]
        : ['digest', 'weekly', hole('day'), hole('time')],
    );
    const card: Card = {
      title: md`Digest stopped`,
      tone: 'warning',
      text:
        reason === 'expired'
          ? md`${what} has ended here. Run ${again} to start it again.`
          : md`${what} stopped here: ${keyTrouble(reason, md`sent it here`)}. Run ${again} to start it with yours.`,
    };
    await postToChannel(store, {
      conversation: target.conversation,
      card,
      dedupeKey: `digest:${target.kind}:${target.conversation}:stopped:${watch.id}`,
    });
  },
};

/** The newest readings only. */
function recent(readings: ViewReadings): ViewReadings {
  const days = Object.keys(readings).sort().slice(-READINGS_KEPT);
  return Object.fromEntries(days.map((d) => [d, readings[d] as number]));
}

/** The digest with one line first naming the periods that passed while the bot was down, if any. */
function withMissed(
  card: Card,
  schedule: DigestSchedule,
  { missed, earlier }: { missed: string[]; earlier: boolean },
): Card {
  if (missed.length === 0 && !earlier) return card;
  const days = joinText(
    missed.map((d) => literal(formatDayLabel(d))),
    ', ',
  );
  const which = schedule.kind === 'daily' ? md`daily digests` : md`weekly digests`;
  const when = missed.length === 0 ? md`more than five weeks back` : earlier ? md`${days} and earlier` : days;
  const line = md`⚠️ Missed while the bot was down: the ${which} of ${when} (not sent late).`;
  return { ...card, text: card.text ? md`${line}\n\n${card.text}` : line };
}
