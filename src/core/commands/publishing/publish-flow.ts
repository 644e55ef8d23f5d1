/**
 * Publishing now (POST /posts), shared by `publish`, the Publish button's form and the account picker:
 * checks what can be checked before sending (privacy is YouTube-only, the video is rendered, an account is
 * connected and chosen), sends with the key of the user action, then updates the video card.
 */
import { type Card, message, type Response } from '../../cards.js';
import { type CommandContext, userError } from '../../context.js';
import { videoCardKey } from '../../live/live-card.js';
import { type VideoCardModel, videoCardModelOf } from '../../live/video-card.js';
import type { Account, Platform, Privacy, Video } from '../../video-api.js';
import { chooseAccount } from './accounts.js';
import { encodePlatforms, publishActionName } from './action-state.js';
import { requiresApproval } from './approval.js';
import { syncVideoCard } from './card-sync.js';
import { platformName } from './post-blocks.js';
import { getVideo, quoteRef } from './schedule-flow.js';

export const ACCOUNT_ACTION = 'publish.account';

export interface PublishRequest {
  videoId: string;
  platform: Platform;
  /** Label or authId as typed, or an authId picked from a list. */
  account?: string;
  privacy?: Privacy;
  /** `minuteOf` the user action. */
  started: number;
}

/** `videoId|p|privacy|minute|authId`: the account picker's option value (fits Discord's 100 characters). */
export const encodeAccountChoice = (r: PublishRequest, authId: string): string =>
  [r.videoId, encodePlatforms([r.platform]), r.privacy ?? '', r.started.toString(36), authId].join('|');

/** Why a video cannot be published now, with the button that fixes it; undefined when it can. */
export function notPublishable(video: Video): Response | undefined {
  if (video.renderedVideoUrl) return undefined;
  if (video.status === 'failed') throw userError('publish-video-failed', { name: video.name });
  const ref = quoteRef(video.name);
  if (video.status !== 'completed') {
    return message({
      title: 'Not ready yet',
      tone: 'warning',
      text: `**${video.name}** is still generating. Once it is done, render it, then publish. Follow it with \`/reel status ${ref}\`.`,
    });
  }
  return message({
    title: 'Render it first',
    tone: 'warning',
    text:
      `**${video.name}** has not been rendered yet, and publishing now needs the MP4. Rendering is free and ` +
      'usually takes under two minutes; its card gets the link when done. Scheduling does not wait: the service renders before posting.',
    controls: [
      { kind: 'button', action: 'video.render', value: video.id, label: 'Render', style: 'primary' },
      { kind: 'button', action: 'video.schedule', value: video.id, label: 'Schedule instead' },
    ],
  });
}

function pickAccountCard(video: Video, r: PublishRequest, accounts: Account[]): Card {
  return {
    title: `Which ${platformName(r.platform)} account?`,
    tone: 'info',
    text: `Your team has ${accounts.length} ${platformName(r.platform)} accounts and none is the default. Pick where **${video.name}** goes.`,
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
    context: `Next time: \`/reel publish ${quoteRef(video.name)} ${r.platform} --account "${accounts[0]?.label ?? ''}"\``,
  };
}

export type PublishOutcome =
  | { kind: 'done'; response: Response }
  | { kind: 'ask'; accounts: Account[]; video: Video };

/** Runs the checks and the post; `ask` when the caller has to pick an account first. */
export async function publishVideo(ctx: CommandContext, r: PublishRequest): Promise<PublishOutcome> {
  if (r.privacy !== undefined && r.platform !== 'youtube') {
    throw userError('privacy-youtube-only', { platform: platformName(r.platform) });
  }
  const video = await getVideo(ctx, r.videoId);
  const blocked = notPublishable(video);
  if (blocked) return { kind: 'done', response: blocked };
  const choice = await chooseAccount(ctx, r.platform, r.account);
  if (choice.kind === 'ask') return { kind: 'ask', accounts: choice.accounts, video };
  const account = choice.account;

  if (requiresApproval(ctx, { kind: 'publish', videoId: video.id, platforms: [r.platform] })) {
    throw userError('approval-unavailable');
  }
  const idempotencyKey = ctx.deps.store.idempotency.keyFor(
    publishActionName(ctx.req.user, {
      videoId: video.id,
      platform: r.platform,
      started: r.started,
      ...(account ? { authId: account.authId } : {}),
      ...(r.privacy ? { privacy: r.privacy } : {}),
    }),
  );
  const published = await ctx.api().posts.publish(
    {
      videoId: video.id,
      platform: r.platform,
      ...(account ? { authId: account.authId } : {}),
      ...(r.privacy ? { privacyStatus: r.privacy } : {}),
    },
    { idempotencyKey },
  );

  const store = ctx.deps.store;
  store.transaction(() => {
    const existing = store.cards.get(videoCardKey(video.id, ctx.req.conversation));
    const before = existing ? (videoCardModelOf(existing.model).posts ?? []) : [];
    const post: NonNullable<VideoCardModel['posts']>[number] = {
      platform: r.platform,
      status: 'posted',
      ...(published.postUrl ? { url: published.postUrl } : {}),
    };
    const posts = [...before.filter((p) => !(p.url && p.url === post.url)), post];
    syncVideoCard(store, {
      video,
      conversation: ctx.req.conversation,
      patch: { posts },
      dedupeKey: `publish:${video.id}:${r.platform}:${published.postUrl ?? idempotencyKey}`,
      ...(ctx.req.userName ? { requestedBy: ctx.req.userName } : {}),
    });
    store.audit.record({
      at: ctx.now(),
      conversation: ctx.req.conversation,
      actor: ctx.req.user,
      action: 'video.publish',
      videoId: video.id,
      details: {
        platform: r.platform,
        ...(account ? { authId: account.authId } : {}),
        ...(published.postUrl ? { postUrl: published.postUrl } : {}),
      },
    });
  });
  store.users.setLast(ctx.req.user, 'video', video.id);

  const where = `${platformName(r.platform)}${account && account.label !== account.authId ? ` (${account.label})` : ''}`;
  const card: Card = {
    title: `Published to ${platformName(r.platform)}`,
    tone: 'success',
    text: published.postUrl
      ? `**${video.name}** is live on ${where}: [View post](${published.postUrl})`
      : `**${video.name}** was sent to ${where}.`,
    context: `${ctx.req.userName ? `Published by ${ctx.req.userName} · ` : ''}id \`${video.id}\``,
  };
  if (published.postUrl) card.controls = [{ kind: 'link', label: 'View post', url: published.postUrl }];
  return { kind: 'done', response: message(card, 'channel') };
}

/** For commands and the picker: an account question becomes the picker card. */
export async function publishOrAsk(ctx: CommandContext, r: PublishRequest): Promise<Response> {
  const outcome = await publishVideo(ctx, r);
  return outcome.kind === 'done'
    ? outcome.response
    : message(pickAccountCard(outcome.video, r, outcome.accounts));
}
