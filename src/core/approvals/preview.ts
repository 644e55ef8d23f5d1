/**
 * What an approver needs to see about a video before it goes out: its name, the platforms, the post details
 * each platform will use (the metadata blocks) and the thumbnail.
 */
import type { Field, Image, Section } from '../cards.js';
import { blockSummary, platformName } from '../platforms/post-blocks.js';
import { code, link, literal } from '../text.js';
import type { Platform, Video } from '../video-api.js';

export interface VideoPreview {
  fields: Field[];
  sections: Section[];
  image?: Image;
}

export function videoPreview(video: Video, platforms: readonly Platform[]): VideoPreview {
  const sections = platforms.map((p) => {
    const summary = blockSummary(p, video.posts);
    return {
      text: `**${platformName(p)}**\n${summary || '_No post details set: the service uses its defaults._'}`,
    };
  });
  const thumbnail = selectedThumbnail(video);
  return {
    fields: [
      { label: 'Video', value: `${literal(video.name)} (${code(video.id)})`, short: true },
      {
        label: platforms.length > 1 ? 'Platforms' : 'Platform',
        value: platforms.map(platformName).join(', '),
        short: true,
      },
      {
        label: 'Render',
        value: video.renderedVideoUrl
          ? link('MP4', video.renderedVideoUrl)
          : 'not rendered yet (rendered before posting)',
        short: true,
      },
    ],
    sections,
    ...(thumbnail ? { image: { url: thumbnail, alt: `Thumbnail of ${video.name}` } } : {}),
  };
}

/** The thumbnail the post will carry: the picked variant, else the video's own. */
function selectedThumbnail(video: Video): string | undefined {
  const t = video.thumbnails;
  const picked = t?.variants.find((v) => v.id === t.selectedVariantId);
  return picked?.url ?? video.thumbnailUrl ?? undefined;
}
