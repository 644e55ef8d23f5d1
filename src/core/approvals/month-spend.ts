/**
 * The monthly cap (DESIGN §5, budgets: `settings monthly-cap N`): what the team has spent this calendar month,
 * in the workspace's zone, read from the credits ledger (GET /credits, newest first), and whether a spend
 * would take it past the cap. A ledger that cannot be read counts as past it: the spend then waits for an
 * approver rather than slip through (fail closed).
 */

import type { CommandContext } from '../dispatch/context.js';
import { type CardText, md } from '../text/text.js';
import { startOfDay } from '../time/index.js';
import { dayKey } from '../time/zone.js';
import { ledgerSpend } from '../video-api/ledger-spend.js';
import { VideoApiError } from '../video-api/video-api.js';

/** Credits spent since the first of this month in `zone`; undefined when the ledger cannot be read. */
export async function spentThisMonth(ctx: CommandContext, zone: string): Promise<number | undefined> {
  const since = startOfDay(`${dayKey(ctx.now(), zone).slice(0, 8)}01`, zone);
  try {
    return (await ledgerSpend(await ctx.api(), { since }))?.spent;
  } catch (e) {
    if (e instanceof VideoApiError) return undefined;
    throw e;
  }
}

/** Whether spending `credits` (undefined: unknown) now would take this month's spend past the cap. */
export async function passesMonthlyCap(ctx: CommandContext, credits: number | undefined): Promise<boolean> {
  const s = await ctx.settings();
  if (s.monthlyCap === undefined) return false;
  if (credits === undefined) return true;
  const spent = await spentThisMonth(ctx, s.timeZone ?? 'UTC');
  return spent === undefined || spent + credits > s.monthlyCap;
}

/** Why a spend's Confirm asks an approver: the per-action threshold, or this month's cap. */
export async function spendApprovalNote(ctx: CommandContext, credits: number | undefined): Promise<CardText> {
  const s = await ctx.settings();
  const overThreshold = s.approval === 'spend' && (credits === undefined || credits > s.spendThreshold);
  if (overThreshold || s.monthlyCap === undefined)
    return md`This channel needs an approver for spending over ${s.spendThreshold} credits: nothing is charged until one approves.`;
  return md`This would take this month’s spending past the team’s monthly cap of ${s.monthlyCap} credits, so it needs an approver: nothing is charged until one approves.`;
}
