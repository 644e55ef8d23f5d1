import { z } from 'zod';
import { type PostMetadata, PRIVACY } from '../../core/video-api/video-api.js';
import { compact, optEnum, optPart, optText, reqText } from './common.js';

/** The seven post metadata blocks (spec §2) under their wire names, `posts.youtube` ⇄ `youtubePost`. */
export const BLOCK_FIELDS = {
  youtube: 'youtubePost',
  tiktok: 'tiktokPost',
  instagram: 'instagramPost',
  x: 'xPost',
  facebook: 'facebookPost',
  linkedin: 'linkedinPost',
  threads: 'threadsPost',
} as const;

type BlockField = (typeof BLOCK_FIELDS)[keyof typeof BLOCK_FIELDS];

/** A block not set yet may come as absent, `null` or `{}`; all read as absent. One without its text is dropped. */
function block<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) =>
      value === null || (typeof value === 'object' && Object.keys(value as object).length === 0)
        ? undefined
        : value,
    optPart(schema),
  );
}

export const PostBlocksWire = z.object({
  youtubePost: block(z.object({ title: reqText(), description: optText(), privacyStatus: optEnum(PRIVACY) })),
  tiktokPost: block(z.object({ title: reqText() })),
  instagramPost: block(z.object({ caption: reqText() })),
  xPost: block(z.object({ text: reqText() })),
  facebookPost: block(z.object({ description: reqText() })),
  linkedinPost: block(z.object({ description: reqText() })),
  threadsPost: block(z.object({ text: reqText() })),
});

export function toPostMetadata(wire: z.output<typeof PostBlocksWire>): PostMetadata {
  const youtube = wire.youtubePost ? compact(wire.youtubePost) : undefined;
  return compact({
    youtube,
    tiktok: wire.tiktokPost,
    instagram: wire.instagramPost,
    x: wire.xPost,
    facebook: wire.facebookPost,
    linkedin: wire.linkedinPost,
    threads: wire.threadsPost,
  });
}

/** Domain `posts` → the wire block fields of a PATCH body. */
export function toWireBlocks(posts: PostMetadata): Partial<Record<BlockField, unknown>> {
  const out: Partial<Record<BlockField, unknown>> = {};
  for (const [platform, field] of Object.entries(BLOCK_FIELDS) as [keyof PostMetadata, BlockField][]) {
    const value = posts[platform];
    if (value !== undefined) out[field] = value;
  }
  return out;
}
