/**
 * What is published is what was approved (DESIGN §5). The service reads a video's name, post details and
 * thumbnail pick at post time, so while a publication of the video waits for approval, or was approved and
 * is scheduled, changing them is itself subject to the policy: someone without the publish role is refused
 * before anything is sent; someone with it changes it, and then the request is replaced (pending: its card
 * says so; approved and scheduled: the post is cancelled at the service) by a new one whose card shows what
 * changed. `meta`, `rename` and the thumbnail pick call `guardContentChange` before their API call and
 * `settle` after it. Each request is judged by its own conversation's policy, wherever the change is typed (a
 * DM, another channel), and asked again there; a request whose conversation no longer asks for approval
 * guards nothing.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { updateVideoCard } from '../live/projections.js';
import { stopScheduleWatch } from '../live/schedule-watcher.js';
import { workspaceOf } from '../ports/address.js';
import type { Approval } from '../ports/index.js';
import { publicationApproval } from '../publishing/publication.js';
import { getVideo } from '../publishing/schedule-flow.js';
import { type CardText, channel, joinText, literal, md, storedText } from '../text/text.js';
import { PLATFORMS, type Platform, type Video, VideoApiError } from '../video-api/video-api.js';
import { contentChanges } from './content-diff.js';
import { approvalModel, auditApproval, closeExpiryWatch, updateApprovalCard } from './effects.js';
import { formatHolders } from './holders.js';
import { needsApproval } from './policy.js';
import { recordRefusal } from './refusals.js';
import { requestApproval } from './request.js';
import { hasRole } from './roles.js';
import { contextWhereAsked } from './where-asked.js';

/** What a command is about to change: one platform's post details, the name, or the thumbnail pick. */
export type ContentChange = { kind: 'meta'; platform: Platform } | { kind: 'name' } | { kind: 'thumbnail' };

export interface ContentGuard {
  /**
   * After the change went through: replaces the requests it touched and asks again with the changes shown.
   * A note for the changer's answer (card markdown), or undefined when nothing was guarded or changed.
   */
  settle(): Promise<CardText | undefined>;
}

/**
 * A request the change touches: still pending, or approved with its post scheduled at the service; `there` is
 * the changer as the request's own conversation sees them (its policy decides, its card is asked again).
 */
interface Guarded {
  approval: Approval;
  state: 'pending' | 'scheduled';
  platforms: Platform[];
  there: CommandContext;
}

const NOTHING: ContentGuard = { settle: async () => undefined };
const isPlatform = (v: unknown): v is Platform => (PLATFORMS as readonly unknown[]).includes(v);
const PUBLICATIONS: readonly string[] = ['publish', 'schedule'];

function platformsOf(approval: Approval): Platform[] {
  const a = approval.action.args;
  if (approval.action.command === 'publish' && Array.isArray(a.set))
    return a.set.flatMap((e) => (isPlatform((e as { platform?: unknown })?.platform) ? [e.platform] : []));
  if (approval.action.command === 'publish') return isPlatform(a.platform) ? [a.platform] : [];
  return Array.isArray(a.platforms) ? a.platforms.filter(isPlatform) : [];
}

/**
 * The approved schedules whose posts still wait at the service for `videoId`: in each workspace watching a
 * schedule of the video, the latest schedule there, if it was approved.
 */
async function approvedSchedules(ctx: CommandContext, videoId: string): Promise<Approval[]> {
  const store = ctx.deps.store;
  const watches = await store.watches.activeWhere({ kind: 'schedule', target: videoId });
  const found: Approval[] = [];
  for (const workspace of new Set(watches.map((w) => workspaceOf(w.conversation)))) {
    const latest = (await store.audit.list({ workspacePrefix: workspace, videoId, limit: 200 })).find(
      (e) => e.action === 'video.schedule',
    );
    const id = latest?.details?.approval;
    const approval = typeof id === 'string' ? await store.approvals.get(id) : undefined;
    if (approval?.status !== 'approved' || approval.action.command !== 'schedule') continue;
    const at = approval.action.args.at;
    if (typeof at !== 'number' || at <= ctx.now()) continue;
    if ((await approvalModel(store, approval))?.replacedBecause !== undefined) continue;
    if (watches.some((w) => w.conversation === approval.conversation)) found.push(approval);
  }
  return found;
}

/**
 * The requests that publish `videoId`, wherever they were asked and wherever the change is typed, each kept
 * if its own conversation's policy still asks for approval.
 */
async function findGuarded(ctx: CommandContext, videoId: string, change: ContentChange): Promise<Guarded[]> {
  const pending = (await ctx.deps.store.approvals.pendingAbout(videoId))
    .filter((a) => PUBLICATIONS.includes(a.action.command))
    .map((approval) => ({ approval, state: 'pending' as const }));
  const scheduled = (await approvedSchedules(ctx, videoId)).map((approval) => ({
    approval,
    state: 'scheduled' as const,
  }));
  const found: Guarded[] = [];
  for (const { approval, state } of [...pending, ...scheduled]) {
    const platforms = platformsOf(approval);
    if (change.kind === 'meta' && !platforms.includes(change.platform)) continue;
    const there = contextWhereAsked(ctx, approval.conversation);
    if (await needsApproval(there, { kind: 'publish' })) found.push({ approval, state, platforms, there });
  }
  return found;
}

const stateWords = (g: Guarded): CardText =>
  g.state === 'pending' ? md`is waiting for approval` : md`was approved and is scheduled`;

/**
 * Checks a change to `videoId`'s published content against the policy, before anything is sent: throws
 * the refusal for someone without the publish role; otherwise the guard to `settle` once it is applied.
 */
export async function guardContentChange(
  ctx: CommandContext,
  o: { videoId: string; change: ContentChange },
): Promise<ContentGuard> {
  const guarded = await findGuarded(ctx, o.videoId, o.change);
  if (guarded.length === 0) return NOTHING;
  for (const g of guarded) await checkChanger(g);
  const before = await getVideo(ctx, o.videoId);
  return { settle: () => settle(ctx, { videoId: o.videoId, before, guarded }) };
}

/** Refuses, by the request's own conversation's policy, a changer who may not change what it publishes. */
async function checkChanger(g: Guarded): Promise<void> {
  const { there } = g;
  const settings = await there.settings();
  if (!(await hasRole(there, 'publish'))) {
    await recordRefusal(there, { why: 'content-locked', role: 'publish', approval: g.approval });
    throw userError('content-locked', {
      what: g.approval.action.summary,
      state: stateWords(g),
      who: formatHolders(settings.roles.publish),
    });
  }
  // The change asks again as the changer: refuse now what `requestApproval` would refuse after the change.
  if (settings.approvers.length === 0) throw userError('approval-no-approvers');
  if (!settings.selfApproval && settings.approvers.every((a) => a === there.req.user))
    throw userError('approval-only-you');
}

async function settle(
  ctx: CommandContext,
  s: { videoId: string; before: Video; guarded: Guarded[] },
): Promise<CardText | undefined> {
  const after = await getVideo(ctx, s.videoId);
  const platforms = [...new Set(s.guarded.flatMap((g) => g.platforms))];
  const changes = contentChanges(s.before, after, platforms);
  if (changes.length === 0) return undefined;
  if (s.guarded.some((g) => g.state === 'scheduled')) await cancelAtService(ctx, s.videoId);
  const lines: CardText[] = [];
  for (const g of s.guarded) {
    await retire(g, changes);
    await reRequest(g, { after, changes });
    const what =
      g.state === 'pending'
        ? md`that request is replaced`
        : md`its scheduled post is cancelled at the service`;
    const where =
      g.approval.conversation === ctx.req.conversation ? md`` : md` in ${channel(g.approval.conversation)}`;
    lines.push(
      md`**${storedText(g.approval.action.summary)}** ${stateWords(g)}: ${what}, and a new request${where} shows the approvers what changed.`,
    );
  }
  return joinText(lines, '\n');
}

/** DELETE /posts/{videoId}; a 409 (nothing scheduled any more: it is going out or went) is not an error here. */
async function cancelAtService(ctx: CommandContext, videoId: string): Promise<void> {
  try {
    const api = await ctx.api();
    await api.posts.cancel(videoId);
  } catch (error) {
    if (!(error instanceof VideoApiError && error.type === 'conflict')) throw error;
  }
}

/** Marks the old request replaced (a pending one can no longer be approved) and, if scheduled, stops its watch. */
async function retire(g: Guarded, changes: string[]): Promise<void> {
  const ctx = g.there;
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
          notice: md`Schedule cancelled: ${literal(byName)} changed what it would post.`,
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

/**
 * The same action asked again under a new key, in the request's conversation: its card built from the stored
 * args for the video as it is now (what will be sent), the changes first.
 */
async function reRequest(g: Guarded, o: { after: Video; changes: CardText[] }): Promise<void> {
  const ctx = g.there;
  const again = publicationApproval(o.after, g.approval.action);
  const label = g.state === 'pending' ? md`Changed since it was asked` : md`Changed since it was approved`;
  await requestApproval(ctx, {
    ...again,
    idempotencyKey: await ctx.deps.store.idempotency.keyFor(`approval:${g.approval.id}:content:${ctx.now()}`),
    fields: [{ label, value: joinText(o.changes, '\n') }, ...(again.fields ?? [])],
  });
}

/** Appends the guard's note to a command's answer text. */
export const withContentNote = (
  text: CardText | undefined,
  note: CardText | undefined,
): CardText | undefined => (note ? joinText(text ? [text, note] : [note], '\n') : text);
