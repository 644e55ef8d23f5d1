/**
 * The metadata form of one platform (prefilled from the video), optionally carrying a schedule that waits
 * for it. Its state is `<platform code>|<video id>` or `<platform code>|<pending schedule>`.
 */

import { BLOCKS, blockInputs, platformName } from '../platforms/post-blocks.js';
import type { Form } from '../text/cards.js';
import { withUploadedText, withUploads } from '../text/long-text.js';
import { joinText, literal, md } from '../text/text.js';
import type { Platform, Video } from '../video-api/video-api.js';
import {
  decodePlatforms,
  decodeSchedule,
  encodePlatforms,
  encodeSchedule,
  type PendingSchedule,
} from './action-state.js';

export const META_FORM_ID = 'meta.block';

export function metaForm(
  video: Video,
  platform: Platform,
  schedule?: { pending: PendingSchedule; missing: readonly Platform[] },
): Form {
  const code = encodePlatforms([platform]);
  const form: Form = {
    id: META_FORM_ID,
    title: `${BLOCKS[platform].name} post details`,
    submitLabel: schedule
      ? schedule.missing.length > 1
        ? 'Save and continue'
        : 'Save and schedule'
      : 'Save',
    state: schedule ? `${code}|${encodeSchedule(schedule.pending)}` : `${code}|${video.id}`,
    inputs: withUploads(blockInputs(platform, video.posts, video.name), longTextIds(platform)),
  };
  if (schedule) {
    const later = schedule.missing.filter((p) => p !== platform).map(platformName);
    form.intro = md`To schedule **${literal(video.name)}**, ${platformName(platform)} needs its post details first${later.length > 0 ? md` (then ${joinText(later, ', ')}).` : md`.`}`;
  } else form.intro = md`Post details for **${literal(video.name)}** on ${platformName(platform)}.`;
  return form;
}

/**
 * The block's fields longer than a chat platform's form inputs take everywhere (the 5,000-character
 * descriptions): each may also be uploaded as a text file; adapters split the typed text.
 */
const longTextIds = (platform: Platform): string[] =>
  [BLOCKS[platform].main, ...BLOCKS[platform].extra].filter((f) => f.max > LONG_TEXT).map((f) => f.key);

/** Longer than Slack's 3,000-character inputs: offered as an upload too. */
const LONG_TEXT = 3_000;

/** A submission's values with an uploaded file's text in place of its field's typed text. */
export const metaValues = (values: Readonly<Record<string, string>>): Record<string, string> =>
  withUploadedText(values);

export function decodeMetaState(
  state: string,
): { platform: Platform; videoId: string; pending?: PendingSchedule } | undefined {
  const [code, ...rest] = state.split('|');
  const platform = decodePlatforms(code ?? '')?.[0];
  if (!platform || (code ?? '').length !== 1) return undefined;
  if (rest.length === 1 && rest[0]) return { platform, videoId: rest[0] };
  const pending = decodeSchedule(rest);
  return pending ? { platform, videoId: pending.videoId, pending } : undefined;
}
