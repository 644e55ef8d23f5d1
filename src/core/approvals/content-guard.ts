/**
 * What is published is what was approved (DESIGN §5). The service reads a video's name, post details and
 * thumbnail pick at post time, so while a publication of the video waits for approval, or was approved and
 * is scheduled, changing them is itself subject to the policy: someone without the publish role is refused
 * before anything is sent; someone with it changes it, and then the request is replaced (pending: its card
 * says so; approved and scheduled: the post is cancelled at the service) by a new one whose card shows what
 * changed. `meta`, `rename` and the thumbnail pick call `guardContentChange` before their API call and
 * `settle` after it. With approvals off nothing is guarded.
 */
import { workspaceOf } from '../address.js';
import { type CommandContext, userError } from '../context.js';
import { updateVideoCard } from '../live/projections.js';
import { stopScheduleWatch } from '../live/schedule-watcher.js';
import type { Approval } from '../ports.js';
import { getVideo } from '../publishing/schedule-flow.js';
import { literal } from '../text.js';
import { PLATFORMS, type Platform, type Video, VideoApiError } from '../video-api.js';
import { contentChanges } from './content-diff.js';
import { approvalModel, auditApproval, closeExpiryWatch, updateApprovalCard } from './effects.js';
import { formatHolders } from './holders.js';
import type { ApprovedCommand } from './model.js';
import { needsApproval } from './policy.js';
import { videoPreview } from './preview.js';
import { recordRefusal } from './refusals.js';
import { requestApproval } from './request.js';
import { hasRole } from './roles.js';

/** What a command is about to change: one platform's post details, the name, or the thumbnail pick. */
export type ContentChange = { kind: 'meta'; platform: Platform } | { kind: 'name' } | { kind: 'thumbnail' };

export interface ContentGuard {
  /**
   * After the change went through: replaces the requests it touched and asks again with the changes shown.
   * A note for the changer's answer (card markdown), or undefined when nothing was guarded or changed.
   */
  settle(): Promise<string | undefined>;
}

/** A request the change touches: still pending, or approved with its post scheduled at the service. */
interface Guarded {
  approval: Approval;
  state: 'pending' | 'scheduled';
  platforms: Platform[];
}

const NOTHING: ContentGuard = { settle: async () => undefined };
const isPlatform = (v: unknown): v is Platform => (PLATFORMS as readonly unknown[]).includes(v);

function platformsOf(approval: Approval): Platform[] {
  const a = approval.action.args;
  if (approval.action.command === 'publish') return isPlatform(a.platform) ? [a.platform] : [];
  return Array.isArray(a.platforms) ? a.platforms.filter(isPlatform) : [];
}

/** The approved schedule whose post still waits at the service for `videoId`, if the latest one was approved. */
async function approvedSchedule(ctx: CommandContext, videoId: string): Promise<Approval | undefined> {
  const store = ctx.deps.store;
  const workspace = workspaceOf(ctx.req.conversation);
  const watches = (await store.watches.activeWhere({ kind: 'schedule', target: videoId })).filter(
    (w) => workspaceOf(w.conversation) === workspace,
  );
  if (watches.length === 0) return undefined;
  const latest = (await store.audit.list({ workspacePrefix: workspace, videoId, limit: 200 })).find(
    (e) => e.action === 'video.schedule',
  );
  const id = latest?.details?.approval;
  const approval = typeof id === 'string' ? await store.approvals.get(id) : undefined;
  if (approval?.status !== 'approved' || approval.action.command !== 'schedule') return undefined;
  const at = approval.action.args.at;
  if (typeof at !== 'number' || at <= ctx.now()) return undefined;
  if ((await approvalModel(store, approval))?.replacedBecause !== undefined) return undefined;
  return watches.some((w) => w.conversation === approval.conversation) ? approval : undefined;
}

async function findGuarded(ctx: CommandContext, videoId: string, change: ContentChange): Promise<Guarded[]> {
  const found: Guarded[] = (await ctx.deps.store.approvals.pendingIn(workspaceOf(ctx.req.conversation)))
    .filter((a) => ['publish', 'schedule'].includes(a.action.command) && a.action.args.videoId === videoId)
    .map((approval) => ({ approval, state: 'pending', platforms: platformsOf(approval) }));
  const scheduled = await approvedSchedule(ctx, videoId);
  if (scheduled) found.push({ approval: scheduled, state: 'scheduled', platforms: platformsOf(scheduled) });
  return change.kind === 'meta' ? found.filter((g) => g.platforms.includes(change.platform)) : found;
}

const stateWords = (g: Guarded): string =>
  g.state === 'pending' ? 'is waiting for approval' : 'was approved and is scheduled';

/**
 * Checks a change to `videoId`'s published content against the policy, before anything is sent: throws
 * the refusal for someone without the publish role; otherwise the guard to `settle` once it is applied.
 */
export async function guardContentChange(
  ctx: CommandContext,
  o: { videoId: string; change: ContentChange },
): Promise<ContentGuard> {
  if (!(await needsApproval(ctx, { kind: 'publish' }))) return NOTHING;
  const guarded = await findGuarded(ctx, o.videoId, o.change);
  const first = guarded[0];
  if (!first) return NOTHING;
  const settings = await ctx.settings();
  if (!(await hasRole(ctx, 'publish'))) {
    await recordRefusal(ctx, { why: 'content-locked', role: 'publish', approval: first.approval });
    throw userError('content-locked', {
      what: first.approval.action.summary,
      state: stateWords(first),
      who: formatHolders(settings.roles.publish),
    });
  }
  // The change asks again as the changer: refuse now what `requestApproval` would refuse after the change.
  if (settings.approvers.length === 0) throw userError('approval-no-approvers');
  if (!settings.selfApproval && settings.approvers.every((a) => a === ctx.req.user))
    throw userError('approval-only-you');
  const before = await getVideo(ctx, o.videoId);
  return { settle: () => settle(ctx, { videoId: o.videoId, before, guarded }) };
}

async function settle(
  ctx: CommandContext,
  s: { videoId: string; before: Video; guarded: Guarded[] },
): Promise<string | undefined> {
  const after = await getVideo(ctx, s.videoId);
  const platforms = [...new Set(s.guarded.flatMap((g) => g.platforms))];
  const changes = contentChanges(s.before, after, platforms);
  if (changes.length === 0) return undefined;
  if (s.guarded.some((g) => g.state === 'scheduled')) await cancelAtService(ctx, s.videoId);
  const lines: string[] = [];
  for (const g of s.guarded) {
    await retire(ctx, g, changes);
    await reRequest(ctx, g, { before: s.before, after, changes });
    const what =
      g.state === 'pending' ? 'that request is replaced' : 'its scheduled post is cancelled at the service';
    lines.push(
      `**${g.approval.action.summary}** ${stateWords(g)}: ${what}, and a new request shows the approvers what changed.`,
    );
  }
  return lines.join('\n');
}

/** DELETE /posts/{videoId}; a 409 (nothing scheduled any more: it is going out or went) is not an error here. */
async function cancelAtService(ctx: CommandContext, videoId: string): Promise<void> {
  try {
    await (await ctx.api()).posts.cancel(videoId);
  } catch (error) {
    if (!(error instanceof VideoApiError && error.type === 'conflict')) throw error;
  }
}

/** Marks the old request replaced (a pending one can no longer be approved) and, if scheduled, stops its watch. */
async function retire(ctx: CommandContext, g: Guarded, changes: string[]): Promise<void> {
  const store = ctx.deps.store;
  const { approval } = g;
  const now = ctx.now();
  const byName = ctx.req.userName ?? 'a member';
  await store.transaction(async () => {
    if (g.state === 'pending') {
      const decision = { status: 'expired' as const, by: ctx.req.user, at: now, reason: 'content-changed' };
      if (!(await store.approvals.decide(approval.id, decision))) return;
      await closeExpiryWatch(store, approval.id);
    } else {
      const videoId = String(approval.action.args.videoId);
      await stopScheduleWatch(store, videoId);
      await updateVideoCard(store, videoId, {
        patch: {
          schedule: undefined,
          notice: `Schedule cancelled: ${literal(byName)} changed what it would post.`,
        },
        dedupeKey: `approval:${approval.id}:content-changed:video`,
      });
    }
    const patch = { replacedBecause: 'content' as const, replacedByName: byName, replacedAt: now };
    await updateApprovalCard(store, approval, {
      patch: g.state === 'pending' ? { ...patch, status: 'expired' } : patch,
      dedupeKey: `approval:${approval.id}:content-changed`,
    });
    await auditApproval(store, approval, {
      at: now,
      actor: ctx.req.user,
      action: 'approval.replace',
      details: { why: 'content-changed', was: g.state, changes },
    });
  });
}

/** The same action asked again under a new key, its card showing the changes first. */
async function reRequest(
  ctx: CommandContext,
  g: Guarded,
  o: { before: Video; after: Video; changes: string[] },
): Promise<void> {
  const { action } = g.approval;
  const preview = videoPreview(o.after, g.platforms);
  const summary = action.summary.split(`“${literal(o.before.name)}”`).join(`“${literal(o.after.name)}”`);
  const at = typeof action.args.at === 'number' ? action.args.at : undefined;
  const label = g.state === 'pending' ? 'Changed since it was asked' : 'Changed since it was approved';
  await requestApproval(ctx, {
    command: action.command as ApprovedCommand,
    args: action.args,
    idempotencyKey: await ctx.deps.store.idempotency.keyFor(`approval:${g.approval.id}:content:${ctx.now()}`),
    summary,
    fields: [{ label, value: o.changes.join('\n') }, ...preview.fields],
    sections: preview.sections,
    ...(preview.image ? { image: preview.image } : {}),
    ...(at !== undefined ? { at } : {}),
  });
}

/** Appends the guard's note to a command's answer text. */
export const withContentNote = (text: string | undefined, note: string | undefined): string | undefined =>
  note ? [text, note].filter(Boolean).join('\n') : text;
