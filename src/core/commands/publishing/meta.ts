/**
 * `meta <video> <platform> [text…]`: a platform's post metadata (PATCH /videos/{id}). With text, sets the
 * block's main field (YouTube: the title, keeping the stored description and visibility); without, opens
 * the platform's form prefilled with what is stored. Limits are checked before anything is sent.
 */
import { guardContentChange, withContentNote } from '../../approvals/content-guard.js';
import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { type ActionSpec, defineCommand, type FormSpec, type RawArgs } from '../../parse/command-spec.js';
import { PLATFORM_OPTION, VIDEO_OPTION } from '../../parse/shared-options.js';
import { parsePlatform } from '../../parse/validate-args.js';
import {
  BLOCKS,
  blockFrom,
  blockSummary,
  checkBlock,
  limitsInWords,
  platformName,
  withMainText,
} from '../../platforms/post-blocks.js';
import { encodePlatforms } from '../../publishing/action-state.js';
import { decodeMetaState, META_FORM_ID, metaForm, metaValues } from '../../publishing/meta-form.js';
import { getVideo, runSchedule } from '../../publishing/schedule-flow.js';
import { type Card, type Form, message } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { type CardText, literal, md } from '../../text/text.js';
import { resolveVideo } from '../../video-api/references.js';
import { PLATFORMS, type Platform, type PostMetadata, type Video } from '../../video-api/video-api.js';

const PICK_FORM_ID = 'meta.pick';
const EDIT_ACTION = 'meta.edit';

/** One platform's post details of one video. */
interface VideoPosts {
  video: { id: string; name: string };
  platform: Platform;
  posts: PostMetadata;
}

async function save(ctx: CommandContext, { video, platform, posts }: VideoPosts) {
  const api = await ctx.api();
  const patched = await api.videos.update(video.id, { posts: { [platform]: posts[platform] } });
  await ctx.deps.store.users.setLast(ctx.req.user, 'video', video.id);
  return patched;
}

function savedCard({ video, platform, posts, note }: VideoPosts & { note?: CardText | undefined }): Card {
  return {
    title: md`${platformName(platform)} post details saved`,
    tone: 'success',
    text:
      withContentNote(md`For **${literal(video.name)}**:\n${blockSummary(platform, posts)}`, note) ?? md``,
    controls: [
      {
        kind: 'button',
        action: EDIT_ACTION,
        value: `${encodePlatforms([platform])}|${video.id}`,
        label: 'Edit',
      },
      { kind: 'button', action: 'video.schedule', value: video.id, label: 'Schedule' },
    ],
    context: md`id \`${literal(video.id)}\``,
  };
}

/** The form asking which video and platform, when the command was given too little. */
async function pickForm(ctx: CommandContext, partial: RawArgs): Promise<Form> {
  const last = await ctx.deps.store.users.getLast(ctx.req.user, 'video');
  const video = typeof partial.video === 'string' ? partial.video : last ? 'last' : undefined;
  const platform = typeof partial.platform === 'string' ? parsePlatform(partial.platform) : undefined;
  return {
    id: PICK_FORM_ID,
    title: 'Post details',
    submitLabel: 'Next',
    state: '',
    intro: md`Which video, and for which platform? The next step shows that platform’s fields with their limits.`,
    inputs: [
      {
        kind: 'text',
        id: 'video',
        label: 'Video (name, id or "last")',
        required: true,
        ...(video ? { initial: video } : {}),
      },
      {
        kind: 'select',
        id: 'platform',
        label: 'Platform',
        placeholder: 'Choose a platform',
        required: true,
        options: PLATFORMS.map((p) => ({ label: platformName(p), value: p })),
        ...(platform ? { initial: platform } : {}),
      },
    ],
  };
}

export const metaCommand = defineCommand({
  name: 'meta',
  summary: "Set a video's post details for one platform (title, caption, text)",
  options: [
    VIDEO_OPTION,
    PLATFORM_OPTION,
    {
      name: 'text',
      kind: 'text',
      description: 'The title/caption/text; leave out to open the form',
      positional: true,
      rest: true,
    },
  ],
  examples: [
    'meta last youtube How we cut render time in half',
    'meta last x',
    'meta "Launch teaser" instagram New drop 🚀 #launch',
  ],
  details: md`Limits: ${limitsInWords()}. With text, sets the main field (YouTube: the title; its description and visibility are kept). Without text, a form shows every field of the platform with what is stored now.`,
  form: async (ctx, partial) => ({ kind: 'form', form: await pickForm(ctx, partial) }),
  async run(ctx, args) {
    const platform = args.platform;
    // The length is checked before anything is sent: not even the video is looked up for a text too long.
    const text = args.text?.trim();
    const main = BLOCKS[platform].main;
    if (text !== undefined && text.length > main.max) {
      throw userError('meta-too-long', {
        field: main.label,
        platform: platformName(platform),
        length: text.length,
        max: main.max,
      });
    }
    const ref = await resolveVideo(ctx, args.video);
    if (text === undefined) {
      const video = await getVideo(ctx, ref.id);
      return { kind: 'form', form: metaForm(video, platform) };
    }
    // Under approval, changing what a pending or scheduled post carries is itself checked (content-guard.ts).
    const guard = await guardContentChange(ctx, { videoId: ref.id, change: { kind: 'meta', platform } });
    // Only YouTube's block has more than one field; keep the rest of it as stored.
    const current: PostMetadata = platform === 'youtube' ? (await getVideo(ctx, ref.id)).posts : {};
    const posts: PostMetadata = { [platform]: withMainText(platform, current, text) };
    const patched = await save(ctx, { video: ref, platform, posts });
    return message(
      savedCard({ video: ref, platform, posts: { ...posts, ...patched.posts }, note: await guard.settle() }),
    );
  },
});

/** Submitting a platform's form: inline errors, or PATCH then (for a pending schedule) carry on. */
export const metaBlockForm: FormSpec = {
  id: META_FORM_ID,
  async submit(ctx, state, submitted) {
    const values = metaValues(submitted);
    const decoded = decodeMetaState(state);
    if (!decoded) throw userError('interaction-expired');
    const { platform, videoId, pending } = decoded;
    const errors = checkBlock(platform, values);
    if (Object.keys(errors).length > 0) return { kind: 'form-errors', errors };
    const guard = await guardContentChange(ctx, { videoId, change: { kind: 'meta', platform } });
    const video = await getVideo(ctx, videoId);
    const posts: PostMetadata = { [platform]: blockFrom(platform, values) };
    const patched = await save(ctx, { video, platform, posts });
    const note = await guard.settle();
    if (pending) return runSchedule(ctx, pending);
    return message(savedCard({ video, platform, posts: { ...posts, ...patched.posts }, note }));
  },
};

/** The first form: which video and platform. */
export const metaPickForm: FormSpec = {
  id: PICK_FORM_ID,
  async submit(ctx, _state, values) {
    const platform = parsePlatform(values.platform ?? '');
    if (!platform) {
      return {
        kind: 'form-errors',
        errors: {
          platform: say('bad-platform', { value: values.platform ?? '', allowed: PLATFORMS.join(', ') }),
        },
      };
    }
    if ((values.video ?? '').trim() === '') {
      return {
        kind: 'form-errors',
        errors: { video: say('missing-arg', { command: 'meta', option: 'video' }) },
      };
    }
    let video: Video;
    try {
      video = await getVideo(ctx, (await resolveVideo(ctx, values.video ?? '')).id);
    } catch (error) {
      if (error instanceof UserError)
        return { kind: 'form-errors', errors: { video: say(error.code, error.params) } };
      throw error;
    }
    return { kind: 'form', form: metaForm(video, platform) };
  },
};

/** "Edit" on a saved-details card: reopen the form. Value `<platform code>|<video id>`. */
export const metaEditAction: ActionSpec = {
  action: EDIT_ACTION,
  async run(ctx, value) {
    const decoded = decodeMetaState(value);
    if (!decoded) throw userError('interaction-expired');
    const video = await getVideo(ctx, decoded.videoId);
    return { kind: 'form', form: metaForm(video, decoded.platform) };
  },
};
