/**
 * "Use this" on a thumbnail option (value `videoId:variantId`): selects it with the CLICKER's key (they are
 * re-authorised; another team's video is simply not found), then marks the pick on this channel's status
 * card. A user pick is never overwritten by automatic regeneration (spec §3).
 */
import { guardContentChange, withContentNote } from '../../approvals/content-guard.js';
import { userError } from '../../dispatch/context.js';
import { displayName } from '../../format/video.js';
import { videoCardKey } from '../../live/live-card.js';
import { updateVideoCard } from '../../live/projections.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { message, type Response } from '../../text/cards.js';
import { literal, md } from '../../text/text.js';
import { cardThumbnails } from '../../videos/card-model.js';
import { thumbnailsCard } from './thumbnails.js';

/** `abc:def` → video `abc`, variant `def` (a variant id may itself contain ':' when it is a URL). */
export function parsePickValue(value: string): { videoId: string; variantId: string } {
  const at = value.indexOf(':');
  const videoId = value.slice(0, at);
  const variantId = value.slice(at + 1);
  if (at <= 0 || variantId === '') throw userError('bad-button');
  return { videoId, variantId };
}

export const thumbnailPickAction: ActionSpec = {
  action: 'thumbnail.pick',
  async run(ctx, value): Promise<Response> {
    const { videoId, variantId } = parsePickValue(value);
    const api = await ctx.api();
    // Under approval, changing the thumbnail of a video whose post waits (or is scheduled) is itself checked.
    const guard = await guardContentChange(ctx, { videoId, change: { kind: 'thumbnail' } });
    const selection = await api.videos.selectThumbnail(videoId, variantId);
    // The selection response may carry variants as bare URLs; re-read the video for the full options.
    const video = await api.videos.get(videoId);
    const who = displayName(ctx.req);
    const store = ctx.deps.store;
    const key = videoCardKey(videoId, ctx.req.conversation);
    const record = await store.cards.get(key);
    const thumbnails = cardThumbnails(video.thumbnails);
    if (thumbnails) {
      thumbnails.selectedVariantId = selection.thumbnails?.selectedVariantId ?? variantId;
      thumbnails.selectedBy = 'user';
      thumbnails.pickedBy = who;
    }
    await store.transaction(async () => {
      await store.users.setLast(ctx.req.user, 'video', videoId);
      // The pick shows, with who made it, on the video's card wherever it is live.
      if (thumbnails)
        await updateVideoCard(store, videoId, {
          patch: { thumbnails },
          dedupeKey: `${key}:pick:${variantId}:${ctx.now()}`,
        });
    });
    const index = (thumbnails?.variants ?? []).findIndex((v) => v.id === thumbnails?.selectedVariantId);
    const option = index >= 0 ? md`option ${index + 1}` : md`that option`;
    const note = await guard.settle();
    // Clicked on the live card: the outbox edits it for everyone; the clicker gets a short private receipt.
    if (record?.message && record.message === ctx.req.message) {
      return message({
        title: md`Thumbnail picked`,
        tone: 'success',
        text:
          withContentNote(
            md`“${literal(video.name)}” now uses ${option}. It is kept if thumbnails are regenerated.`,
            note,
          ) ?? md``,
      });
    }
    // Clicked elsewhere (the `thumbnails` card): redraw that card with the pick marked.
    const picked =
      video.thumbnails && thumbnails?.selectedVariantId
        ? {
            ...video,
            thumbnails: {
              ...video.thumbnails,
              selectedVariantId: thumbnails.selectedVariantId,
              selectedBy: 'user',
            },
          }
        : video;
    if (note) return message({ title: md`Thumbnail picked`, tone: 'success', text: note });
    return { kind: 'update', card: thumbnailsCard(picked, who) };
  },
};
