/**
 * The queue in the schedule flow (DESIGN §10): `schedule … next` puts each platform in its next free slot, and a
 * schedule at a given time that clashes (a post of the same account within 30 minutes) or goes over a daily cap
 * is stopped by a warning — "Use the next free slot", "Schedule anyway", "Cancel" — so nothing is scheduled
 * until the member chooses (commands/publishing/schedule-slots.ts answers the buttons).
 *
 * `runSchedule` (schedule-flow.ts) calls in here with itself as `run`: a platform group is scheduled by the one
 * flow every schedule takes (post details, Move / Keep both, approval).
 */
import type { CommandContext } from '../dispatch/context.js';
import { newRequestId } from '../dispatch/request-id.js';
import { PLATFORM_NAMES } from '../platforms/names.js';
import { type Card, type Control, message, type Response } from '../text/cards.js';
import { type CardText, command, joinText, literal, md } from '../text/text.js';
import { formatBoth, formatDay } from '../time/format.js';
import type { Platform, Video } from '../video-api/video-api.js';
import { encodeSchedule, type PendingSchedule } from './action-state.js';
import { CLASH_WINDOW_MS, type Conflict, SLOTS_EXAMPLE, slotLabel } from './slots.js';
import { conflictsOf, nextSlots, queueHere } from './slots-queue.js';

type Run = (ctx: CommandContext, pending: PendingSchedule) => Promise<Response>;

/** The buttons of the clash and daily-cap warning. */
export const SLOT_CHOICE = {
  next: 'schedule.next-slot',
  anyway: 'schedule.anyway',
  cancel: 'schedule.clash-cancel',
} as const;

/**
 * `schedule … next`, its post details present: each platform's next free slot, read now; platforms sharing a
 * slot go out as one schedule, others each as their own.
 */
export async function scheduleInSlots(
  ctx: CommandContext,
  pending: PendingSchedule,
  run: Run,
): Promise<Response> {
  const slots = await nextSlots(ctx, { platforms: pending.platforms, videoId: pending.videoId });
  const groups = new Map<number, Platform[]>();
  for (const [platform, at] of slots) groups.set(at, [...(groups.get(at) ?? []), platform]);
  const cards: Card[] = [];
  let visibility: 'ephemeral' | 'channel' = 'ephemeral';
  for (const [at, platforms] of [...groups].sort((a, b) => a[0] - b[0])) {
    // A free slot clashes with nothing: the group is sent as it is, checked for approval as usual.
    const response = await run(ctx, { ...pending, platforms, at, next: false, confirmed: true });
    if (response.kind !== 'message' || groups.size === 1) return response;
    cards.push(response.card, ...(response.more ?? []));
    if (response.visibility === 'channel') visibility = 'channel';
  }
  const [first, ...more] = cards;
  if (!first) throw new Error('no platform to schedule');
  return { kind: 'message', visibility, card: first, ...(more.length > 0 ? { more } : {}) };
}

/** The warning a schedule at `pending.at` gets, or undefined when it clashes with nothing and fits every cap. */
export async function slotWarning(
  ctx: CommandContext,
  video: Video,
  pending: PendingSchedule,
): Promise<Response | undefined> {
  const conflicts = await conflictsOf(ctx, pending);
  if (conflicts.length === 0) return undefined;
  const zone = await ctx.timeZone();
  const queue = await queueHere(ctx);
  const asked = { ...pending, requestId: pending.requestId ?? newRequestId() };
  const value = encodeSchedule(asked);
  const inSlots = pending.platforms.every((p) => queue.slots[p] !== undefined);
  const nexts = conflicts.map((c) => c.next).filter((t): t is number => t !== undefined);
  const controls: Control[] = [];
  if (inSlots && nexts.length > 0) {
    const label = `Use the next free slot (${slotLabel(Math.min(...nexts), zone)})`;
    controls.push({ kind: 'button', action: SLOT_CHOICE.next, value, label, style: 'primary' });
  }
  controls.push(
    {
      kind: 'button',
      action: SLOT_CHOICE.anyway,
      value,
      label: `Schedule anyway (${slotLabel(pending.at, zone)})`,
    },
    { kind: 'button', action: SLOT_CHOICE.cancel, value, label: 'Cancel' },
  );
  const clash = conflicts.some((c) => c.conflict.kind === 'clash');
  const unset = pending.platforms.find((p) => queue.slots[p] === undefined);
  return message({
    title: clash ? md`Clash: check the time` : md`Over the daily cap`,
    tone: 'warning',
    text: joinText(
      [
        md`**${literal(video.name)}** at **${formatBoth(pending.at, zone)}**:`,
        ...conflicts.map((c) => conflictLine(c.platform, c.conflict, zone)),
        md`Nothing is scheduled until you choose.`,
      ],
      '\n',
    ),
    ...(unset
      ? {
          context: md`${literal(PLATFORM_NAMES[unset] ?? unset)} has no queue slots, so no next free slot is offered: an admin sets them with ${command('settings', ['slots', unset, SLOTS_EXAMPLE])}.`,
        }
      : {}),
    controls,
  });
}

function conflictLine(platform: Platform, c: Conflict, zone: string): CardText {
  const name = literal(PLATFORM_NAMES[platform] ?? platform);
  if (c.kind === 'clash')
    return md`• ${name} already has a post of the same account at ${formatBoth(c.at, zone)}, within ${CLASH_WINDOW_MS / 60_000} minutes of this one.`;
  return md`• ${name} already has ${c.count} post${c.count === 1 ? md`` : md`s`} on ${formatDay(c.day)}: its daily cap is ${c.cap} (${command('settings', ['daily-cap', platform, String(c.cap)])}).`;
}
