/**
 * Who may run each class of action (`settings role publish|spend|admin @who`: the workspace's, tightened by
 * the channel's). An empty list
 * means everyone may. Approvals are separate: a role says who may ask, the approval policy who must agree.
 */

import { type CommandContext, userError } from '../context.js';
import { formatMentions, isAmong } from '../people/mentions.js';
import { recordRefusal } from './refusals.js';

export type Role = 'publish' | 'spend' | 'admin';

/** What each role allows, as the refusal names it ("Only @bob may <what> in this channel."). */
export const ROLE_ACTIONS: Record<Role, string> = {
  publish:
    'publish, schedule, unschedule or delete videos and series, start a series, or change where, when or with which model a series posts',
  spend: "spend credits (create videos; start, resume or generate series; change a series' model or length)",
  admin: 'change settings and subscriptions',
};

/** Whether the caller holds `role` here (directly, or through a group/role they are in). */
export async function hasRole(ctx: CommandContext, role: Role): Promise<boolean> {
  const holders = (await ctx.settings()).roles[role];
  return holders.length === 0 || isAmong(holders, ctx.req.user, ctx.req.memberOf);
}

/** Throws the `not-allowed` refusal naming who may, before anything is sent to the API. */
export async function checkRole(ctx: CommandContext, role: Role): Promise<void> {
  if (await hasRole(ctx, role)) return;
  await recordRefusal(ctx, { why: 'not-allowed', role });
  throw userError('not-allowed', {
    who: formatMentions((await ctx.settings()).roles[role]),
    what: ROLE_ACTIONS[role],
  });
}
