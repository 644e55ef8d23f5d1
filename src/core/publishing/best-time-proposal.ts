/**
 * The answer to `schedule <video> <platforms> best` and `reschedule <video> [platform] best`: each platform's
 * best time (best-time.ts) as a proposal, saying what it came from, with a button that schedules (or moves)
 * at that time through the usual path — metadata forms, Move / Keep both, approval. Nothing is sent before
 * the click. Platforms proposed the same instant share one button.
 *
 * The hour of the week is read in the conversation's zone (`settings timezone`), else the caller's: the
 * audience's clock, which the history is bucketed in; the times are shown in the caller's zone and UTC.
 */
import { checkRole } from '../approvals/roles.js';
import { type CommandContext, userError } from '../dispatch/context.js';
import { newRequestId } from '../dispatch/request-id.js';
import { PLATFORM_NAMES, platformName } from '../platforms/names.js';
import { type Card, type Control, message, type Response } from '../text/cards.js';
import { type CardText, joinText, literal, md } from '../text/text.js';
import { formatBoth, formatShortDateTime } from '../time/format.js';
import type { Platform, Video } from '../video-api/video-api.js';
import { encodeSchedule, type PendingSchedule } from './action-state.js';
import { type BestHour, bestHour, HISTORY_MINIMUM, nextOccurrence } from './best-time.js';
import { readPostHistory } from './best-time-history.js';

/** The button that schedules (or moves) one group of platforms at its proposed time. */
export const SCHEDULE_BEST_ACTION = 'schedule.best';

/** Whether a schedule's time is the keyword `best` rather than a time. */
export const isBest = (when: string): boolean => when.trim().toLowerCase() === 'best';

const WEEKDAYS = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];

/**
 * A button value: the schedule (action-state.ts) and a flag per letter — `m` a Move (reschedule), `o` the
 * only button of its card (the click's answer then replaces the card).
 */
export function encodeBestChoice(p: PendingSchedule & { requestId: string }, flags: string): string {
  return `${encodeSchedule(p)}|${flags}`;
}

interface Proposal {
  platform: Platform;
  best: BestHour;
  at: number;
}

/** The proposal card for `platforms` of `video`; `move`: a reschedule of its pending posts. */
export async function proposeBestTime(
  ctx: CommandContext,
  q: { video: Video; platforms: readonly Platform[]; move: boolean },
): Promise<Response> {
  // What the button's schedule would refuse is refused now, before a proposal nobody can act on.
  await checkRole(ctx, 'publish');
  if (q.video.status === 'failed') throw userError('schedule-video-failed', { name: q.video.name });
  const audience =
    (await ctx.deps.store.settings.get(ctx.req.conversation)).timeZone ?? (await ctx.timeZoneToRead());
  const zone = await ctx.timeZone();
  const now = ctx.now();
  const proposals: Proposal[] = [];
  for (const platform of q.platforms) {
    const best = bestHour(platform, await readPostHistory(ctx, platform), audience);
    proposals.push({ platform, best, at: nextOccurrence(best, audience, now) });
  }
  const groups = [...new Set(proposals.map((p) => p.at))]
    .sort((a, b) => a - b)
    .map((at) => ({ at, platforms: proposals.filter((p) => p.at === at).map((p) => p.platform) }));
  const controls: Control[] = groups.map((g, i) => {
    const flags = `${q.move ? 'm' : ''}${groups.length === 1 ? 'o' : ''}`;
    const when = formatShortDateTime(g.at, zone);
    const verb = q.move ? 'Move' : 'Schedule';
    const to = q.move ? 'to' : 'at';
    return {
      kind: 'button',
      action: SCHEDULE_BEST_ACTION,
      value: encodeBestChoice(
        { videoId: q.video.id, platforms: g.platforms, at: g.at, requestId: newRequestId() },
        flags,
      ),
      label:
        groups.length === 1
          ? `${verb} ${to} ${when}`
          : `${verb} ${g.platforms.map((p) => PLATFORM_NAMES[p] ?? p).join(', ')} ${to} ${when}`,
      ...(i === 0 ? { style: 'primary' as const } : {}),
    };
  });
  const card: Card = {
    title: md`Best time for ${literal(q.video.name)}`,
    tone: 'info',
    text: joinText(
      proposals.map((p) => md`**${platformName(p.platform)}**: ${formatBoth(p.at, zone)}, ${basisText(p)}.`),
      '\n',
    ),
    context: md`Hours of the week are read in ${literal(audience)}. Nothing is ${q.move ? md`moved` : md`scheduled`} until you press the button; approval applies as usual.`,
    controls,
  };
  return message(card);
}

function basisText({ platform, best }: Proposal): CardText {
  const name = platformName(platform);
  const hour = md`${literal(WEEKDAYS[best.weekday - 1] ?? '')} at ${literal(`${String(best.hour).padStart(2, '0')}:00`)}`;
  const { basis } = best;
  if (basis.kind === 'history') {
    return md`from your ${basis.posts} ${name} posts: ${hour} drew ${literal(basis.averageViews.toLocaleString('en-US'))} views on average`;
  }
  const why = {
    'not-covered': md`your analytics do not report on ${name}`,
    'no-views': md`your analytics give no views per ${name} post to learn from`,
    'few-posts': md`your own history counts once ${HISTORY_MINIMUM} ${name} posts have views in your analytics; ${basis.posts} so far`,
  }[basis.reason];
  return md`a default for ${name}: ${hour} (${why})`;
}
