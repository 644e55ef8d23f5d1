/**
 * `publish <video> <platforms> [--account A] [--privacy P] [--title T] [--description D] [--video-url U]` posts
 * now (POST /posts; several platforms: publish-set.ts), plus the card's "Publish now" button (a form:
 * platform, account, visibility) and the account picker.
 */
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { isRequestId, newRequestId } from '../../dispatch/request-id.js';
import { type ActionSpec, defineCommand, type FormSpec, type RawArgs } from '../../parse/command-spec.js';
import { VIDEO_OPTION } from '../../parse/shared-options.js';
import { parsePlatform, parsePlatforms } from '../../parse/validate-args.js';
import { platformName } from '../../platforms/post-blocks.js';
import { decodePlatforms, decodeVideoAction, encodeVideoAction } from '../../publishing/action-state.js';
import {
  ACCOUNT_ACTION,
  checkPublishArgs,
  notPublishable,
  pickerOverrides,
  publishOrAsk,
  publishVideo,
} from '../../publishing/publish-flow.js';
import { publishSet } from '../../publishing/publish-set.js';
import { getVideo } from '../../publishing/schedule-flow.js';
import type { Form, FormInput, Response } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { type CardText, command, flag, literal, md } from '../../text/text.js';
import { resolveVideo } from '../../video-api/references.js';
import {
  type Account,
  type Accounts,
  PLATFORMS,
  type Platform,
  PRIVACY,
  type Privacy,
  VideoApiError,
} from '../../video-api/video-api.js';
import { publishSetForm } from './publish-set-form.js';

const FORM_ID = 'publish.form';
/** The longest post text any platform takes (spec §2: 5000); each platform's own limit is checked after. */
const POST_TEXT_MAX = 5000;

async function accountsOrNone(ctx: CommandContext): Promise<Accounts | undefined> {
  try {
    return await ctx.deps.catalog.accounts(await ctx.api(), await ctx.apiKeyId());
  } catch (error) {
    // Without `accounts:read` the form simply has no account picker; the service uses the default.
    if (error instanceof VideoApiError && error.type === 'forbidden_scope') return undefined;
    throw error;
  }
}

/** What the publish form knows when it opens: the video (by id, or a reference to prefill), the platform. */
interface PublishFormInput {
  videoId?: string;
  videoName?: string;
  videoRef?: string;
  platform?: string;
}

async function publishForm(ctx: CommandContext, input: PublishFormInput): Promise<Form> {
  // The form is one user action: its request id keys the publish, however often it is submitted.
  const requestId = newRequestId();
  const accounts = await accountsOrNone(ctx);
  const connected = PLATFORMS.filter((p) => (accounts?.[p]?.length ?? 0) > 0);
  const choices = accounts ? connected : [...PLATFORMS];
  const account = accountInput(
    accounts ? connected.flatMap((p) => (accounts[p] ?? []).map((a) => ({ p, a }))) : [],
  );
  const inputs: FormInput[] = [
    ...(input.videoId ? [] : [videoInput(input.videoRef)]),
    platformInput(choices, input.platform),
    ...(account ? [account] : []),
    privacyInput(),
  ];
  const form: Form = {
    id: FORM_ID,
    title: 'Publish now',
    submitLabel: 'Publish',
    state: encodeVideoAction(input.videoId ?? '', requestId),
    inputs,
  };
  if (input.videoName) form.intro = md`Publish **${literal(input.videoName)}** now.`;
  if (accounts && connected.length === 0) {
    const none = md`No social account is connected yet: connect one in the dashboard first.`;
    form.intro = form.intro ? md`${form.intro} ${none}` : none;
  }
  return form;
}

function videoInput(videoRef: string | undefined): FormInput {
  return {
    kind: 'text',
    id: 'video',
    label: 'Video (name, id or "last")',
    required: true,
    ...(videoRef ? { initial: videoRef } : {}),
  };
}

/** The platforms with an account (all of them when accounts cannot be read); a lone one is preselected. */
function platformInput(choices: Platform[], typed: string | undefined): FormInput {
  const initialPlatform = typed ? parsePlatform(typed) : choices.length === 1 ? choices[0] : undefined;
  return {
    kind: 'select',
    id: 'platform',
    label: 'Platforms',
    placeholder: 'Choose one or more platforms',
    required: true,
    multiple: true,
    options: (choices.length > 0 ? choices : [...PLATFORMS]).map((p) => ({
      label: platformName(p),
      value: p,
    })),
    ...(initialPlatform ? { initial: initialPlatform } : {}),
  };
}

/** A picker when several accounts fit in a select, a text input when too many do, none for one or none. */
function accountInput(all: { p: Platform; a: Account }[]): FormInput | undefined {
  if (all.length > 1 && all.length < 25) {
    return {
      kind: 'select',
      id: 'account',
      label: 'Account',
      placeholder: "The platform's default account",
      required: false,
      hint: "Leave empty for the platform's default account.",
      options: all.map(({ p, a }) => ({
        label: `${platformName(p)} · ${a.label}${a.isDefault ? ' (default)' : ''}`,
        value: a.authId,
      })),
    };
  }
  if (all.length >= 25) {
    return {
      kind: 'text',
      id: 'account',
      label: 'Account label or id',
      required: false,
      hint: 'Empty: the default account.',
    };
  }
  return undefined;
}

function privacyInput(): FormInput {
  return {
    kind: 'select',
    id: 'privacy',
    label: 'YouTube visibility',
    placeholder: 'Public',
    required: false,
    initial: 'public',
    options: PRIVACY.map((p) => ({ label: p[0]?.toUpperCase() + p.slice(1), value: p })),
    hint: 'Used for YouTube only.',
  };
}

export const publishCommand = defineCommand({
  name: 'publish',
  summary: 'Publish a rendered video now, to one platform or several',
  options: [
    VIDEO_OPTION,
    {
      name: 'platforms',
      kind: 'platforms',
      description: 'Comma-separated platforms (youtube,tiktok), or `all`',
      positional: true,
      required: true,
    },
    { name: 'account', kind: 'account', description: 'Account label or id when several are connected' },
    {
      name: 'privacy',
      kind: 'choice',
      choices: PRIVACY,
      description: 'YouTube visibility (default public)',
    },
    {
      name: 'title',
      kind: 'text',
      advanced: true,
      maxLength: POST_TEXT_MAX,
      description:
        "Title for this post only (default: the video's post details); YouTube allows 100 characters",
    },
    {
      name: 'description',
      kind: 'text',
      advanced: true,
      maxLength: POST_TEXT_MAX,
      description: 'Description for this post only: YouTube, Facebook, LinkedIn',
    },
    {
      name: 'video-url',
      kind: 'url',
      advanced: true,
      description: 'An https MP4 made elsewhere (an edited cut), published instead of the render',
    },
  ],
  examples: [
    'publish last youtube',
    'publish "Launch teaser" tiktok --account "Brand EU"',
    'publish last youtube,tiktok,instagram',
    'publish last youtube --privacy unlisted',
    'publish last tiktok --video-url https://cdn.example.com/cut.mp4',
    'publish last youtube --title "Octopus facts, part 2" --description "Sources in the pinned comment"',
  ],
  details: md`The video must be rendered (${command('render')}). Title and description come from the post details set with ${command('meta')}; ${flag('publish', 'title')} and ${flag('publish', 'description')} override them for this post only. With several accounts on a platform, the default one is used unless ${flag('publish', 'account')} names another. Several platforms at once make one post each, under one approval when the channel needs one; the card shows each platform’s result, and a platform that failed gets its own Retry now. ${flag('publish', 'video-url')} sends an https MP4 made elsewhere instead of the render.`,
  form: async (ctx: CommandContext, partial: RawArgs): Promise<Response> => {
    const ref = typeof partial.video === 'string' ? partial.video : undefined;
    if (ref) {
      const video = await resolveVideo(ctx, ref);
      return { kind: 'form', form: await publishForm(ctx, { videoId: video.id, videoName: video.name }) };
    }
    const last = await ctx.deps.store.users.getLast(ctx.req.user, 'video');
    const platform = firstPlatform(partial.platforms);
    return {
      kind: 'form',
      form: await publishForm(ctx, {
        ...(last ? { videoRef: 'last' } : {}),
        ...(platform ? { platform } : {}),
      }),
    };
  },
  async run(ctx, args) {
    // Everything the arguments alone can refuse is refused before the first API call.
    const texts = {
      ...(args.title !== undefined ? { title: args.title } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
      ...(args['video-url'] !== undefined ? { videoUrl: args['video-url'] } : {}),
    };
    const [platform, ...more] = args.platforms;
    if (!platform) throw userError('missing-arg', { command: 'publish', option: 'platforms' });
    const choices = {
      ...(args.account ? { account: args.account } : {}),
      ...(args.privacy ? { privacy: args.privacy } : {}),
      ...texts,
    };
    if (more.length > 0) {
      const video = await resolveVideo(ctx, args.video);
      return publishSet(ctx, { videoId: video.id, platforms: args.platforms, ...choices });
    }
    await checkPublishArgs(ctx, { platform, privacy: args.privacy, ...texts });
    const video = await resolveVideo(ctx, args.video);
    return publishOrAsk(ctx, { videoId: video.id, platform, ...choices });
  },
});

/** The first platform typed (the form asks for one), as text. */
function firstPlatform(raw: RawArgs[string]): string | undefined {
  const first = Array.isArray(raw) ? raw[0] : raw;
  return typeof first === 'string' ? first.split(/[\s,]+/)[0] || undefined : undefined;
}

/** The card's "Publish now": checks the video can go out, then asks where. Value: the video id. */
export const publishButton: ActionSpec = {
  action: 'video.publish',
  async run(ctx, value) {
    await checkRole(ctx, 'publish');
    const video = await getVideo(ctx, value);
    const blocked = notPublishable(video);
    if (blocked) return blocked;
    return { kind: 'form', form: await publishForm(ctx, { videoId: video.id, videoName: video.name }) };
  },
};

export const publishFormSpec: FormSpec = {
  id: FORM_ID,
  async submit(ctx, state, values) {
    const decoded = decodeVideoAction(state);
    if (!decoded) throw userError('interaction-expired');
    const chosen = parsePlatforms(values.platform ?? '');
    const platform = chosen.ok ? chosen.value[0] : undefined;
    if (!chosen.ok || !platform) {
      return {
        kind: 'form-errors',
        errors: {
          platform: say('bad-platform', { value: values.platform ?? '', allowed: PLATFORMS.join(', ') }),
        },
      };
    }
    let videoId = decoded.videoId;
    try {
      if (!videoId) {
        if ((values.video ?? '').trim() === '')
          throw userError('missing-arg', { command: 'publish', option: 'video' });
        videoId = (await resolveVideo(ctx, values.video ?? '')).id;
      }
    } catch (error) {
      if (error instanceof UserError)
        return { kind: 'form-errors', errors: { video: say(error.code, error.params) } };
      throw error;
    }
    const account = (values.account ?? '').trim();
    if (chosen.value.length > 1)
      return await nextStep(ctx, {
        videoId,
        platforms: chosen.value,
        values,
        account,
        requestId: decoded.requestId,
      });
    const privacy = platform === 'youtube' && values.privacy ? (values.privacy as Privacy) : undefined;
    try {
      const outcome = await publishVideo(ctx, {
        videoId,
        platform,
        ...(decoded.requestId ? { requestId: decoded.requestId } : {}),
        ...(account ? { account } : {}),
        ...(privacy && (PRIVACY as readonly string[]).includes(privacy) ? { privacy } : {}),
      });
      if (outcome.kind === 'done') return outcome.response;
      return {
        kind: 'form-errors',
        errors: {
          account: say('account-choose', {
            platform: platformName(platform),
            count: outcome.accounts.length,
          }),
        },
      };
    } catch (error) {
      if (error instanceof UserError && error.code === 'not-found-account') {
        return { kind: 'form-errors', errors: { account: await accountElsewhere(ctx, platform, account) } };
      }
      if (error instanceof UserError && error.code === 'no-account') {
        return { kind: 'form-errors', errors: { platform: say(error.code, error.params) } };
      }
      throw error;
    }
  },
};

/** Several platforms chosen: the second step asks each one's text and account (publish-set-form.ts). */
async function nextStep(
  ctx: CommandContext,
  o: {
    videoId: string;
    platforms: Platform[];
    values: Record<string, string>;
    account: string;
    requestId: string | undefined;
  },
): Promise<Response> {
  const video = await getVideo(ctx, o.videoId);
  const blocked = notPublishable(video);
  if (blocked) return blocked;
  const privacy = o.values.privacy;
  return {
    kind: 'form',
    form: publishSetForm({
      video,
      platforms: o.platforms,
      // The first step's id: submitting it twice opens the same set, keyed the same (its content names it).
      requestId: o.requestId ?? newRequestId(),
      accounts: await accountsOrNone(ctx),
      ...(o.account ? { picked: o.account } : {}),
      ...(privacy && o.platforms.includes('youtube') && (PRIVACY as readonly string[]).includes(privacy)
        ? { privacy: privacy as Privacy }
        : {}),
    }),
  };
}

/**
 * The form's account is not one of `platform`'s: named by its label (the select's values are ids), with the
 * platform's accounts to pick instead, under the same input.
 */
async function accountElsewhere(ctx: CommandContext, platform: Platform, wanted: string): Promise<CardText> {
  const accounts = (await accountsOrNone(ctx)) ?? {};
  const all = Object.values(accounts).flat();
  const picked = all.find((a) => a.authId === wanted);
  const here = (accounts[platform] ?? []).map((a) => `“${a.label}”`);
  return say('form-account-elsewhere', {
    name: `“${picked?.label ?? wanted}”`,
    platform: platformName(platform),
    allowed: here.length > 0 ? `one of ${here.join(', ')}` : 'a connected one',
  });
}

/** The account picker: the option value carries the whole request (see `encodeAccountChoice`). */
export const publishAccountAction: ActionSpec = {
  action: ACCOUNT_ACTION,
  async run(ctx, value, choice) {
    const [videoId, code, privacy, requestId, authId] = (choice ?? value).split('|');
    const platform = decodePlatforms(code ?? '')?.[0];
    if (!videoId || !platform || !authId || requestId === undefined) throw userError('interaction-expired');
    return publishOrAsk(ctx, {
      videoId,
      platform,
      account: authId,
      ...(isRequestId(requestId) ? { requestId, ...(await pickerOverrides(ctx, requestId)) } : {}),
      ...(privacy && (PRIVACY as readonly string[]).includes(privacy) ? { privacy: privacy as Privacy } : {}),
    });
  },
};
