/**
 * Keeps the video's status card in this conversation in step with publishing: edits it when it exists,
 * otherwise posts one built from the video (a video created elsewhere still gets a card here once it is
 * scheduled or published). Call inside `store.transaction`, with the state change it reports.
 */
import { postCard, unpostableNotice, videoCardKey } from '../live/live-card.js';
import {
  renderVideoCard,
  updateVideoCard,
  type VideoCardModel,
  type VideoCardPatch,
} from '../live/video-card.js';
import type { ConversationAddress, Store, UserAddress } from '../ports.js';
import { command } from '../text.js';
import type { Video } from '../video-api.js';

export function syncVideoCard(
  store: Store,
  input: {
    video: Video;
    conversation: ConversationAddress;
    patch: VideoCardPatch;
    dedupeKey: string;
    requestedBy?: string;
    /** Told privately if the platform refuses to post a new card (the bot is not in the channel). */
    requester?: UserAddress;
  },
): string {
  const key = videoCardKey(input.video.id, input.conversation);
  if (store.cards.get(key)) {
    updateVideoCard(store, key, { patch: input.patch, dedupeKey: input.dedupeKey });
    return key;
  }
  const v = input.video;
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
  for (const k of Object.keys(merged) as (keyof VideoCardModel)[])
    if (merged[k] === undefined) delete merged[k];
  postCard(store, {
    key,
    conversation: input.conversation,
    card: renderVideoCard(merged),
    model: merged as unknown as Record<string, unknown>,
    ...(input.requester
      ? { onUnpostable: unpostableNotice(input.requester, `run ${command('status', [v.id])}`) }
      : {}),
  });
  return key;
}
