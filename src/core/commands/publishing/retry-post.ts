/**
 * **Retry now** on a scheduled post that failed (publishing/post-retry.ts keeps what it needs): publishes the
 * video now on that platform (POST /posts) under the clicker's key, with an idempotency key of its own (never
 * the schedule's), once: a second click, here or on the same reply in another conversation, says who retried.
 * The approval the schedule ran under still covers the retry while the video carries the same content; a
 * change since (or no approval) asks for one as `publish` would. A retry that failed again can be tried again.
 */

import { approvalModel } from '../../approvals/effects.js';
import { needsApproval } from '../../approvals/policy.js';
import { requestApproval } from '../../approvals/request.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { formatMention } from '../../people/mentions.js';
import { chooseAccount } from '../../publishing/accounts.js';
import {
  contentOf,
  type PostRetry,
  RETRY_POST_ACTION,
  readRetry,
  writeRetry,
} from '../../publishing/post-retry.js';
import { publishApproval } from '../../publishing/publication.js';
import {
  checkPublishArgs,
  notPublishable,
  type PublishSend,
  publishOrAsk,
  sendPublish,
} from '../../publishing/publish-flow.js';
import { getVideo } from '../../publishing/schedule-flow.js';
import { message, type Response } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { code, literal, md } from '../../text/text.js';
import { formatSeen } from '../../time/format.js';
import { PLATFORMS, type Platform, type Video } from '../../video-api/video-api.js';

const isPlatform = (v: string): v is Platform => (PLATFORMS as readonly string[]).includes(v);

/** The approval of the schedule, when it still covers a post of `video` now: approved, same content. */
async function coveringApproval(
  ctx: CommandContext,
  retry: PostRetry,
  video: Video,
): Promise<{ id: string; requesterName: string } | undefined> {
  if (!retry.approval || retry.content !== contentOf(video, retry.platform)) return undefined;
  const approval = await ctx.deps.store.approvals.get(retry.approval);
  if (approval?.status !== 'approved') return undefined;
  const model = await approvalModel(ctx.deps.store, approval);
  return { id: approval.id, requesterName: model?.requesterName ?? 'a member' };
}

async function retryPost(ctx: CommandContext, id: string, retry: PostRetry): Promise<Response> {
  if (!isPlatform(retry.platform)) throw userError('bad-button');
  const platform = retry.platform;
  await checkPublishArgs(ctx, { platform });
  const video = await getVideo(ctx, retry.videoId);
  const blocked = notPublishable(video);
  if (blocked) return blocked;
  const choice = await chooseAccount(ctx, platform, undefined);
  // Several accounts and no default: the usual picker, which publishes as `publish` does.
  if (choice.kind === 'ask') return publishOrAsk(ctx, { videoId: video.id, platform });
  const tries = retry.failedTries ?? 0;
  const send: PublishSend = {
    video,
    platform,
    // Fresh: never the schedule's key, and a new one after a retry that failed.
    idempotencyKey: await ctx.deps.store.idempotency.keyFor(`post-retry:${id}:${tries}`),
    ...(choice.account ? { account: { authId: choice.account.authId, label: choice.account.label } } : {}),
  };
  if (await needsApproval(ctx, { kind: 'publish' })) {
    const approval = await coveringApproval(ctx, retry, video);
    if (!approval) return requestApproval(ctx, publishApproval(send));
    send.approval = approval;
  }
  try {
    const card = await sendPublish(ctx, send);
    // Not "asked by … approved by …": the approval was given to the schedule, and this click only retried it.
    card.context = md`Retried by ${literal(ctx.req.userName ?? 'a member')}${send.approval ? md`, under the approval of the schedule` : md``} · id ${code(video.id)}`;
    const done = { by: ctx.req.user, at: ctx.now(), title: card.title };
    await writeRetry(ctx.deps.store, id, { ...retry, done });
    return { kind: 'update', card };
  } catch (error) {
    await writeRetry(ctx.deps.store, id, { ...retry, failedTries: tries + 1 });
    throw error;
  }
}

/** Clicks on one failed post while its first is running share that click's outcome (per process). */
const inFlight = new Map<string, Promise<Response>>();

export const retryPostAction: ActionSpec = {
  action: RETRY_POST_ACTION,
  run(ctx, id) {
    const running = inFlight.get(id);
    if (running) return running;
    const attempt = (async (): Promise<Response> => {
      const retry = await readRetry(ctx.deps.store, id);
      if (!retry) throw userError('bad-button');
      if (retry.done) {
        return message({
          title: md`Already done`,
          tone: 'info',
          text: say('one-shot-done', {
            who: formatMention(retry.done.by),
            when: formatSeen(retry.done.at, await ctx.timeZone(), ctx.now()),
            what: retry.done.title,
          }),
        });
      }
      return retryPost(ctx, id, retry);
    })().finally(() => inFlight.delete(id));
    inFlight.set(id, attempt);
    return attempt;
  },
};
