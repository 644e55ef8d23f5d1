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
import { type CardText, code, command, hole, joinText, link, literal, md } from '../../text/text.js';
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
export function postBlockText(platform: Platform, posts: PostMetadata): CardText | undefined {
  const shown = (text: string | undefined, max: number) => (text ? literal(excerpt(text, max)) : undefined);
  switch (platform) {
    case 'youtube': {
      const b = posts.youtube;
      if (!b) return undefined;
      return joinText(
        [
          md`**${literal(b.title)}**`,
          shown(b.description, 200),
          md`privacy: ${literal(b.privacyStatus ?? 'public')}`,
        ],
        '\n',
      );
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

async function voiceName(ctx: CommandContext, voiceId: string | undefined): Promise<CardText> {
  if (!voiceId) return md`unknown`;
  try {
    const voice = (await loadVoices(ctx)).find((v) => v.id === voiceId);
    return voice ? literal(voiceLabel(voice)) : code(voiceId);
  } catch (error) {
    // The catalog is a nicety here: without `catalog:read` the id still identifies the voice.
    if (error instanceof VideoApiError) return code(voiceId);
    throw error;
  }
}

function thumbnailsText(video: Video): CardText {
  const t = video.thumbnails;
  if (!t) return md`none`;
  const index = t.variants.findIndex((v) => v.id === t.selectedVariantId);
  const selected =
    index >= 0
      ? md` · option ${index + 1} in use (${t.selectedBy === 'user' ? md`picked by a person` : md`AI pick`})`
      : md``;
  return md`${literal(t.status)}, ${t.variants.length} option${t.variants.length === 1 ? md`` : md`s`}${selected}`;
}

export async function showCard(ctx: CommandContext, videoId: string): Promise<Card> {
  const api = await ctx.api();
  const video = await api.videos.get(videoId);
  const zone = await ctx.timeZone();
  const fields: Field[] = [
    { label: md`Status`, value: literal(statusLabel(video.status)), short: true },
    { label: md`Model`, value: literal(video.model ?? 'unknown'), short: true },
    { label: md`Voice`, value: await voiceName(ctx, video.voiceId), short: true },
    // The real service's detail may carry no usable `createdAt` (the reader drops it): say nothing then.
    ...(video.createdAt
      ? [
          {
            label: md`Created`,
            value: md`${video.createdAt ? formatDateTime(video.createdAt, zone) : md`unknown`} (${literal(zone)})`,
            short: true,
          },
        ]
      : []),
    { label: md`Thumbnails`, value: thumbnailsText(video), short: true },
    {
      label: md`Rendered`,
      value: video.renderedVideoUrl ? link('Download MP4', video.renderedVideoUrl) : md`Not yet`,
      short: true,
    },
  ];
  const blocks = PLATFORMS.map((p) => [p, postBlockText(p, video.posts)] as const).filter(
    (block): block is readonly [Platform, CardText] => Boolean(block[1]),
  );
  for (const [platform, text] of blocks)
    fields.push({ label: md`${platformName(platform)} post`, value: text });
  if (blocks.length === 0) {
    fields.push({
      label: md`Post metadata`,
      value: md`None yet. Set it with ${command('meta', [hole('video'), hole('platform')])}.`,
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
    ? md`**Script** (${video.script.length} characters)\n${literal(excerpt(video.script, 400))}`
    : md`No script (captioned media).`;
  const card: Card = {
    title: literal(video.name),
    tone: video.status === 'failed' ? 'danger' : video.status === 'completed' ? 'success' : 'progress',
    text: script,
    fields,
    controls,
    context: md`id ${code(video.id)}${video.platform ? md` · platform ${literal(video.platform)}` : md``}`,
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
