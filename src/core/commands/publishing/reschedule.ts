/**
 * `reschedule <video> [platform] <when>` (DELETE /posts/{id}, POST /posts/schedule): moves the video's
 * pending posts — on one platform, or on every platform that has one — to a new time. The service cancels
 * every pending post of a video at once, so the platforms not moved are scheduled again at their own times
 * (move-flow.ts); under `approval publish` the move asks one approval.
 */

import { userError } from '../../dispatch/context.js';
import { ok } from '../../dispatch/result.js';
import { defineCommand } from '../../parse/command-spec.js';
import { VIDEO_OPTION } from '../../parse/shared-options.js';
import { platformName } from '../../platforms/names.js';
import { isBest, proposeBestTime } from '../../publishing/best-time-proposal.js';
import { readPendingPosts } from '../../publishing/pending-posts.js';
import { getVideo, runSchedule } from '../../publishing/schedule-flow.js';
import { isNextSlot } from '../../publishing/slots-form.js';
import { code, command, md } from '../../text/text.js';
import { parseWhen } from '../../time/parse.js';
import { resolveVideo } from '../../video-api/references.js';

export const rescheduleCommand = defineCommand({
  name: 'reschedule',
  summary: "Move a video's scheduled posts to a new time",
  options: [
    VIDEO_OPTION,
    {
      name: 'platform',
      kind: 'platform',
      description: 'Only this platform (default: every platform scheduled)',
      positional: true,
    },
    {
      name: 'when',
      kind: 'when',
      description: 'New time (your zone): "friday 18:00", `next` or `best`',
      positional: true,
      rest: true,
      required: true,
    },
  ],
  examples: [
    'reschedule last tomorrow 11am',
    'reschedule "Launch teaser" x friday 18:00',
    'reschedule last next',
    'reschedule last best',
  ],
  details: md`Cancels the pending posts and schedules them again at the new time, read in your time zone (${command('tz')} sets it). The service cancels every platform of a video at once: the platforms not moved are scheduled again at their own times. Approval applies as for a schedule, once for the move. \`next\` moves each platform to its next free queue slot; ${code('best')} proposes the best hour of the week, as for ${command('schedule')}.`,
  async run(ctx, args) {
    // Read the time before anything else: a bad or past time is answered without a single API call.
    const best = isBest(args.when);
    const next = isNextSlot(args.when);
    const when = best
      ? undefined
      : next
        ? ok(0)
        : parseWhen(args.when, await ctx.timeZoneToRead(), ctx.now());
    if (when && !when.ok) throw when.error;
    const video = await resolveVideo(ctx, args.video);
    const pending = await readPendingPosts(ctx, video.id);
    const platforms = args.platform ? [args.platform] : [...new Set(pending.map((p) => p.platform))];
    if (!pending.some((p) => platforms.includes(p.platform))) {
      throw userError('reschedule-nothing', {
        name: video.name,
        where: args.platform ? platformName(args.platform) : '',
      });
    }
    if (!when) return proposeBestTime(ctx, { video: await getVideo(ctx, video.id), platforms, move: true });
    return runSchedule(ctx, {
      videoId: video.id,
      platforms,
      at: Math.floor(when.value / 1000) * 1000,
      choice: 'move',
      ...(next ? { next } : {}),
    });
  },
});
