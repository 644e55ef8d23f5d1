/**
 * The replays of remote writes whose local record failed (`effects/reconcile.ts`), and the readers of the
 * arguments they and approvals store: the same functions the commands use, with the stored idempotency key.
 */
import { type CommandContext, userError } from '../context.js';
import type { EffectRunners } from '../effects/reconcile.js';
import { PLATFORMS, type Platform, PRIVACY, type Privacy } from '../video-api.js';
import { type PublishSend, sendPublish } from './publishing/publish-flow.js';
import { getVideo, type ScheduleSend, sendSchedule } from './publishing/schedule-flow.js';
import { generateEpisode } from './series/generate.js';
import { approveCreate } from './videos/create-confirm.js';

type Args = Record<string, unknown>;
type ApprovalInfo = { id: string; requesterName: string };

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const isPlatform = (v: unknown): v is Platform => (PLATFORMS as readonly unknown[]).includes(v);

/** Arguments come from our own store, but a bad row must fail clearly rather than send something odd. */
export function malformed(): never {
  throw userError('approval-malformed');
}

/** A stored `approval` argument (a replay of an approved write), when well formed. */
function approvalOf(args: Args): ApprovalInfo | undefined {
  const a = args.approval as Partial<ApprovalInfo> | undefined;
  return a && str(a.id) && typeof a.requesterName === 'string'
    ? { id: a.id as string, requesterName: a.requesterName }
    : undefined;
}

/** A publish as stored by `publishArgs`, with the video read again. */
export async function publishSendOf(
  ctx: CommandContext,
  stored: { args: Args; idempotencyKey: string; approval?: ApprovalInfo | undefined },
): Promise<PublishSend> {
  const { args } = stored;
  const videoId = str(args.videoId);
  if (!videoId || !isPlatform(args.platform)) malformed();
  const authId = str(args.authId);
  const privacy = (PRIVACY as readonly unknown[]).includes(args.privacy)
    ? (args.privacy as Privacy)
    : undefined;
  return {
    video: await getVideo(ctx, videoId),
    platform: args.platform,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
    ...(authId ? { account: { authId, label: str(args.accountLabel) ?? authId } } : {}),
    ...(privacy ? { privacy } : {}),
  };
}

/** A schedule as stored by `scheduleArgs`, with the video read again. */
export async function scheduleSendOf(
  ctx: CommandContext,
  stored: { args: Args; idempotencyKey: string; approval?: ApprovalInfo | undefined },
): Promise<ScheduleSend> {
  const { args } = stored;
  const videoId = str(args.videoId);
  const platforms = Array.isArray(args.platforms) ? args.platforms.filter(isPlatform) : [];
  const at = typeof args.at === 'number' ? args.at : undefined;
  if (!videoId || platforms.length === 0 || at === undefined) malformed();
  return {
    video: await getVideo(ctx, videoId),
    platforms,
    at,
    idempotencyKey: stored.idempotencyKey,
    ...(stored.approval ? { approval: stored.approval } : {}),
  };
}

export const EFFECT_RUNNERS: EffectRunners = {
  async create(ctx, effect) {
    const requestId = str(effect.args.requestId);
    if (!requestId) malformed();
    await approveCreate(ctx, requestId, effect.idempotencyKey);
  },
  async publish(ctx, effect) {
    await sendPublish(ctx, await publishSendOf(ctx, { ...effect, approval: approvalOf(effect.args) }));
  },
  async schedule(ctx, effect) {
    await sendSchedule(ctx, await scheduleSendOf(ctx, { ...effect, approval: approvalOf(effect.args) }));
  },
  async 'series.generate'(ctx, effect) {
    const seriesId = str(effect.args.seriesId);
    if (!seriesId) malformed();
    const approval = approvalOf(effect.args);
    await generateEpisode(ctx, {
      seriesId,
      idempotencyKey: effect.idempotencyKey,
      ...(approval ? { approval } : {}),
    });
  },
};
