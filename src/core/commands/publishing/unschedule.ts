/**
 * `unschedule <video>` (DELETE /posts/{id}). A 409 means nothing is scheduled any more: the calendar is
 * re-read and the answer says what happened (already posted, failed, or never scheduled); it is never
 * retried blindly (spec §7).
 */
import { checkRole } from '../../approvals/roles.js';
import { withdrawScheduleRequests } from '../../approvals/withdraw.js';
import type { CommandContext } from '../../dispatch/context.js';
import { updateVideoCard } from '../../live/projections.js';
import { readScheduleState, stopScheduleWatch } from '../../live/schedule-watcher.js';
import { defineCommand } from '../../parse/command-spec.js';
import { platformName } from '../../platforms/post-blocks.js';
import { type Card, message } from '../../text/cards.js';
import { type CardText, command, hole, joinText, literal, md } from '../../text/text.js';
import { formatBoth } from '../../time/format.js';
import { dayKey } from '../../time/zone.js';
import { resolveVideo } from '../../video-api/references.js';
import { type CalendarEntry, VideoApiError } from '../../video-api/video-api.js';

const DAY = 24 * 3600_000;
/** The calendar window re-read after a 409: recent outcomes and anything still ahead. */
const LOOK_BACK_MS = 7 * DAY;
const LOOK_AHEAD_MS = 90 * DAY;

async function cancel(ctx: CommandContext, videoId: string): Promise<boolean> {
  try {
    const api = await ctx.api();
    return (await api.posts.cancel(videoId)).cancelled;
  } catch (error) {
    if (error instanceof VideoApiError && error.type === 'conflict') return false;
    throw error;
  }
}

/** After a 409: what the calendar says about this video, in words. */
async function explain(ctx: CommandContext, video: { id: string; name: string }): Promise<Card> {
  const now = ctx.now();
  const zone = await ctx.timeZone();
  const entries = (
    await (
      await ctx.api()
    ).posts.calendar({
      startDate: dayKey(now - LOOK_BACK_MS, 'UTC'),
      endDate: dayKey(now + LOOK_AHEAD_MS, 'UTC'),
    })
  )
    .filter((e) => e.projectId === video.id)
    .sort((a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime));
  const line = (e: CalendarEntry) =>
    md`${platformName(e.platform)} at ${formatBoth(Date.parse(e.scheduledTime), zone)}`;
  const posted = entries.filter((e) => e.status === 'posted');
  const failed = entries.filter((e) => e.status === 'failed');
  const still = entries.filter((e) => e.status === 'scheduled');
  const lines: CardText[] = [];
  if (posted.length > 0) lines.push(md`Already posted: ${joinText(posted.map(line), '; ')}.`);
  if (failed.length > 0)
    lines.push(
      md`Failed: ${joinText(failed.map(line), '; ')}. Use ${command('publish', [video.name, hole('platform')])} to post it now.`,
    );
  if (still.length > 0) {
    lines.push(
      md`The calendar still lists ${joinText(still.map(line), '; ')} as scheduled, but the service says nothing is left to cancel: it is probably going out right now. Check ${command('calendar')} in a minute.`,
    );
  }
  if (lines.length === 0)
    lines.push(
      md`Nothing is scheduled for **${literal(video.name)}**, and it has no recent posts on the calendar.`,
    );

  const store = ctx.deps.store;
  const watch = await ctx.deps.store.watches.findActive('schedule', video.id);
  await store.transaction(async () => {
    if (!watch) return;
    if (entries.length > 0) {
      // The schedule watch reports the outcome on the card (once); let it look now.
      await store.watches.update(watch.id, { nextCheckAt: now });
      return;
    }
    await stopScheduleWatch(store, video.id);
    await updateVideoCard(store, video.id, {
      patch: { schedule: undefined },
      dedupeKey: `unschedule:${watch.id}:nothing`,
    });
  });
  return {
    title: posted.length + failed.length > 0 ? md`Too late to cancel` : md`Nothing to cancel`,
    tone: 'info',
    text: md`**${literal(video.name)}**: ${joinText(lines, '\n')}`,
    context: md`id \`${literal(video.id)}\``,
  };
}

export const unscheduleCommand = defineCommand({
  name: 'unschedule',
  summary: "Cancel a video's scheduled posts",
  options: [
    {
      name: 'video',
      kind: 'video',
      description: 'Video name, id or `last`',
      positional: true,
      required: true,
    },
  ],
  examples: ['unschedule last', 'unschedule "Launch teaser"'],
  details: md`Cancels every platform still scheduled for the video. Posts already sent are not affected.`,
  async run(ctx, args) {
    await checkRole(ctx, 'publish');
    const video = await resolveVideo(ctx, args.video);
    const withdrawn = await withdrawScheduleRequests(ctx, video.id);
    const cancelled = await cancel(ctx, video.id);
    if (!cancelled && withdrawn > 0) {
      return message({
        title: md`Request withdrawn`,
        tone: 'success',
        text: md`Nothing of **${literal(video.name)}** was scheduled yet; its request waiting for approval is withdrawn, so it will not be scheduled.`,
        context: md`id \`${literal(video.id)}\``,
      });
    }
    if (!cancelled) return message(await explain(ctx, video));

    const store = ctx.deps.store;
    const watch = await ctx.deps.store.watches.findActive('schedule', video.id);
    const state = watch ? readScheduleState(watch.state) : undefined;
    const pendingPosts = state?.posts.filter((p) => p.outcome === undefined) ?? [];
    const pending = [...new Set(pendingPosts.map((p) => p.platform))];
    await store.transaction(async () => {
      await stopScheduleWatch(store, video.id);
      const by = ctx.req.userName ? md` by ${literal(ctx.req.userName)}` : md``;
      await updateVideoCard(store, video.id, {
        patch: { schedule: undefined, notice: md`Schedule cancelled${by}.` },
        dedupeKey: `unschedule:${video.id}:${watch?.id ?? ctx.now()}`,
      });
      await store.audit.record({
        at: ctx.now(),
        conversation: ctx.req.conversation,
        actor: ctx.req.user,
        action: 'video.unschedule',
        videoId: video.id,
        ...(pending.length > 0 ? { details: { platforms: pending } } : {}),
      });
    });
    await store.users.setLast(ctx.req.user, 'video', video.id);
    const zone = await ctx.timeZone();
    const what =
      pendingPosts.length > 0
        ? md` on ${joinText(
            pendingPosts.map((p) => md`${platformName(p.platform)} (${formatBoth(Date.parse(p.at), zone)})`),
            ', ',
          )}`
        : md``;
    return message({
      title: md`Unscheduled`,
      tone: 'success',
      text: md`Cancelled the scheduled posts of **${literal(video.name)}**${what}. Posts already sent are not affected.`,
      controls: [{ kind: 'button', action: 'video.schedule', value: video.id, label: 'Schedule again' }],
      context: md`id \`${literal(video.id)}\``,
    });
  },
});
