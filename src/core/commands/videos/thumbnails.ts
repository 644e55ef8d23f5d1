/**
 * `thumbnails <video>`: the AI thumbnail options with hook text, score and grade, each with "Use this"; the
 * states where there is nothing to pick (still generating, queued, partial, failed) are explained.
 */

import type { CommandContext } from '../../dispatch/context.js';
import { thumbnailSections } from '../../live/thumbnail-options.js';
import type { ActionSpec, CommandSpec } from '../../parse/command-spec.js';
import { referenceCommand } from '../../parse/reference-command.js';
import type { Card, Tone } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { type CardText, code, command, literal, md } from '../../text/text.js';
import type { Video } from '../../video-api/video-api.js';
import { cardThumbnails } from '../../videos/card-model.js';

function explain(video: Video): { text: CardText; tone: Tone } {
  const t = video.thumbnails;
  if (video.status !== 'completed') {
    return video.status === 'failed'
      ? { text: md`The video failed to generate, so it has no thumbnails.`, tone: 'danger' }
      : {
          text: md`Thumbnails are made once generation completes (it is ${literal(video.status ?? 'running')} now). Follow it with ${command('status', [video.id])}.`,
          tone: 'progress',
        };
  }
  switch (t?.status) {
    case undefined:
    case 'idle':
      return {
        text: md`No thumbnails were generated for this video; it uses its default frame.`,
        tone: 'neutral',
      };
    case 'queued':
    case 'generating':
      return {
        text: md`Thumbnails are ${t.status === 'queued' ? md`queued` : md`being generated`}; they usually take under a minute. Run this again shortly (the status card shows them when they arrive).`,
        tone: 'progress',
      };
    case 'failed':
      return {
        text: md`Thumbnail generation failed. The video is fine: it keeps its default frame and can still be rendered and published.`,
        tone: 'warning',
      };
    case 'partial':
      return {
        text: md`Only ${t.variants.length} of 3 options came out; they are still usable. ⭐ marks the AI pick.`,
        tone: 'success',
      };
    default:
      return {
        text:
          t?.selectedBy === 'user'
            ? md`Your pick is marked ✅. Choose another with **Use this**; a pick is kept even if thumbnails are regenerated.`
            : md`The ⭐ AI pick is used unless you choose another with **Use this**. Your pick is kept even if thumbnails are regenerated.`,
        tone: 'success',
      };
  }
}

export function thumbnailsCard(video: Video, pickedBy?: string): Card {
  const { text, tone } = explain(video);
  const card: Card = {
    title: md`Thumbnails · ${literal(video.name)}`,
    tone,
    text,
    context: md`id ${code(video.id)}`,
  };
  const t = cardThumbnails(video.thumbnails);
  if (t && t.variants.length > 0) {
    if (pickedBy && t.selectedBy === 'user') t.pickedBy = pickedBy;
    card.sections = thumbnailSections(video.id, t);
    card.carousel = true;
  } else if (video.thumbnailUrl) {
    card.image = { url: video.thumbnailUrl, alt: `Current thumbnail of ${video.name}` };
  }
  return card;
}

async function showThumbnails(ctx: CommandContext, videoId: string): Promise<Card> {
  const api = await ctx.api();
  const video = await api.videos.get(videoId);
  await ctx.deps.store.users.setLast(ctx.req.user, 'video', video.id);
  return thumbnailsCard(video);
}

export const thumbnailsCommand: CommandSpec = referenceCommand('video', {
  name: 'thumbnails',
  summary: 'Show a video’s thumbnail options and pick one',
  examples: ['thumbnails last', 'thumbnails Octopus facts'],
  run: async (ctx, ref) => message(await showThumbnails(ctx, ref.id)),
});

/** The "Thumbnails" button of `show` (value: video id). */
export const thumbnailsAction: ActionSpec = {
  action: 'video.thumbnails',
  async run(ctx, videoId) {
    return message(await showThumbnails(ctx, videoId));
  },
};
