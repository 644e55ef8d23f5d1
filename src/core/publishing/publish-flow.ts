/**
 * Publishing now (POST /posts), shared by `publish`, the Publish button's form and the account picker:
 * checks what can be checked before sending (privacy is YouTube-only, the video is rendered, an account is
 * connected and chosen), sends with the key of the user action, then updates the video card.
 */
import { needsApproval } from '../approvals/policy.js';
import { requestApproval } from '../approvals/request.js';
import { checkRole } from '../approvals/roles.js';
import { type CommandContext, userError } from '../dispatch/context.js';
import { actionKey, newRequestId } from '../dispatch/request-id.js';
import { type RemoteEffect, remoteEffect } from '../effects/remote-effect.js';
import { videoState } from '../live/projections.js';
import { watchResults } from '../live/results-watcher.js';
import type { VideoCardModel } from '../live/video-card.js';
import { BLOCKS, platformName } from '../platforms/post-blocks.js';
import { type Card, message, type Response } from '../text/cards.js';
import { code, command, link, literal, md } from '../text/text.js';
import type { Account, Platform, Privacy, Video } from '../video-api/video-api.js';
import { chooseAccount } from './accounts.js';
import { encodePlatforms } from './action-state.js';
import { syncVideoCard } from './card-sync.js';
import { publishApproval, publishArgs, publishBody, whereOf } from './publication.js';
import { getVideo } from './schedule-flow.js';

export const ACCOUNT_ACTION = 'publish.account';

export interface PublishRequest {
  videoId: string;
  platform: Platform;
  /** Label or authId as typed, or an authId picked from a list. */
  account?: string;
  privacy?: Privacy;
  /** Overrides of the stored post metadata for this post only (POST /posts `title`, `description`). */
  title?: string;
  description?: string;
  /** An https MP4 made elsewhere, published instead of the render (POST /posts `videoUrl`). */
  videoUrl?: string;
  /** The request id of the form or picker it came from; none for a typed command (content key). */
  requestId?: string;
}

/** The platforms whose posts take a `description` (spec §4, POST /posts). */
const DESCRIPTION_PLATFORMS: readonly Platform[] = ['youtube', 'facebook', 'linkedin'];

/** A post's title and description limits: those of the platform's metadata block (spec §2). */
function textLimits(platform: Platform): { title: number; description: number } {
  const block = BLOCKS[platform];
  const description = [block.main, ...block.extra].find((f) => f.key === 'description');
  return { title: block.main.max, description: description?.max ?? 0 };
}

/** The arguments of a publish the bot can judge alone, before any API call. */
export interface PublishArgs {
  platform: Platform;
  privacy?: Privacy | undefined;
  title?: string | undefined;
  description?: string | undefined;
  videoUrl?: string | undefined;
}

/** `videoId|p|privacy|requestId|authId`: the account picker's option value (fits Discord's 100 characters). */
export const encodeAccountChoice = (r: PublishRequest, authId: string): string =>
  [r.videoId, encodePlatforms([r.platform]), r.privacy ?? '', r.requestId ?? '', authId].join('|');

/**
 * The checks the arguments alone decide (role, privacy on YouTube only, a description where the platform
 * takes one, the platform's length limits): before any API call.
 */
export async function checkPublishArgs(ctx: CommandContext, a: PublishArgs): Promise<void> {
  await checkRole(ctx, 'publish');
  const { platform, privacy, title, description } = a;
  if (a.videoUrl !== undefined && !/^https:\/\/[^\s/]+/i.test(a.videoUrl)) {
    throw userError('publish-video-url-https', { value: a.videoUrl });
  }
  if (privacy !== undefined && platform !== 'youtube') {
    throw userError('privacy-youtube-only', { platform: platformName(platform) });
  }
  if (description !== undefined && !DESCRIPTION_PLATFORMS.includes(platform)) {
    throw userError('description-unsupported', { platform: platformName(platform) });
  }
  const limits = textLimits(platform);
  for (const [option, text, max] of [
    ['title', title, limits.title],
    ['description', description, limits.description],
  ] as const) {
    if (text !== undefined && text.length > max)
      throw userError('publish-too-long', {
        option,
        length: text.length,
        max,
        platform: platformName(platform),
      });
  }
}

/**
 * Why a video cannot be published now, with the button that fixes it; undefined when it can. An MP4 made
 * elsewhere (`videoUrl`) needs no render of this one.
 */
export function notPublishable(video: Video, videoUrl?: string): Response | undefined {
  if (video.renderedVideoUrl) return undefined;
  if (video.status === 'failed') throw userError('publish-video-failed', { name: video.name });
  if (videoUrl !== undefined) return undefined;
  if (video.status !== 'completed') {
    return message({
      title: md`Not ready yet`,
      tone: 'warning',
      text: md`**${literal(video.name)}** is still generating. Once it is done, render it, then publish. Follow it with ${command('status', [video.name])}.`,
    });
  }
  return message({
    title: md`Render it first`,
    tone: 'warning',
    text: md`**${literal(video.name)}** has not been rendered yet, and publishing now needs the MP4. Rendering is free and usually takes under two minutes; its card gets the link when done. Scheduling does not wait: the service renders before posting.`,
    controls: [
      { kind: 'button', action: 'video.render', value: video.id, label: 'Render', style: 'primary' },
      { kind: 'button', action: 'video.schedule', value: video.id, label: 'Schedule instead' },
    ],
  });
}

function pickAccountCard(video: Video, r: PublishRequest, accounts: Account[]): Card {
  return {
    title: md`Which ${platformName(r.platform)} account?`,
    tone: 'info',
    text: md`Your team has ${accounts.length} ${platformName(r.platform)} accounts and none is the default. Pick where **${literal(video.name)}** goes.`,
    controls: [
      {
        kind: 'select',
        action: ACCOUNT_ACTION,
        placeholder: 'Choose an account',
        options: accounts
          .slice(0, 25)
          .map((a) => ({ label: a.label, value: encodeAccountChoice(r, a.authId) })),
      },
    ],
    context: md`Next time: ${command('publish', [video.name, r.platform], { account: accounts[0]?.label ?? '' })}`,
  };
}

export type PublishOutcome =
  | { kind: 'done'; response: Response }
  | { kind: 'ask'; accounts: Account[]; video: Video };

/** Runs the checks and the post; `ask` when the caller has to pick an account first. */
export async function publishVideo(ctx: CommandContext, r: PublishRequest): Promise<PublishOutcome> {
  await checkPublishArgs(ctx, r);
  const video = await getVideo(ctx, r.videoId);
  const blocked = notPublishable(video, r.videoUrl);
  if (blocked) return { kind: 'done', response: blocked };
  const choice = await chooseAccount(ctx, r.platform, r.account);
  if (choice.kind === 'ask') return { kind: 'ask', accounts: choice.accounts, video };
  const account = choice.account;

  const idempotencyKey = await actionKey(ctx, {
    action: 'publish',
    payload: {
      videoId: video.id,
      platform: r.platform,
      authId: account?.authId ?? null,
      privacy: r.privacy ?? null,
      // Only when given, so the key of a plain publish stays what it was.
      ...(r.title !== undefined ? { title: r.title } : {}),
      ...(r.description !== undefined ? { description: r.description } : {}),
      ...(r.videoUrl !== undefined ? { videoUrl: r.videoUrl } : {}),
    },
    requestId: r.requestId,
  });
  const send: PublishSend = {
    video,
    platform: r.platform,
    idempotencyKey,
    ...(account ? { account: { authId: account.authId, label: account.label } } : {}),
    ...(r.privacy ? { privacy: r.privacy } : {}),
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.videoUrl !== undefined ? { videoUrl: r.videoUrl } : {}),
  };
  if (await needsApproval(ctx, { kind: 'publish' })) {
    return { kind: 'done', response: await requestApproval(ctx, publishApproval(send)) };
  }
  return { kind: 'done', response: message(await sendPublish(ctx, send), 'channel') };
}

/** What a publish now sends, to one platform or several: the video, its text and the user action's key. */
export interface PublishCommon {
  video: Video;
  privacy?: Privacy;
  title?: string;
  description?: string;
  videoUrl?: string;
  idempotencyKey: string;
  /** Set when an approver runs someone else's request. */
  approval?: { id: string; requesterName: string };
}

/** A publish ready to send: every check done, the account chosen, the key of the user action fixed. */
export interface PublishSend extends PublishCommon {
  platform: Platform;
  account?: { authId: string; label: string };
}

/**
 * Sends a checked publish (POST /posts) with the caller's key and the action's idempotency key, then puts
 * the post on the video card and in the audit log, in one transaction. Used by the commands and by an
 * approver's click (the approval's stored key, so a retry never posts twice).
 */
export async function sendPublish(ctx: CommandContext, s: PublishSend): Promise<Card> {
  const { video } = s;
  const postUrl = await postOnce(ctx, s);
  const where = whereOf(s);
  const by = s.approval
    ? md`Asked by ${literal(s.approval.requesterName)}, approved by ${literal(ctx.req.userName ?? 'an approver')} · `
    : ctx.req.userName
      ? md`Published by ${literal(ctx.req.userName)} · `
      : md``;
  const card: Card = {
    title: md`Published to ${platformName(s.platform)}`,
    tone: 'success',
    text: postUrl
      ? md`**${literal(video.name)}** is live on ${where}: ${link('View post', postUrl)}`
      : md`**${literal(video.name)}** was sent to ${where}.`,
    context: md`${by}id ${code(video.id)}`,
  };
  if (postUrl) card.controls = [{ kind: 'link', label: 'View post', url: postUrl }];
  return card;
}

/**
 * POST /posts for one platform as one remote effect, recorded on the video card and in the audit log: the
 * post's URL when the service gave one. Errors of the service are thrown as they came.
 */
export async function postOnce(ctx: CommandContext, s: PublishSend): Promise<string | undefined> {
  const { video } = s;
  const effect: RemoteEffect = {
    command: 'publish',
    args: { ...publishArgs(s), ...(s.approval ? { approval: s.approval } : {}) },
    idempotencyKey: s.idempotencyKey,
    what: `the post of “${literal(video.name)}” to ${whereOf(s)}`,
  };
  const published = await remoteEffect(ctx, effect, {
    send: async () => (await ctx.api()).posts.publish(publishBody(s), { idempotencyKey: s.idempotencyKey }),
    commit: async (published) => {
      await recordPublish(ctx, s, published.postUrl);
      return published;
    },
  });
  return published.postUrl;
}

/** The post on the video card, the audit entry and `last`: the local record of a publish. */
async function recordPublish(
  ctx: CommandContext,
  s: PublishSend,
  postUrl: string | undefined,
): Promise<void> {
  const { video, account } = s;
  const requestedBy = s.approval?.requesterName ?? ctx.req.userName;
  const store = ctx.deps.store;
  await store.transaction(async () => {
    const before = (await videoState(store, video.id))?.posts ?? [];
    const post: NonNullable<VideoCardModel['posts']>[number] = {
      platform: s.platform,
      status: 'posted',
      ...(postUrl ? { url: postUrl } : {}),
    };
    const posts = [...before.filter((p) => !(p.url && p.url === post.url)), post];
    await syncVideoCard(store, {
      video,
      conversation: ctx.req.conversation,
      patch: { posts },
      dedupeKey: `publish:${video.id}:${s.platform}:${postUrl ?? s.idempotencyKey}`,
      now: ctx.now(),
      ...(requestedBy ? { requestedBy } : {}),
      requester: ctx.req.user,
    });
    await store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'video.publish',
      videoId: video.id,
      details: {
        platform: s.platform,
        ...(account ? { authId: account.authId } : {}),
        ...(postUrl ? { postUrl } : {}),
        ...(s.approval ? { approval: s.approval.id } : {}),
      },
    });
    await store.users.setLast(ctx.req.user, 'video', video.id);
    // Its views come back to the card at about a day and at 7 days (results-watcher.ts).
    if (postUrl) {
      await watchResults(store, {
        owner: await ctx.keyOwner(),
        conversation: ctx.req.conversation,
        post: { videoId: video.id, platform: s.platform, postUrl, at: ctx.now() },
      });
    }
  });
}

/** For commands and the picker: an account question becomes the picker card. */
export async function publishOrAsk(ctx: CommandContext, r: PublishRequest): Promise<Response> {
  const outcome = await publishVideo(ctx, r);
  if (outcome.kind === 'done') return outcome.response;
  // The picker is a card the user answers: it carries a request id (minted now for a typed command).
  const picked = { ...r, requestId: r.requestId ?? newRequestId() };
  const card = pickAccountCard(outcome.video, picked, outcome.accounts);
  // A title or description does not fit in the picker's option value: it waits in the store, by request id.
  if (picked.title !== undefined || picked.description !== undefined) {
    await ctx.deps.store.cards.put(overridesKey(picked.requestId), {
      conversation: ctx.req.conversation,
      card,
      model: {
        ...(picked.title !== undefined ? { title: picked.title } : {}),
        ...(picked.description !== undefined ? { description: picked.description } : {}),
      },
    });
  }
  return message(card);
}

const overridesKey = (requestId: string): string => `publish-request:${requestId}`;

/** The title and description a typed publish gave, for its account picker's answer. */
export async function pickerOverrides(
  ctx: CommandContext,
  requestId: string,
): Promise<Pick<PublishRequest, 'title' | 'description'>> {
  const model = requestId ? (await ctx.deps.store.cards.get(overridesKey(requestId)))?.model : undefined;
  return {
    ...(typeof model?.title === 'string' ? { title: model.title } : {}),
    ...(typeof model?.description === 'string' ? { description: model.description } : {}),
  };
}
