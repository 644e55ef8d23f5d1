import { z } from 'zod';
import { CODECS, MODELS, PRIVACY_STATUSES } from '../vocabulary.js';
import { httpUrl, nonEmpty } from './common.js';

/** Post metadata blocks with the limits of spec §2; no other fields inside a block. */
export const postBlockSchemas = {
  youtubePost: z.strictObject({
    title: nonEmpty.max(100),
    description: z.string().max(5000).optional(),
    privacyStatus: z.enum(PRIVACY_STATUSES).default('public'),
  }),
  tiktokPost: z.strictObject({ title: nonEmpty.max(2200) }),
  instagramPost: z.strictObject({ caption: nonEmpty.max(2200) }),
  xPost: z.strictObject({ text: nonEmpty.max(280) }),
  facebookPost: z.strictObject({ description: nonEmpty.max(5000) }),
  linkedinPost: z.strictObject({ description: nonEmpty.max(3000) }),
  threadsPost: z.strictObject({ text: nonEmpty.max(500) }),
};

const videoName = nonEmpty.max(120);

export const createVideoBody = z.strictObject({
  script: z.string().min(10).max(10000),
  voiceId: nonEmpty,
  model: z.enum(MODELS).default('storyboard'),
  style: nonEmpty.optional(),
  language: nonEmpty.optional(),
  name: videoName.optional(),
  enableBackgroundMusic: z.boolean().optional(),
  masterStyle: z.string().optional(),
  globalNegativePrompt: z.string().optional(),
});

export const captionsBody = z.strictObject({
  videoUrl: httpUrl.optional(),
  audioUrl: httpUrl.optional(),
  name: videoName.optional(),
  language: nonEmpty.optional(),
});

export const patchVideoBody = z.strictObject({
  name: videoName.optional(),
  youtubePost: postBlockSchemas.youtubePost.optional(),
  tiktokPost: postBlockSchemas.tiktokPost.optional(),
  instagramPost: postBlockSchemas.instagramPost.optional(),
  xPost: postBlockSchemas.xPost.optional(),
  facebookPost: postBlockSchemas.facebookPost.optional(),
  linkedinPost: postBlockSchemas.linkedinPost.optional(),
  threadsPost: postBlockSchemas.threadsPost.optional(),
});

export const selectThumbnailBody = z.strictObject({ variantId: nonEmpty });

export const renderBody = z.strictObject({ codec: z.enum(CODECS).default('h264') });
