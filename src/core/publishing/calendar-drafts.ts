/**
 * Schedules still waiting for approval, as the calendar shows them (DESIGN §10: drafts, marked so): the
 * workspace's pending `schedule` requests whose time falls in the range, one per platform, with the approvers
 * each waits for. A request past its expiry is about to be expired by the poller and is left out.
 */
import { approvalModel } from '../approvals/effects.js';
import type { CommandContext } from '../dispatch/context.js';
import { workspaceOf } from '../ports/address.js';
import { isPlatform } from './action-state.js';

export interface Draft {
  at: number;
  platform: string;
  videoId: string;
  /** Mention references of the people and groups who may approve it. */
  approvers: readonly string[];
}

/** The drafts between `from` (included) and `to` (excluded), on `platform` when given, oldest first. */
export async function calendarDrafts(
  ctx: CommandContext,
  range: { from: number; to: number; platform?: string | undefined },
): Promise<Draft[]> {
  const now = ctx.now();
  const pending = await ctx.deps.store.approvals.pendingIn(workspaceOf(ctx.req.conversation));
  const drafts: Draft[] = [];
  for (const approval of pending) {
    const { command, args } = approval.action;
    if (command !== 'schedule' || (approval.expiresAt !== null && approval.expiresAt <= now)) continue;
    const at = typeof args.at === 'number' ? args.at : Number.NaN;
    const videoId = typeof args.videoId === 'string' ? args.videoId : undefined;
    if (!videoId || !(at >= range.from && at < range.to)) continue;
    const platforms = (Array.isArray(args.platforms) ? args.platforms : [])
      .filter((p): p is string => typeof p === 'string' && isPlatform(p))
      .filter((p) => range.platform === undefined || p === range.platform);
    if (platforms.length === 0) continue;
    const approvers = (await approvalModel(ctx.deps.store, approval))?.approvers ?? [];
    for (const platform of platforms) drafts.push({ at, platform, videoId, approvers });
  }
  return drafts.sort((a, b) => a.at - b.at);
}
