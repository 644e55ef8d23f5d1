/**
 * `status <video>`: where a video is, and its live card brought here (like Midjourney's `/show`): the
 * caller's key must resolve the video (another team's id is "not found" and nothing is shown), then the
 * video's one card state is shown in this conversation too, kept current by every change from anywhere.
 */

import type { CommandContext } from '../../dispatch/context.js';
import { isTerminal, statusLabel } from '../../format/video.js';
import { repostIfUnposted, unpostableNotice, videoCardKey } from '../../live/live-card.js';
import { projectionsOf, showVideo } from '../../live/projections.js';
import { renderVideoCard, type VideoCardModel } from '../../live/video-card.js';
import type { ActionSpec, CommandSpec } from '../../parse/command-spec.js';
import { referenceCommand } from '../../parse/reference-command.js';
import { message, type Response } from '../../text/cards.js';
import { command, literal, md } from '../../text/text.js';
import { type Ref, resolveVideo } from '../../video-api/references.js';
import { modelFromVideo, phaseOf } from '../../videos/card-model.js';
import { trackGeneration } from '../../videos/tracking.js';

/**
 * The video's card here never reached the channel (the platform refused it: the bot was not invited, and the
 * requester was told to invite it and run this command): post it now. Call inside a transaction.
 */
async function repostUnposted(ctx: CommandContext, videoId: string): Promise<boolean> {
  const key = videoCardKey(videoId, ctx.req.conversation);
  return await repostIfUnposted(ctx.deps.store, {
    key,
    dedupeKey: `${key}:repost:${ctx.now()}`,
    onUnpostable: unpostableNotice(ctx.req.user, md`run ${command('status', [videoId])}`),
  });
}

/** The "Show here" control's action (videos/show.ts, videos/list.ts). */
export const SHOW_HERE_ACTION = 'video.show-here';

export const statusCommand: CommandSpec = referenceCommand('video', {
  name: 'status',
  summary: 'Show a video’s generation progress (and keep a live card while it runs)',
  examples: ['status last', 'status Octopus facts'],
  run: showHere,
});

/**
 * "Show here" on `videos` and `show` (value or menu choice: the video id): the same as `status <id>`, the
 * video resolved again with the clicker's own key.
 */
export const showHereAction: ActionSpec = {
  action: SHOW_HERE_ACTION,
  async run(ctx, value, choice) {
    return showHere(ctx, await resolveVideo(ctx, choice ?? value));
  },
};

/** The video's status, and its live card brought into this conversation. */
async function showHere(ctx: CommandContext, ref: Ref): Promise<Response> {
  const api = await ctx.api();
  const status = await api.videos.status(ref.id);
  const store = ctx.deps.store;

  const here = videoCardKey(ref.id, ctx.req.conversation);
  const liveHere = (await projectionsOf(store, ref.id)).some((p) => p.key === here);
  if (!isTerminal(status.status)) {
    const model: VideoCardModel = {
      videoId: ref.id,
      name: ref.name,
      phase: phaseOf(status.status),
      percent: status.percentCompleted,
    };
    let reposted = false;
    const { started } = await trackGeneration(ctx, model);
    if (liveHere) await store.transaction(async () => (reposted = await repostUnposted(ctx, ref.id)));
    const card = renderVideoCard(model);
    const followed =
      !liveHere || reposted
        ? md`I posted a status card in this channel that follows it until it is ready, whoever acts on it and wherever.`
        : started
          ? md`Its status card in this channel follows it again until it is ready.`
          : md`Its status card in this channel is being kept up to date.`;
    card.text = md`${literal(statusLabel(status.status))}: ${status.percentCompleted}% done. ${followed}`;
    return message(card);
  }

  // Finished: the card shows the fresh read everywhere it is live, and comes to life here if it was not.
  const video = await api.videos.get(ref.id);
  const model = await modelFromVideo(store, { video, status });
  await store.transaction(async () => {
    await store.users.setLast(ctx.req.user, 'video', ref.id);
    await showVideo(store, {
      model,
      conversation: ctx.req.conversation,
      now: ctx.now(),
      onUnpostable: unpostableNotice(ctx.req.user, md`run ${command('status', [ref.id])}`),
    });
    if (liveHere) await repostUnposted(ctx, ref.id);
  });
  const card = renderVideoCard(model);
  if (liveHere) return message(card);
  // The live card itself is posted here: the answer is only a receipt, without a second set of buttons.
  return message({
    title: card.title,
    ...(card.tone ? { tone: card.tone } : {}),
    ...(card.text ? { text: card.text } : {}),
    context: md`${card.context ?? md``} · its live card is posted in this channel now`,
  });
}
