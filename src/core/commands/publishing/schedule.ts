/**
 * `schedule <video> <platforms> <when…>` (POST /posts/schedule) and the card's "Schedule" button. The time
 * is read in the caller's zone and echoed in that zone and UTC; missing metadata opens its form first.
 */
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { newRequestId } from '../../dispatch/request-id.js';
import { ok } from '../../dispatch/result.js';
import { type ActionSpec, defineCommand, type FormSpec, type RawArgs } from '../../parse/command-spec.js';
import { VIDEO_OPTION } from '../../parse/shared-options.js';
import { parsePlatforms } from '../../parse/validate-args.js';
import { decodeVideoAction, encodeVideoAction } from '../../publishing/action-state.js';
import { isBest, proposeBestTime } from '../../publishing/best-time-proposal.js';
import { getVideo, runSchedule } from '../../publishing/schedule-flow.js';
import { isNextSlot, nextSlotInputs, SLOT_INPUT } from '../../publishing/slots-form.js';
import type { Form, FormInput, Response } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { type CardText, code, command, literal, md } from '../../text/text.js';
import { parseWhen } from '../../time/parse.js';
import { resolveVideo } from '../../video-api/references.js';
import { PLATFORMS, type Platform, type Video } from '../../video-api/video-api.js';

const FORM_ID = 'schedule.form';

/** Whole seconds: the instant travels in form state as seconds and names the idempotent action. */
const toSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;

async function scheduleForm(
  ctx: CommandContext,
  input: { video?: Video; videoRef?: string; platforms?: string; when?: string },
): Promise<Form> {
  const zone = await ctx.timeZoneToRead();
  const inputs: FormInput[] = [];
  if (!input.video) {
    inputs.push({
      kind: 'text',
      id: 'video',
      label: 'Video (name, id or "last")',
      required: true,
      ...(input.videoRef ? { initial: input.videoRef } : {}),
    });
  }
  const ready = input.video ? PLATFORMS.filter((p) => input.video?.posts[p] !== undefined) : [];
  const platforms = input.platforms ?? (ready.length > 0 ? ready.join(', ') : undefined);
  const slot = await nextSlotInputs(ctx, platforms);
  inputs.push(
    {
      kind: 'text',
      id: 'platforms',
      label: 'Platforms',
      required: true,
      placeholder: 'youtube, tiktok (or all)',
      hint: `Any of ${PLATFORMS.join(', ')}, comma-separated, or \`all\`. Missing post details are asked next.`,
      ...(platforms ? { initial: platforms } : {}),
    },
    ...slot,
    {
      kind: 'text',
      id: 'when',
      label: 'When',
      required: slot.length === 0,
      placeholder: 'tomorrow 9am',
      hint: `In your time zone, ${zone} (change it with ${command('tz')}). E.g. "friday 18:00", "2026-12-01 18:00", "in 2 hours", "best".`,
      ...(input.when ? { initial: input.when } : {}),
    },
  );
  const form: Form = {
    id: FORM_ID,
    title: 'Schedule a post',
    submitLabel: 'Schedule',
    // One user action per opened form: its request id keys the schedule, however often it is submitted.
    state: encodeVideoAction(input.video?.id ?? '', newRequestId()),
    inputs,
  };
  if (input.video) form.intro = md`Schedule **${literal(input.video.name)}**.`;
  return form;
}

export const scheduleCommand = defineCommand({
  name: 'schedule',
  summary: 'Schedule a video on one or more platforms at a time in your zone',
  options: [
    VIDEO_OPTION,
    {
      name: 'platforms',
      kind: 'platforms',
      description: 'Comma-separated platforms, or `all`',
      positional: true,
      required: true,
    },
    {
      name: 'when',
      kind: 'when',
      description: 'When (your zone): "friday 18:00", `next` or `best`',
      positional: true,
      rest: true,
      required: true,
    },
  ],
  examples: [
    'schedule last youtube tomorrow 9am',
    'schedule "Launch teaser" youtube,tiktok friday 18:00',
    'schedule last all 2026-12-01 18:00',
    'schedule last youtube,tiktok next',
    'schedule last youtube,tiktok best',
  ],
  details: md`The time is read in your time zone (${command('tz')} sets it) and shown back in your zone and UTC. Every platform needs its post details: a missing one opens its form first. The video is rendered before posting if needed. The video card shows each platform’s status and I reply in its thread when it posts. A platform the video is already scheduled on asks first: Move it (as ${command('reschedule')} does), Keep both, or Cancel. \`next\` puts each platform in its next free queue slot (${command('slots')} shows them); a post of the same account within 30 minutes, or more posts in a day than its daily cap, is warned before anything is sent. ${code('best')} proposes each platform's best hour of the week, from your own posts once 20 have views in the analytics, else a default, and says which; nothing is scheduled until you press its button.`,
  form: async (ctx: CommandContext, partial: RawArgs): Promise<Response> => {
    const ref = typeof partial.video === 'string' ? partial.video : undefined;
    const video = ref ? await getVideo(ctx, (await resolveVideo(ctx, ref)).id) : undefined;
    const last = await ctx.deps.store.users.getLast(ctx.req.user, 'video');
    const platforms = Array.isArray(partial.platforms) ? partial.platforms.join(', ') : partial.platforms;
    return {
      kind: 'form',
      form: await scheduleForm(ctx, {
        ...(video ? { video } : last ? { videoRef: 'last' } : {}),
        ...(typeof platforms === 'string' ? { platforms } : {}),
        ...(typeof partial.when === 'string' ? { when: partial.when } : {}),
      }),
    };
  },
  async run(ctx, args) {
    if (isBest(args.when)) {
      const video = await getVideo(ctx, (await resolveVideo(ctx, args.video)).id);
      return proposeBestTime(ctx, { video, platforms: args.platforms, move: false });
    }
    if (isNextSlot(args.when)) {
      const video = await resolveVideo(ctx, args.video);
      return runSchedule(ctx, { videoId: video.id, platforms: args.platforms, at: 0, next: true });
    }
    // Read the time before anything else: a bad or past time is answered without a single API call.
    const when = parseWhen(args.when, await ctx.timeZoneToRead(), ctx.now());
    if (!when.ok) throw when.error;
    const video = await resolveVideo(ctx, args.video);
    return runSchedule(ctx, {
      videoId: video.id,
      platforms: args.platforms,
      at: toSecond(when.value),
    });
  },
});

/** The card's "Schedule" button. Value: the video id. */
export const scheduleButton: ActionSpec = {
  action: 'video.schedule',
  async run(ctx, value) {
    await checkRole(ctx, 'publish');
    const video = await getVideo(ctx, value);
    if (video.status === 'failed') throw userError('schedule-video-failed', { name: video.name });
    return { kind: 'form', form: await scheduleForm(ctx, { video }) };
  },
};

export const scheduleFormSpec: FormSpec = {
  id: FORM_ID,
  async submit(ctx, state, values) {
    const decoded = decodeVideoAction(state);
    if (!decoded) throw userError('interaction-expired');
    const errors: Record<string, CardText> = {};
    const platforms = parsePlatforms(values.platforms ?? '');
    if (!platforms.ok) errors.platforms = say(platforms.error.code, platforms.error.params);
    // A time typed below the slot choice wins over it; `next` typed there is the slot too.
    const typed = (values.when ?? '').trim();
    const best = isBest(typed);
    const next = isNextSlot(typed) || (values[SLOT_INPUT] === 'next' && typed === '');
    const when = best ? undefined : next ? ok(0) : parseWhen(typed, await ctx.timeZoneToRead(), ctx.now());
    if (when && !when.ok) errors.when = say(when.error.code, when.error.params);
    let videoId = decoded.videoId;
    if (!videoId) {
      try {
        if ((values.video ?? '').trim() === '')
          throw userError('missing-arg', { command: 'schedule', option: 'video' });
        videoId = (await resolveVideo(ctx, values.video ?? '')).id;
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        errors.video = say(error.code, error.params);
      }
    }
    if (Object.keys(errors).length > 0 || !platforms.ok || (when && !when.ok)) {
      return { kind: 'form-errors', errors };
    }
    if (!when) {
      const video = await getVideo(ctx, videoId);
      return proposeBestTime(ctx, { video, platforms: platforms.value as Platform[], move: false });
    }
    return runSchedule(ctx, {
      videoId,
      platforms: platforms.value as Platform[],
      at: toSecond(when.value),
      ...(next ? { next } : {}),
      ...(decoded.requestId ? { requestId: decoded.requestId } : {}),
    });
  },
};
