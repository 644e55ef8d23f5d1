/**
 * `status <video>`: where a video's generation is. A video still generating gets a live card in this channel
 * (unless one is already being kept up to date here); a finished one shows its result.
 */
import { message } from '../../cards.js';
import { type CommandSpec, defineCommand } from '../../command-spec.js';
import type { CommandContext } from '../../context.js';
import { isTerminal, statusLabel } from '../../format/video.js';
import { editCard, repostIfUnposted, unpostableNotice, videoCardKey } from '../../live/live-card.js';
import { renderVideoCard, type VideoCardModel } from '../../live/video-card.js';
import { VIDEO_REST_OPTION } from '../../parse/shared-options.js';
import { resolveVideo } from '../../references.js';
import { command, literal } from '../../text.js';
import { modelFromVideo, phaseOf } from '../../videos/card-model.js';
import { asRecord, trackGeneration } from '../../videos/tracking.js';

/**
 * The video's card here never reached the channel (the platform refused it: the bot was not invited, and the
 * requester was told to invite it and run this command): post it now. Call inside a transaction.
 */
function repostUnposted(ctx: CommandContext, videoId: string): boolean {
  const key = videoCardKey(videoId, ctx.req.conversation);
  return repostIfUnposted(ctx.deps.store, {
    key,
    dedupeKey: `${key}:repost:${ctx.now()}`,
    onUnpostable: unpostableNotice(ctx.req.user, `run ${command('status', [videoId])}`),
  });
}

export const statusCommand: CommandSpec = defineCommand({
  name: 'status',
  summary: 'Show a video’s generation progress (and keep a live card while it runs)',
  options: [VIDEO_REST_OPTION],
  examples: ['status last', 'status Octopus facts'],
  async run(ctx, args) {
    const ref = await resolveVideo(ctx, args.video);
    const api = ctx.api();
    const status = await api.videos.status(ref.id);
    const store = ctx.deps.store;

    if (!isTerminal(status.status)) {
      const model: VideoCardModel = {
        videoId: ref.id,
        name: ref.name,
        phase: phaseOf(status.status),
        percent: status.percentCompleted,
      };
      const watching = store.watches.findActiveIn('generation', ref.id, ctx.req.conversation);
      let reposted = false;
      if (!watching) trackGeneration(ctx, model);
      else {
        store.transaction(() => {
          store.users.setLast(ctx.req.user, 'video', ref.id);
          reposted = repostUnposted(ctx, ref.id);
        });
      }
      const card = renderVideoCard(model);
      card.text = `${literal(statusLabel(status.status))}: ${status.percentCompleted}% done. ${
        watching && !reposted
          ? 'Its status card in this channel is being kept up to date.'
          : 'I posted a status card in this channel that follows it until it is ready.'
      }`;
      return message(card);
    }

    // Finished: show the outcome with thumbnails and render state, as the live card would.
    const video = await api.videos.get(ref.id);
    const model = modelFromVideo(store, { conversation: ctx.req.conversation, video, status });
    const key = videoCardKey(ref.id, ctx.req.conversation);
    store.transaction(() => {
      store.users.setLast(ctx.req.user, 'video', ref.id);
      // A card here that nobody updates any more (its watch expired) is brought up to date too.
      if (store.cards.get(key) && store.watches.activeWhere({ cardKey: key }).length === 0) {
        editCard(store, key, {
          card: renderVideoCard(model),
          dedupeKey: `${key}:status:${ctx.now()}`,
          model: asRecord(model),
        });
      }
      repostUnposted(ctx, ref.id);
    });
    return message(renderVideoCard(model));
  },
});
