/**
 * `show <video>`: everything stored about a video: status, model, voice, script excerpt, every post metadata
 * block, thumbnails and the rendered MP4.
 */

import type { CommandContext } from '../../dispatch/context.js';
import { excerpt, statusLabel, voiceLabel } from '../../format/video.js';
import type { ActionSpec, CommandSpec } from '../../parse/command-spec.js';
import { referenceCommand } from '../../parse/reference-command.js';
import { platformName } from '../../platforms/names.js';
import type { Card, Control, Field } from '../../text/cards.js';
import { message } from '../../text/cards.js';
import { code, command, hole, link, literal } from '../../text/text.js';
import { formatDateTime } from '../../time/format.js';
import {
  PLATFORMS,
  type Platform,
  type PostMetadata,
  type Video,
  VideoApiError,
} from '../../video-api/video-api.js';
import { loadVoices } from '../../videos/catalog-choices.js';
import { SHOW_HERE_ACTION } from './status.js';

/** One readable line per stored block field (spec §2 post metadata), as card markdown. */
export function postBlockText(platform: Platform, posts: PostMetadata): string | undefined {
  const shown = (text: string | undefined, max: number) => (text ? literal(excerpt(text, max)) : undefined);
  switch (platform) {
    case 'youtube': {
      const b = posts.youtube;
      if (!b) return undefined;
      return [
        `**${literal(b.title)}**`,
        shown(b.description, 200),
        `privacy: ${literal(b.privacyStatus ?? 'public')}`,
      ]
        .filter(Boolean)
        .join('\n');
    }
    case 'tiktok':
      return shown(posts.tiktok?.title, 300);
    case 'instagram':
      return shown(posts.instagram?.caption, 300);
    case 'x':
      return posts.x?.text === undefined ? undefined : literal(posts.x.text);
    case 'facebook':
      return shown(posts.facebook?.description, 300);
    case 'linkedin':
      return shown(posts.linkedin?.description, 300);
    case 'threads':
      return shown(posts.threads?.text, 300);
  }
}

async function voiceName(ctx: CommandContext, voiceId: string | undefined): Promise<string> {
  if (!voiceId) return 'unknown';
  try {
    const voice = (await loadVoices(ctx)).find((v) => v.id === voiceId);
    return voice ? literal(voiceLabel(voice)) : code(voiceId);
  } catch (error) {
    // The catalog is a nicety here: without `catalog:read` the id still identifies the voice.
    if (error instanceof VideoApiError) return code(voiceId);
    throw error;
  }
}

function thumbnailsText(video: Video): string {
  const t = video.thumbnails;
  if (!t) return 'none';
  const index = t.variants.findIndex((v) => v.id === t.selectedVariantId);
  const selected =
    index >= 0
      ? ` · option ${index + 1} in use (${t.selectedBy === 'user' ? 'picked by a person' : 'AI pick'})`
      : '';
  return `${literal(t.status)}, ${t.variants.length} option${t.variants.length === 1 ? '' : 's'}${selected}`;
}

export async function showCard(ctx: CommandContext, videoId: string): Promise<Card> {
  const api = await ctx.api();
  const video = await api.videos.get(videoId);
  const zone = await ctx.timeZone();
  const fields: Field[] = [
    { label: 'Status', value: literal(statusLabel(video.status)), short: true },
    { label: 'Model', value: literal(video.model ?? 'unknown'), short: true },
    { label: 'Voice', value: await voiceName(ctx, video.voiceId), short: true },
    // The real service's detail may carry no usable `createdAt` (the reader drops it): say nothing then.
    ...(video.createdAt
      ? [
          {
            label: 'Created',
            value: `${video.createdAt ? formatDateTime(video.createdAt, zone) : 'unknown'} (${zone})`,
            short: true,
          },
        ]
      : []),
    { label: 'Thumbnails', value: thumbnailsText(video), short: true },
    {
      label: 'Rendered',
      value: video.renderedVideoUrl ? link('Download MP4', video.renderedVideoUrl) : 'Not yet',
      short: true,
    },
  ];
  const blocks = PLATFORMS.map((p) => [p, postBlockText(p, video.posts)] as const).filter(([, text]) => text);
  for (const [platform, text] of blocks)
    fields.push({ label: `${platformName(platform)} post`, value: text as string });
  if (blocks.length === 0) {
    fields.push({
      label: 'Post metadata',
      value: `None yet. Set it with ${command('meta', [hole('video'), hole('platform')])}.`,
    });
  }

  const controls: Control[] = [
    { kind: 'button', action: 'video.thumbnails', value: video.id, label: 'Thumbnails' },
    // Brings the video's live card into this conversation (as `status`), kept current from anywhere.
    { kind: 'button', action: SHOW_HERE_ACTION, value: video.id, label: 'Show here' },
  ];
  if (video.status === 'completed') {
    controls.push({
      kind: 'button',
      action: 'video.render',
      value: video.id,
      label: video.renderedVideoUrl ? 'Render again' : 'Render',
    });
  }
  if (video.renderedVideoUrl)
    controls.push({ kind: 'link', label: 'Download MP4', url: video.renderedVideoUrl });

  const script = video.script
    ? `**Script** (${video.script.length} characters)\n${literal(excerpt(video.script, 400))}`
    : 'No script (captioned media).';
  const card: Card = {
    title: literal(video.name),
    tone: video.status === 'failed' ? 'danger' : video.status === 'completed' ? 'success' : 'progress',
    text: script,
    fields,
    controls,
    context: `id ${code(video.id)}${video.platform ? ` · platform ${literal(video.platform)}` : ''}`,
  };
  if (video.thumbnailUrl) card.image = { url: video.thumbnailUrl, alt: `Thumbnail of ${video.name}` };
  if (video.renderedVideoUrl) card.url = video.renderedVideoUrl;
  await ctx.deps.store.users.setLast(ctx.req.user, 'video', video.id);
  return card;
}

export const showCommand: CommandSpec = referenceCommand('video', {
  name: 'show',
  summary: 'Show a video’s details: script, voice, status, post metadata, thumbnails, MP4',
  examples: ['show last', 'show Octopus facts'],
  run: async (ctx, ref) => message(await showCard(ctx, ref.id)),
});

/** A "Details" button elsewhere (value: video id). */
export const showAction: ActionSpec = {
  action: 'video.show',
  async run(ctx, videoId) {
    return message(await showCard(ctx, videoId));
  },
};
