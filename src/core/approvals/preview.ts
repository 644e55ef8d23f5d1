/**
 * What an approver needs to see about a video before it goes out: exactly what will be sent. Per platform
 * the title, description and visibility the post will carry (this post's own, else the post details the
 * service reads at post time), the account, the time, and the thumbnail. Built from the body the approved
 * action sends (`publishing/publication.ts`), never from the command's options, so the two cannot drift.
 */

import { BLOCKS, platformName } from '../platforms/post-blocks.js';
import type { Field, Image, Section } from '../text/cards.js';
import { bareUrl, type CardText, code, joinText, link, literal, md } from '../text/text.js';
import type { Platform, Privacy, Video } from '../video-api/video-api.js';

export interface VideoPreview {
  fields: Field[];
  sections: Section[];
  image?: Image;
}

/** What one request sends, read off its body. */
export interface Outgoing {
  platforms: readonly Platform[];
  /** This post's own title, description and visibility (POST /posts), over the stored post details. */
  title?: string | undefined;
  description?: string | undefined;
  privacy?: Privacy | undefined;
  /** The account's label; none: the platform's default account. */
  account?: string | undefined;
  /** Several platforms at once: each platform's own title, over `title`. */
  titles?: Partial<Record<Platform, string>> | undefined;
  /** Several platforms at once: each platform's account label (a platform left out: its default account). */
  accounts?: Partial<Record<Platform, string>> | undefined;
  /** An MP4 made elsewhere, posted instead of the video's render (POST /posts `videoUrl`). */
  videoUrl?: string | undefined;
  /** A scheduled instant (the card shows it as "When"); none: as soon as it is approved. */
  at?: number | undefined;
}

const OWN = md` _(this post only)_`;
const clip = (v: string): CardText => literal(v.length > 300 ? `${v.slice(0, 299)}…` : v);

/** The stored text of one field of a platform's post details. */
function stored(video: Video, platform: Platform, key: string): string | undefined {
  const value = (video.posts[platform] as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** One platform's post as it will go out: each text field, this post's own where given. */
function postLines(video: Video, platform: Platform, o: Outgoing): CardText[] {
  const spec = BLOCKS[platform];
  const lines: CardText[] = [];
  const line = (label: string, own: string | undefined, key: string): void => {
    const value = own ?? stored(video, platform, key);
    if (value !== undefined)
      lines.push(md`**${literal(label)}:** ${clip(value)}${own !== undefined ? OWN : md``}`);
  };
  // POST /posts: `title` is the post's main text, `description` its description where the platform has one.
  const mainIsDescription = spec.main.key === 'description';
  const title = o.titles?.[platform] ?? o.title;
  line(spec.main.label, title ?? (mainIsDescription ? o.description : undefined), spec.main.key);
  for (const f of spec.extra) line(f.label, f.key === 'description' ? o.description : undefined, f.key);
  if (mainIsDescription && title !== undefined && o.description !== undefined)
    line('Description', o.description, 'description');
  const privacy = spec.privacy ? (o.privacy ?? stored(video, platform, 'privacyStatus')) : undefined;
  if (privacy) lines.push(md`**Visibility:** ${literal(privacy)}${o.privacy !== undefined ? OWN : md``}`);
  return lines;
}

export function videoPreview(video: Video, o: Outgoing): VideoPreview {
  const { platforms } = o;
  const sections = platforms.map((p) => {
    const account = o.accounts ? md`**Account:** ${accountOf(o.accounts[p])}` : undefined;
    const lines = [...(account ? [account] : []), ...postLines(video, p, o)];
    return {
      text: md`**${platformName(p)}**\n${lines.length > 0 ? joinText(lines, '\n') : md`_No post details set: the service uses its defaults._`}`,
    };
  });
  const thumbnail = selectedThumbnail(video);
  return {
    fields: [
      { label: md`Video`, value: md`${literal(video.name)} (${code(video.id)})`, short: true },
      {
        label: platforms.length > 1 ? md`Platforms` : md`Platform`,
        value: joinText(platforms.map(platformName), ', '),
        short: true,
      },
      {
        label: o.accounts ? md`Accounts` : md`Account`,
        value: o.accounts ? md`one per platform, below` : accountOf(o.account),
        short: true,
      },
      ...(o.at === undefined ? [{ label: md`When`, value: md`as soon as it is approved`, short: true }] : []),
      o.videoUrl !== undefined
        ? {
            label: md`Video file`,
            value: md`${bareUrl(o.videoUrl)} (sent instead of the render)`,
            short: true,
          }
        : {
            label: md`Render`,
            value: video.renderedVideoUrl
              ? link('MP4', video.renderedVideoUrl)
              : md`not rendered yet (rendered before posting)`,
            short: true,
          },
    ],
    sections,
    ...(thumbnail ? { image: { url: thumbnail, alt: `Thumbnail of ${video.name}` } } : {}),
  };
}

const accountOf = (label: string | undefined): CardText =>
  label !== undefined ? literal(label) : md`the platform’s default account`;

/** The thumbnail the post will carry: the picked variant, else the video's own. */
function selectedThumbnail(video: Video): string | undefined {
  const t = video.thumbnails;
  const picked = t?.variants.find((v) => v.id === t.selectedVariantId);
  return picked?.url ?? video.thumbnailUrl ?? undefined;
}
