/**
 * Keeps the video's live card in step with publishing: the change goes to every conversation showing it, and
 * the card is shown here too (a video created elsewhere gets a card here once it is scheduled or published).
 * Call inside `store.transaction`, with the state change it reports.
 */
import { unpostableNotice } from '../live/live-card.js';
import { showVideo, updateVideoCard } from '../live/projections.js';
import type { VideoCardModel, VideoCardPatch } from '../live/video-card.js';
import type { ConversationAddress, Store, UserAddress } from '../ports/index.js';
import { command, md } from '../text/text.js';
import type { Video } from '../video-api/video-api.js';

export async function syncVideoCard(
  store: Store,
  input: {
    video: Video;
    conversation: ConversationAddress;
    patch: VideoCardPatch;
    dedupeKey: string;
    now: number;
    requestedBy?: string;
    /** Told privately if the platform refuses to post a new card (the bot is not in the channel). */
    requester?: UserAddress;
  },
): Promise<string> {
  const v = input.video;
  const onUnpostable = input.requester
    ? { onUnpostable: unpostableNotice(input.requester, md`run ${command('status', [v.id])}`) }
    : {};
  // The change reaches every conversation showing the video; the card comes to life here too.
  const updated = await updateVideoCard(store, v.id, { patch: input.patch, dedupeKey: input.dedupeKey });
  if (updated) {
    return (
      await showVideo(store, {
        model: updated,
        conversation: input.conversation,
        now: input.now,
        keepState: true,
        ...onUnpostable,
      })
    ).key;
  }
  const model: VideoCardModel = {
    videoId: v.id,
    name: v.name,
    phase: v.status === 'failed' ? 'failed' : v.status === 'completed' ? 'completed' : 'generating',
    ...(v.model ? { model: v.model } : {}),
    ...(input.requestedBy ? { requestedBy: input.requestedBy } : {}),
    ...(v.renderedVideoUrl
      ? { render: { renderId: '', status: 'done', progress: 1, url: v.renderedVideoUrl } }
      : {}),
    ...(v.thumbnails && v.thumbnails.variants.length > 0
      ? {
          thumbnails: {
            status: v.thumbnails.status,
            variants: v.thumbnails.variants,
            ...(v.thumbnails.selectedVariantId ? { selectedVariantId: v.thumbnails.selectedVariantId } : {}),
            ...(v.thumbnails.selectedBy ? { selectedBy: v.thumbnails.selectedBy } : {}),
          },
        }
      : {}),
  };
  const merged = { ...model, ...input.patch } as VideoCardModel;
  return (
    await showVideo(store, {
      model: merged,
      conversation: input.conversation,
      now: input.now,
      ...onUnpostable,
    })
  ).key;
}
