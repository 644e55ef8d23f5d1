/**
 * The seven post metadata blocks (spec §2) as the bot edits them: which fields each platform has, their
 * limits, the form that edits them and the checks run BEFORE anything is sent (a too-long caption never
 * reaches the API).
 */
import type { FormInput, SelectOption } from '../text/cards.js';
import { say } from '../text/messages.js';
import { type CardText, joinText, literal, md } from '../text/text.js';
import {
  type Platform,
  type PostBlocks,
  type PostMetadata,
  PRIVACY,
  type Privacy,
} from '../video-api/video-api.js';

export interface BlockField {
  key: string;
  label: string;
  max: number;
  required: boolean;
  multiline: boolean;
}

interface BlockSpec {
  /** Display name of the platform. */
  name: string;
  /** The field `meta <video> <platform> text…` sets. */
  main: BlockField;
  /** Other text fields (YouTube description). */
  extra: BlockField[];
  /** YouTube has a privacy select too. */
  privacy: boolean;
}

/** A required, multi-line field; the exceptions spread over it (`{ ...field(…), required: false }`). */
const field = (key: string, label: string, max: number): BlockField => ({
  key,
  label,
  max,
  required: true,
  multiline: true,
});

export const BLOCKS: Record<Platform, BlockSpec> = {
  youtube: {
    name: 'YouTube',
    main: { ...field('title', 'Title', 100), multiline: false },
    extra: [{ ...field('description', 'Description', 5000), required: false }],
    privacy: true,
  },
  tiktok: { name: 'TikTok', main: field('title', 'Caption', 2200), extra: [], privacy: false },
  instagram: { name: 'Instagram', main: field('caption', 'Caption', 2200), extra: [], privacy: false },
  x: { name: 'X', main: field('text', 'Post text', 280), extra: [], privacy: false },
  facebook: { name: 'Facebook', main: field('description', 'Description', 5000), extra: [], privacy: false },
  linkedin: { name: 'LinkedIn', main: field('description', 'Post text', 3000), extra: [], privacy: false },
  threads: { name: 'Threads', main: field('text', 'Post text', 500), extra: [], privacy: false },
};

/** Every platform's limits in words, from BLOCKS: "YouTube title 100 and description 5,000, TikTok caption 2,200, …". */
export const limitsInWords = (): CardText =>
  literal(
    Object.values(BLOCKS)
      .map(
        (spec) =>
          `${spec.name} ${[spec.main, ...spec.extra].map((f) => `${f.label.toLowerCase()} ${f.max.toLocaleString('en-US')}`).join(' and ')}`,
      )
      .join(', '),
  );

/** Display names live in one table (names.ts); re-exported for the callers of the post blocks. */
export { platformName } from './names.js';

/** The stored text of a block's field, if any. */
function stored(posts: PostMetadata, platform: Platform, key: string): string | undefined {
  const block = posts[platform] as Record<string, unknown> | undefined;
  const value = block?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** The block's main text (title, caption, text or description). */
export const mainText = (posts: PostMetadata, platform: Platform): string | undefined =>
  stored(posts, platform, BLOCKS[platform].main.key);

const PRIVACY_OPTIONS: SelectOption[] = [
  { label: 'Public', value: 'public' },
  { label: 'Unlisted', value: 'unlisted', description: 'Only people with the link' },
  { label: 'Private', value: 'private', description: 'Only you' },
];

/**
 * The inputs editing one platform's block, prefilled with what is stored; a block never set starts from
 * the video's name (a sensible first caption the user edits rather than types).
 */
export function blockInputs(platform: Platform, posts: PostMetadata, videoName: string): FormInput[] {
  const spec = BLOCKS[platform];
  const inputs: FormInput[] = [];
  for (const f of [spec.main, ...spec.extra]) {
    const current =
      stored(posts, platform, f.key) ?? (f === spec.main ? videoName.slice(0, f.max) : undefined);
    inputs.push({
      kind: 'text',
      id: f.key,
      label: `${f.label} (max ${f.max})`,
      multiline: f.multiline,
      required: f.required,
      maxLength: f.max,
      ...(current ? { initial: current } : {}),
    });
  }
  if (spec.privacy) {
    inputs.push({
      kind: 'select',
      id: 'privacyStatus',
      label: 'Visibility',
      placeholder: 'Choose who can see it',
      options: PRIVACY_OPTIONS,
      required: true,
      initial: stored(posts, platform, 'privacyStatus') ?? 'public',
    });
  }
  return inputs;
}

/** Checks a form's values: inline errors by input id, empty when the block can be sent. */
export function checkBlock(platform: Platform, values: Record<string, string>): Record<string, CardText> {
  const spec = BLOCKS[platform];
  const errors: Record<string, CardText> = {};
  for (const f of [spec.main, ...spec.extra]) {
    const value = (values[f.key] ?? '').trim();
    if (f.required && value === '')
      errors[f.key] = say('meta-required', { field: f.label, platform: spec.name });
    else if (value.length > f.max) {
      errors[f.key] = say('meta-too-long', {
        field: f.label,
        platform: spec.name,
        length: value.length,
        max: f.max,
      });
    }
  }
  const privacy = values.privacyStatus;
  if (
    spec.privacy &&
    privacy !== undefined &&
    privacy !== '' &&
    !(PRIVACY as readonly string[]).includes(privacy)
  ) {
    errors.privacyStatus = say('bad-choice', {
      option: 'visibility',
      value: privacy,
      allowed: PRIVACY.join(', '),
    });
  }
  return errors;
}

/** The block to PATCH from checked form values (empty optional fields are left out). */
export function blockFrom<P extends Platform>(platform: P, values: Record<string, string>): PostBlocks[P] {
  const spec = BLOCKS[platform];
  const block: Record<string, string> = {};
  for (const f of [spec.main, ...spec.extra]) {
    const value = (values[f.key] ?? '').trim();
    if (value !== '') block[f.key] = value;
  }
  if (spec.privacy) block.privacyStatus = (values.privacyStatus || 'public') as Privacy;
  return block as unknown as PostBlocks[P];
}

/**
 * The block after setting only its main text: other fields already stored are kept (a YouTube title
 * change keeps the description and privacy).
 */
export function withMainText<P extends Platform>(
  platform: P,
  posts: PostMetadata,
  text: string,
): PostBlocks[P] {
  const current = (posts[platform] ?? {}) as Record<string, unknown>;
  return { ...current, [BLOCKS[platform].main.key]: text } as PostBlocks[P];
}

/** A one-line preview of a block for confirmation cards (card markdown: the stored texts are escaped). */
export function blockSummary(platform: Platform, posts: PostMetadata): CardText {
  const spec = BLOCKS[platform];
  const lines = [spec.main, ...spec.extra]
    .map((f) => {
      const v = stored(posts, platform, f.key);
      return v
        ? md`**${literal(f.label)}:** ${literal(v.length > 300 ? `${v.slice(0, 299)}…` : v)}`
        : undefined;
    })
    .filter((l): l is CardText => l !== undefined);
  const privacy = stored(posts, platform, 'privacyStatus');
  if (spec.privacy && privacy) lines.push(md`**Visibility:** ${literal(privacy)}`);
  return joinText(lines, '\n');
}
