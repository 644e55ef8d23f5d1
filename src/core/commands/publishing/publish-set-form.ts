/**
 * The Publish form's second step when several platforms are chosen: each platform's post text prefilled from
 * the video's post details, and its account pick where it has several (the default one preselected). Chat
 * platforms page it where it does not fit one modal. Its state: `<video id>|<request id>|<platform codes>|<privacy>`.
 */
import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { isRequestId } from '../../dispatch/request-id.js';
import type { FormSpec } from '../../parse/command-spec.js';
import { BLOCKS, platformName } from '../../platforms/post-blocks.js';
import { decodePlatforms, encodePlatforms } from '../../publishing/action-state.js';
import { publishSet } from '../../publishing/publish-set.js';
import { getVideo } from '../../publishing/schedule-flow.js';
import type { Form, FormInput, Response } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { joinText, literal, md } from '../../text/text.js';
import {
  type Accounts,
  type Platform,
  PRIVACY,
  type Privacy,
  type Video,
} from '../../video-api/video-api.js';

export const PUBLISH_SET_FORM_ID = 'publish.set';

const titleId = (p: Platform): string => `title-${p}`;
const accountId = (p: Platform): string => `account-${p}`;

/** The stored main text of a platform's post details (YouTube's title, Instagram's caption…). */
function storedText(video: Video, platform: Platform): string | undefined {
  const value = (video.posts[platform] as Record<string, unknown> | undefined)?.[BLOCKS[platform].main.key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export interface PublishSetFormInput {
  video: Video;
  platforms: Platform[];
  requestId: string;
  privacy?: Privacy | undefined;
  /** Connected accounts (none when they cannot be read: each platform then takes its default). */
  accounts?: Accounts | undefined;
  /** An account picked in the first step (an authId): preselected on its platform. */
  picked?: string | undefined;
}

function accountPick(p: Platform, input: PublishSetFormInput): FormInput | undefined {
  const list = input.accounts?.[p] ?? [];
  if (list.length < 2 || list.length > 25) return undefined;
  const initial = list.find((a) => a.authId === input.picked) ?? list.find((a) => a.isDefault);
  return {
    kind: 'select',
    id: accountId(p),
    label: `${platformName(p)} account`,
    placeholder: "The platform's default account",
    required: false,
    options: list.map((a) => ({ label: `${a.label}${a.isDefault ? ' (default)' : ''}`, value: a.authId })),
    ...(initial ? { initial: initial.authId } : {}),
  };
}

export function publishSetForm(input: PublishSetFormInput): Form {
  const { video, platforms } = input;
  const inputs = platforms.flatMap((p): FormInput[] => {
    const main = BLOCKS[p].main;
    const initial = storedText(video, p);
    const account = accountPick(p, input);
    return [
      {
        kind: 'text',
        id: titleId(p),
        label: `${platformName(p)} ${main.label.toLowerCase()}`,
        multiline: main.max > 300,
        required: false,
        maxLength: main.max,
        ...(initial ? { initial } : {}),
        hint: 'Prefilled from the video’s post details; a change is for this post only.',
      },
      ...(account ? [account] : []),
    ];
  });
  return {
    id: PUBLISH_SET_FORM_ID,
    title: `Publish to ${platforms.length} platforms`,
    submitLabel: 'Publish',
    state: [video.id, input.requestId, encodePlatforms(platforms), input.privacy ?? ''].join('|'),
    intro: md`Publish **${literal(video.name)}** to ${joinText(platforms.map(platformName), ', ')} now: one post each.`,
    inputs,
  };
}

/** Each platform's text as sent: only where it differs from the stored post details (else the service reads them). */
function ownTitles(video: Video, platforms: Platform[], values: Record<string, string>) {
  const titles: Partial<Record<Platform, string>> = {};
  for (const p of platforms) {
    const typed = (values[titleId(p)] ?? '').trim();
    if (typed !== '' && typed !== storedText(video, p)) titles[p] = typed;
  }
  return titles;
}

export const publishSetFormSpec: FormSpec = {
  id: PUBLISH_SET_FORM_ID,
  async submit(ctx: CommandContext, state, values): Promise<Response> {
    const [videoId, requestId, codes, privacy] = state.split('|');
    const platforms = decodePlatforms(codes ?? '');
    if (!videoId || !isRequestId(requestId) || !platforms) throw userError('interaction-expired');
    const video = await getVideo(ctx, videoId);
    const accounts: Partial<Record<Platform, string>> = {};
    for (const p of platforms) {
      const picked = (values[accountId(p)] ?? '').trim();
      if (picked !== '') accounts[p] = picked;
    }
    try {
      return await publishSet(ctx, {
        videoId,
        platforms,
        requestId,
        titles: ownTitles(video, platforms, values),
        accounts,
        ...(privacy && (PRIVACY as readonly string[]).includes(privacy)
          ? { privacy: privacy as Privacy }
          : {}),
      });
    } catch (error) {
      // A text too long for its platform is said on that platform's input.
      if (!(error instanceof UserError) || error.code !== 'publish-too-long') throw error;
      const on = platforms.find((p) => platformName(p) === String(error.params.platform)) ?? platforms[0];
      return { kind: 'form-errors', errors: { [titleId(on ?? 'youtube')]: say(error.code, error.params) } };
    }
  },
};
