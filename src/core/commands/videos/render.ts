/**
 * `render <video> [--codec h264|vp8]` and the Render button: checks that generation completed, starts the
 * render (free) with one idempotency key per user action, and watches it on the video's status card in
 * this channel, which ends with the MP4 link.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { actionKey, clickKey } from '../../dispatch/request-id.js';
import { videoState } from '../../live/projections.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { VIDEO_REST_OPTION } from '../../parse/shared-options.js';
import { message, type Response } from '../../text/cards.js';
import { literal, md } from '../../text/text.js';
import { resolveVideo } from '../../video-api/references.js';
import { CODECS, type Codec } from '../../video-api/video-api.js';
import { modelFromVideo } from '../../videos/card-model.js';
import { trackRender } from '../../videos/tracking.js';

/**
 * Starts a render of `videoId`, `typed` (the command) or clicked (the card's button). A click's idempotency
 * key names the card's last render id, so "Render again" after a finished or failed render is a new action
 * while a double click (same card state) replays the first request. A typed command's key is the command
 * alone: typed again within the retry window (its answer was lost, and meanwhile the render may have
 * finished) it is the same action, answered "Already done" with a Render again button (typed-replay.ts).
 */
export async function startRender(
  ctx: CommandContext,
  { videoId, codec, origin }: { videoId: string; codec: Codec; origin: 'typed' | 'click' },
): Promise<Response> {
  const store = ctx.deps.store;
  const conversation = ctx.req.conversation;
  const current = await videoState(store, videoId);
  const currentRender = current?.render;
  if (
    currentRender?.status === 'in-progress' &&
    (await store.watches.findActive('render', currentRender.renderId))
  ) {
    return message({
      title: md`Already rendering “${literal(current?.name ?? videoId)}”`,
      tone: 'progress',
      text: md`${Math.round(currentRender.progress * 100)}% done. The MP4 link appears on its live card.`,
    });
  }

  const api = await ctx.api();
  const status = await api.videos.status(videoId);
  const video = await api.videos.get(videoId);
  if (status.status === 'failed') throw userError('render-of-failed', { name: video.name, id: videoId });
  if (status.status !== 'completed') {
    throw userError('render-not-ready', {
      name: video.name,
      id: videoId,
      status: status.status,
      percent: status.percentCompleted,
    });
  }
  const after = currentRender?.renderId || 'none';
  const idempotencyKey =
    origin === 'typed'
      ? await actionKey(ctx, { action: 'render', payload: { videoId, codec } })
      : await clickKey(ctx, 'video.render', `${videoId}:${codec}:after:${after}`);
  const started = await api.videos.render(videoId, { codec }, { idempotencyKey });
  const model = await modelFromVideo(store, { video, status });
  const tracked = await trackRender(ctx, { model, renderId: started.renderId, codec });
  if (tracked.started) {
    await store.audit.record({
      at: ctx.now(),
      conversation,
      actor: ctx.req.user,
      action: 'video.render',
      videoId,
      details: { renderId: started.renderId, codec },
    });
  }
  return message({
    title: md`Rendering “${literal(video.name)}” (${literal(codec)})…`,
    tone: 'progress',
    text: md`Rendering is free and usually takes under two minutes. The MP4 link appears on its status card in this channel.`,
    context: md`render \`${literal(started.renderId)}\``,
  });
}

export const renderCommand: CommandSpec = defineCommand({
  name: 'render',
  summary: 'Render a generated video to MP4 (free) and post the link',
  options: [
    VIDEO_REST_OPTION,
    { name: 'codec', kind: 'choice', choices: CODECS, description: 'h264 (default, MP4) or vp8' },
  ],
  examples: ['render last', 'render Octopus facts --codec vp8'],
  async run(ctx, args) {
    const ref = await resolveVideo(ctx, args.video);
    const codec = args.codec ?? 'h264';
    return startRender(ctx, { videoId: ref.id, codec, origin: 'typed' });
  },
});

/** The Render / Render again button (value: video id). */
export const renderAction: ActionSpec = {
  action: 'video.render',
  async run(ctx, videoId) {
    if (!videoId) throw userError('bad-button');
    return await startRender(ctx, { videoId, codec: 'h264', origin: 'click' });
  },
};
