/**
 * Publishing now to several platforms at once (`publish <video> youtube,tiktok,instagram`): one POST /posts per
 * platform, each with its own idempotency key (the set's key and the platform) and its account (the default
 * one unless `--account` names another), one approval request for the whole set, and one result line per
 * platform. A platform that fails does not undo the others; its line carries a **Retry now** button
 * (publish-retry.ts) that posts it again with a fresh key, under the approval the set already has.
 */
import { createHash } from 'node:crypto';
import { needsApproval } from '../approvals/policy.js';
import { requestApproval } from '../approvals/request.js';
import { type CommandContext, UserError, userError } from '../dispatch/context.js';
import { actionKey, recordWriteDone } from '../dispatch/request-id.js';
import { platformName } from '../platforms/post-blocks.js';
import type { Card, Control, Response } from '../text/cards.js';
import { message } from '../text/cards.js';
import { type CardText, code, joinText, link, literal, md, storedText } from '../text/text.js';
import { describeApiError, isApiError } from '../video-api/api-errors.js';
import type { Platform, Privacy } from '../video-api/video-api.js';
import { chooseAccount } from './accounts.js';
import { encodePlatforms } from './action-state.js';
import { publishOfSet, publishSetApproval, publishSetArgs, whereOf } from './publication.js';
import { checkPublishArgs, notPublishable, type PublishCommon, postOnce } from './publish-flow.js';
import { getVideo } from './schedule-flow.js';

export const PUBLISH_RETRY_ACTION = 'publish.retry';

/** What `publish` was asked for several platforms. */
export interface PublishSetRequest {
  videoId: string;
  platforms: Platform[];
  /** Label or authId as typed: used on the platform(s) it names; the others take their default account. */
  account?: string;
  privacy?: Privacy;
  title?: string;
  description?: string;
  videoUrl?: string;
  /** Each platform's own post text (the form's second step). */
  titles?: Partial<Record<Platform, string>>;
  /** Each platform's account as picked in the form (an authId), over `account`. */
  accounts?: Partial<Record<Platform, string>>;
  requestId?: string;
}

/**
 * One platform of a set, with its account (none: the service picks the default one) and, from the form, its
 * own post text (none: the set's `--title`, else the video's stored post details).
 */
export interface PublishTarget {
  platform: Platform;
  account?: { authId: string; label: string };
  title?: string;
}

/** A checked publish to several platforms, ready to send. `idempotencyKey` is the set's. */
export interface PublishSetSend extends PublishCommon {
  targets: PublishTarget[];
}

/** One platform's result: posted (with its link), or failed with the reason in words and the tries so far. */
export type PlatformResult =
  | { state: 'posted'; url?: string }
  | { state: 'failed'; reason: string; attempt: number };

/** What the store keeps of a set: enough to render its card and to retry one platform from a click. */
export interface PublishSetModel {
  type: 'publish-set';
  args: Record<string, unknown>;
  idempotencyKey: string;
  approval?: { id: string; requesterName: string };
  videoName: string;
  /** Who sent it (the approver for an approved set), for the card's footer. */
  byName?: string;
  results: Partial<Record<Platform, PlatformResult>>;
}

/** The store key of a set's model; the id is short enough for a button value. */
export const publishSetId = (idempotencyKey: string): string =>
  `ps_${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 16)}`;
export const publishSetKey = (setId: string): string => `publish-set:${setId}`;

export function readPublishSet(raw: Record<string, unknown> | undefined): PublishSetModel | undefined {
  return raw?.type === 'publish-set' ? (raw as unknown as PublishSetModel) : undefined;
}

/** The idempotency key of one platform's try: the first has the set's key and the platform, each retry its own. */
export const platformKey = (setKey: string, platform: Platform, attempt: number): string =>
  `${setKey}:${encodePlatforms([platform])}${attempt > 0 ? `:${attempt}` : ''}`;

/** The checks the arguments decide, for every platform of the set, before any API call. */
async function checkSetArgs(ctx: CommandContext, r: PublishSetRequest): Promise<void> {
  if (r.privacy !== undefined && !r.platforms.includes('youtube'))
    throw userError('privacy-youtube-only', { platform: r.platforms.map(platformName).join(', ') });
  for (const platform of r.platforms) {
    await checkPublishArgs(ctx, {
      platform,
      privacy: platform === 'youtube' ? r.privacy : undefined,
      title: r.titles?.[platform] ?? r.title,
      description: r.description,
      videoUrl: r.videoUrl,
    });
  }
}

/**
 * Each platform's account: the one `--account` names where it names one (it must name one somewhere), else the
 * platform's default. A platform with several accounts and no default cannot be guessed: the member names it.
 */
async function chooseAccounts(ctx: CommandContext, r: PublishSetRequest): Promise<PublishTarget[]> {
  const { platforms, account: wanted } = r;
  const targets: PublishTarget[] = [];
  let named = wanted === undefined;
  for (const platform of platforms) {
    let choice: Awaited<ReturnType<typeof chooseAccount>> | undefined;
    const picked = r.accounts?.[platform];
    if (picked !== undefined) choice = await chooseAccount(ctx, platform, picked);
    else if (wanted !== undefined) {
      try {
        choice = await chooseAccount(ctx, platform, wanted);
        named = true;
      } catch (error) {
        if (!(error instanceof UserError && error.code === 'not-found-account')) throw error;
      }
    }
    choice ??= await chooseAccount(ctx, platform);
    if (choice.kind === 'ask') {
      throw userError('publish-account-ambiguous', {
        platform: platformName(platform),
        count: choice.accounts.length,
      });
    }
    const account = choice.account;
    const title = r.titles?.[platform];
    targets.push({
      platform,
      ...(account ? { account: { authId: account.authId, label: account.label } } : {}),
      ...(title !== undefined ? { title } : {}),
    });
  }
  if (!named)
    throw userError('publish-account-nowhere', {
      platform: platforms.map(platformName).join(', '),
      ref: wanted ?? '',
    });
  return targets;
}

/** `publish <video> <platforms>` with two or more platforms: checks, then one approval or the posts. */
export async function publishSet(ctx: CommandContext, r: PublishSetRequest): Promise<Response> {
  await checkSetArgs(ctx, r);
  const video = await getVideo(ctx, r.videoId);
  const blocked = notPublishable(video, r.videoUrl);
  if (blocked) return blocked;
  const targets = await chooseAccounts(ctx, r);
  const texts = {
    ...(r.privacy ? { privacy: r.privacy } : {}),
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    ...(r.videoUrl !== undefined ? { videoUrl: r.videoUrl } : {}),
  };
  const idempotencyKey = await actionKey(ctx, {
    action: 'publish',
    payload: {
      videoId: video.id,
      set: targets.map((t) => [t.platform, t.account?.authId ?? null, t.title ?? null]),
      ...texts,
    },
    requestId: r.requestId,
  });
  const send: PublishSetSend = { video, targets, idempotencyKey, ...texts };
  if (await needsApproval(ctx, { kind: 'publish' })) {
    return requestApproval(ctx, publishSetApproval(send));
  }
  return message(await sendPublishSet(ctx, send), 'channel');
}

/** One platform's try: its post, or the service's refusal in words (anything else is not the platform's). */
export async function tryPlatform(
  ctx: CommandContext,
  { send, target, attempt }: { send: PublishSetSend; target: PublishTarget; attempt: number },
): Promise<PlatformResult> {
  const key = platformKey(send.idempotencyKey, target.platform, attempt);
  try {
    const url = await postOnce(ctx, publishOfSet(send, target, key));
    return { state: 'posted', ...(url ? { url } : {}) };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { state: 'failed', reason: describeApiError(error), attempt };
  }
}

/**
 * Sends every platform of a checked set in turn (a failure stops none of the others), keeps the results for
 * the card and its Retry now buttons, and answers the card. Used by `publish` and by an approver's click.
 */
export async function sendPublishSet(ctx: CommandContext, send: PublishSetSend): Promise<Card> {
  const results: PublishSetModel['results'] = {};
  for (const target of send.targets)
    results[target.platform] = await tryPlatform(ctx, { send, target, attempt: 0 });
  const model: PublishSetModel = {
    type: 'publish-set',
    args: publishSetArgs(send),
    idempotencyKey: send.idempotencyKey,
    ...(send.approval ? { approval: send.approval } : {}),
    videoName: send.video.name,
    ...(ctx.req.userName ? { byName: ctx.req.userName } : {}),
    results,
  };
  const card = renderPublishSet(model);
  await ctx.deps.store.cards.put(publishSetKey(publishSetId(send.idempotencyKey)), {
    conversation: ctx.req.conversation,
    card,
    model: model as unknown as Record<string, unknown>,
  });
  // A typed command sent again is a replay of this one once every platform is out (typed-replay.ts).
  if (Object.values(results).every((r) => r.state === 'posted'))
    await recordWriteDone(ctx.deps, send.idempotencyKey);
  return card;
}

/** The platforms of a set in the order asked, with each one's account label for the lines. */
function targetsOf(model: PublishSetModel): PublishTarget[] {
  const entries = Array.isArray(model.args.set) ? (model.args.set as Record<string, unknown>[]) : [];
  return entries.flatMap((e) => {
    const platform = e.platform as Platform;
    if (!model.results[platform]) return [];
    const authId = typeof e.authId === 'string' ? e.authId : undefined;
    const label = typeof e.accountLabel === 'string' ? e.accountLabel : authId;
    return [{ platform, ...(authId && label ? { account: { authId, label } } : {}) }];
  });
}

/** One line per platform: posted with its link, or failed with the reason. */
export function publishSetLines(model: PublishSetModel): CardText {
  return joinText(
    targetsOf(model).map((t) => {
      const r = model.results[t.platform];
      if (r?.state === 'posted') return md`✅ ${whereOf(t)}: ${r.url ? link('View post', r.url) : md`sent`}`;
      return md`❌ ${whereOf(t)}: not posted. ${storedText(r?.reason ?? '')}`;
    }),
    '\n',
  );
}

/** The set's card: the lines, a link per post, and a Retry now per platform that failed. */
export function renderPublishSet(model: PublishSetModel): Card {
  const targets = targetsOf(model);
  const posted = targets.filter((t) => model.results[t.platform]?.state === 'posted');
  const setId = publishSetId(model.idempotencyKey);
  const controls: Control[] = [];
  for (const t of targets) {
    const r = model.results[t.platform];
    if (r?.state === 'failed') {
      controls.push({
        kind: 'button',
        action: PUBLISH_RETRY_ACTION,
        value: `${setId}|${encodePlatforms([t.platform])}|${r.attempt}`,
        label: `Retry now: ${platformName(t.platform)}`,
        style: 'primary',
      });
    } else if (r?.url) {
      controls.push({ kind: 'link', label: `View on ${platformName(t.platform)}`, url: r.url });
    }
  }
  const all = posted.length === targets.length;
  const by = model.approval
    ? md`Asked by ${literal(model.approval.requesterName)}, approved by ${literal(model.byName ?? 'an approver')} · `
    : model.byName
      ? md`Published by ${literal(model.byName)} · `
      : md``;
  return {
    title: all
      ? md`Published to ${joinText(
          targets.map((t) => platformName(t.platform)),
          ', ',
        )}`
      : posted.length > 0
        ? md`Published to ${posted.length} of ${targets.length} platforms`
        : md`Not published`,
    tone: all ? 'success' : posted.length > 0 ? 'warning' : 'danger',
    text: md`**${literal(model.videoName)}**\n${publishSetLines(model)}`,
    ...(controls.length > 0 ? { controls } : {}),
    context: md`${by}id ${code(String(model.args.videoId ?? ''))}`,
  };
}
