/**
 * A publication as it will be sent, built once from what its request stores (the args) and the video as it is
 * now: the body the service receives (POST /posts, POST /posts/schedule) and, from that very body, what the
 * approval card shows (title, description, visibility, thumbnail, account, platforms, time). The first
 * request, a request asked again after a change (`content-guard.ts`) and the approved run all go through
 * here, so what approvers read cannot drift from what is sent.
 */
import type { Outgoing } from '../approvals/preview.js';
import { videoPreview } from '../approvals/preview.js';
import type { ApprovalRequest } from '../approvals/request.js';
import { malformed, str } from '../approvals/runner-port.js';
import { platformName } from '../platforms/post-blocks.js';
import type { Approval } from '../ports/index.js';
import { type CardText, joinText, literal, md } from '../text/text.js';
import {
  PLATFORMS,
  type Platform,
  PRIVACY,
  type Privacy,
  type PublishInput,
  type ScheduleInput,
  type Video,
} from '../video-api/video-api.js';
import type { PublishSend } from './publish-flow.js';
import type { PublishSetSend, PublishTarget } from './publish-set.js';
import type { ScheduleSend } from './schedule-flow.js';

type Args = Record<string, unknown>;

/** What a request or a replay stores of a publication: its arguments and the key it is sent with. */
export interface StoredPublication {
  args: Args;
  idempotencyKey: string;
  /** Set when an approver runs someone else's request. */
  approval?: { id: string; requesterName: string } | undefined;
}

const isPlatform = (v: unknown): v is Platform => (PLATFORMS as readonly unknown[]).includes(v);
const isPrivacy = (v: unknown): v is Privacy => (PRIVACY as readonly unknown[]).includes(v);

/** The video a stored publication is about; a row without one is malformed. */
export const storedVideoId = (args: Args): string => str(args.videoId) ?? malformed();

/** `YouTube (Brand channel)`, as card markdown (the account label is escaped). */
export const whereOf = (s: Pick<PublishSend, 'platform' | 'account'>): CardText =>
  literal(
    `${platformName(s.platform)}${s.account && s.account.label !== s.account.authId ? ` (${s.account.label})` : ''}`,
  );

// ——— publish now ———

/** What an approval or a replay stores of a publish. */
export const publishArgs = (s: PublishSend): Args => ({
  videoId: s.video.id,
  platform: s.platform,
  ...(s.account ? { authId: s.account.authId, accountLabel: s.account.label } : {}),
  ...(s.privacy ? { privacy: s.privacy } : {}),
  ...(s.title !== undefined ? { title: s.title } : {}),
  ...(s.description !== undefined ? { description: s.description } : {}),
  ...(s.videoUrl !== undefined ? { videoUrl: s.videoUrl } : {}),
});

/** A publish as stored by `publishArgs`, for `video` as it is now. */
export function publishSendOf(video: Video, stored: StoredPublication): PublishSend {
  const { args } = stored;
  if (video.id !== storedVideoId(args) || !isPlatform(args.platform)) malformed();
  const authId = str(args.authId);
  return {
    video,
    platform: args.platform,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
    ...(authId ? { account: { authId, label: str(args.accountLabel) ?? authId } } : {}),
    ...(isPrivacy(args.privacy) ? { privacy: args.privacy } : {}),
    ...(typeof args.title === 'string' ? { title: args.title } : {}),
    ...(typeof args.description === 'string' ? { description: args.description } : {}),
    ...(typeof args.videoUrl === 'string' ? { videoUrl: args.videoUrl } : {}),
  };
}

/** The body of POST /posts: exactly what the service receives. */
export const publishBody = (s: PublishSend): PublishInput => ({
  videoId: s.video.id,
  platform: s.platform,
  ...(s.account ? { authId: s.account.authId } : {}),
  ...(s.privacy ? { privacyStatus: s.privacy } : {}),
  ...(s.title !== undefined ? { title: s.title } : {}),
  ...(s.description !== undefined ? { description: s.description } : {}),
  ...(s.videoUrl !== undefined ? { videoUrl: s.videoUrl } : {}),
});

function publishRequest(video: Video, stored: StoredPublication): ApprovalRequest {
  const send = publishSendOf(video, stored);
  const body = publishBody(send);
  const outgoing: Outgoing = {
    platforms: [body.platform],
    title: body.title,
    description: body.description,
    privacy: body.privacyStatus,
    account: body.authId !== undefined ? send.account?.label : undefined,
    videoUrl: body.videoUrl,
  };
  const preview = videoPreview(video, outgoing);
  return {
    command: 'publish',
    args: publishArgs(send),
    idempotencyKey: send.idempotencyKey,
    summary: md`Publish “${literal(video.name)}” to ${whereOf(send)} now`,
    fields: preview.fields,
    sections: preview.sections,
    ...(preview.image ? { image: preview.image } : {}),
  };
}

/** The approval request of a checked publish: its card read off the args and body the approval will send. */
export const publishApproval = (s: PublishSend): ApprovalRequest =>
  publishRequest(s.video, { args: publishArgs(s), idempotencyKey: s.idempotencyKey });

// ——— publish now, to several platforms ———

/** What an approval stores of a publish to several platforms: one entry per platform, with its account. */
export const publishSetArgs = (s: PublishSetSend): Args => ({
  videoId: s.video.id,
  set: s.targets.map((t) => ({
    platform: t.platform,
    ...(t.account ? { authId: t.account.authId, accountLabel: t.account.label } : {}),
    ...(t.title !== undefined ? { title: t.title } : {}),
  })),
  ...(s.privacy ? { privacy: s.privacy } : {}),
  ...(s.title !== undefined ? { title: s.title } : {}),
  ...(s.description !== undefined ? { description: s.description } : {}),
  ...(s.videoUrl !== undefined ? { videoUrl: s.videoUrl } : {}),
});

/** Whether stored publish args are a set (several platforms) rather than one platform's. */
export const isPublishSet = (args: Args): boolean => Array.isArray(args.set);

/** A publish to several platforms as stored by `publishSetArgs`, for `video` as it is now. */
export function publishSetSendOf(video: Video, stored: StoredPublication): PublishSetSend {
  const { args } = stored;
  const entries = Array.isArray(args.set) ? (args.set as unknown[]) : [];
  const targets: PublishTarget[] = entries.flatMap((e) => {
    const entry = (e ?? {}) as Args;
    if (!isPlatform(entry.platform)) return [];
    const authId = str(entry.authId);
    return [
      {
        platform: entry.platform,
        ...(authId ? { account: { authId, label: str(entry.accountLabel) ?? authId } } : {}),
        ...(typeof entry.title === 'string' ? { title: entry.title } : {}),
      },
    ];
  });
  if (video.id !== storedVideoId(args) || targets.length === 0 || targets.length !== entries.length)
    malformed();
  return {
    video,
    targets,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
    ...(isPrivacy(args.privacy) ? { privacy: args.privacy } : {}),
    ...(typeof args.title === 'string' ? { title: args.title } : {}),
    ...(typeof args.description === 'string' ? { description: args.description } : {}),
    ...(typeof args.videoUrl === 'string' ? { videoUrl: args.videoUrl } : {}),
  };
}

/**
 * One platform's publish of a set, sent with `idempotencyKey` (the set's key and the platform: each POST /posts
 * has its own). Visibility goes to YouTube only.
 */
export const publishOfSet = (s: PublishSetSend, t: PublishTarget, idempotencyKey: string): PublishSend => ({
  video: s.video,
  platform: t.platform,
  idempotencyKey,
  ...(t.account ? { account: t.account } : {}),
  ...(s.privacy && t.platform === 'youtube' ? { privacy: s.privacy } : {}),
  ...(t.title !== undefined ? { title: t.title } : s.title !== undefined ? { title: s.title } : {}),
  ...(s.description !== undefined ? { description: s.description } : {}),
  ...(s.videoUrl !== undefined ? { videoUrl: s.videoUrl } : {}),
  ...(s.approval ? { approval: s.approval } : {}),
});

function publishSetRequest(video: Video, stored: StoredPublication): ApprovalRequest {
  const send = publishSetSendOf(video, stored);
  // The card is read off each platform's body: its title and account; description and video URL are the set's.
  const bodies = send.targets.map((t) => publishBody(publishOfSet(send, t, send.idempotencyKey)));
  const accounts: Partial<Record<Platform, string>> = {};
  const titles: Partial<Record<Platform, string>> = {};
  send.targets.forEach((t, i) => {
    if (t.account) accounts[t.platform] = t.account.label;
    const title = bodies[i]?.title;
    if (title !== undefined) titles[t.platform] = title;
  });
  const preview = videoPreview(video, {
    platforms: send.targets.map((t) => t.platform),
    description: bodies[0]?.description,
    privacy: send.privacy,
    accounts,
    titles,
    videoUrl: bodies[0]?.videoUrl,
  });
  return {
    command: 'publish',
    args: publishSetArgs(send),
    idempotencyKey: send.idempotencyKey,
    summary: md`Publish “${literal(video.name)}” to ${joinText(send.targets.map(whereOf), ', ')} now`,
    fields: preview.fields,
    sections: preview.sections,
    ...(preview.image ? { image: preview.image } : {}),
  };
}

/** The approval request of a checked publish to several platforms: one request for the whole set. */
export const publishSetApproval = (s: PublishSetSend): ApprovalRequest =>
  publishSetRequest(s.video, { args: publishSetArgs(s), idempotencyKey: s.idempotencyKey });

// ——— schedule ———

/** What an approval or a replay stores of a schedule. */
export const scheduleArgs = (s: Omit<ScheduleSend, 'idempotencyKey'>): Args => ({
  videoId: s.video.id,
  platforms: s.platforms,
  at: s.at,
  ...(s.approval ? { approval: s.approval } : {}),
  ...(s.move ? { move: true } : {}),
});

/** A schedule as stored by `scheduleArgs`, for `video` as it is now. */
export function scheduleSendOf(video: Video, stored: StoredPublication): ScheduleSend {
  const { args } = stored;
  const platforms = Array.isArray(args.platforms) ? args.platforms.filter(isPlatform) : [];
  const at = typeof args.at === 'number' ? args.at : undefined;
  if (video.id !== storedVideoId(args) || platforms.length === 0 || at === undefined) malformed();
  return {
    video,
    platforms,
    at,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
    // A Move asked once (move-flow.ts): the approver's click cancels and schedules again.
    ...(args.move === true ? { move: true } : {}),
  };
}

/** The body of POST /posts/schedule: exactly what the service receives. */
export const scheduleBody = (s: ScheduleSend): ScheduleInput => ({
  videoId: s.video.id,
  platforms: s.platforms,
  scheduledTime: new Date(s.at).toISOString(),
});

function scheduleRequest(video: Video, stored: StoredPublication): ApprovalRequest {
  const send = scheduleSendOf(video, stored);
  const body = scheduleBody(send);
  const at = Date.parse(body.scheduledTime);
  // The service posts a schedule with each platform's default account and the stored post details.
  const preview = videoPreview(video, { platforms: body.platforms, at });
  return {
    command: 'schedule',
    args: scheduleArgs(send),
    idempotencyKey: send.idempotencyKey,
    summary: send.move
      ? md`Move “${literal(video.name)}” on ${joinText(body.platforms.map(platformName), ', ')} to a new time`
      : md`Schedule “${literal(video.name)}” on ${joinText(body.platforms.map(platformName), ', ')}`,
    fields: preview.fields,
    sections: preview.sections,
    ...(preview.image ? { image: preview.image } : {}),
    at,
  };
}

/** The approval request of a checked schedule: its card read off the args and body the approval will send. */
export const scheduleApproval = (s: ScheduleSend): ApprovalRequest =>
  scheduleRequest(s.video, { args: scheduleArgs(s), idempotencyKey: s.idempotencyKey });

// ——— asked again ———

/** A stored publish or schedule request, asked again for `video` as it is now (its card from the same args). */
export function publicationApproval(video: Video, action: Approval['action']): ApprovalRequest {
  const stored = { args: action.args, idempotencyKey: action.idempotencyKey };
  if (action.command === 'publish')
    return isPublishSet(action.args) ? publishSetRequest(video, stored) : publishRequest(video, stored);
  if (action.command === 'schedule') return scheduleRequest(video, stored);
  return malformed();
}
