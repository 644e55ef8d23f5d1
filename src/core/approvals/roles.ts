/**
 * Who may run each class of action (`settings role publish|spend|admin @who|everyone`: the workspace's,
 * tightened by the channel's). `everyone` is its own value; a list admits exactly those named, and an empty
 * one (a channel's list and the workspace's with no one in common) admits nobody. Approvals are separate: a
 * role says who may ask, the approval policy who must agree.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { formatMentions } from '../people/mentions.js';
import { admitsNobody, holds } from './holders.js';
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
  return holds((await ctx.settings()).roles[role], ctx.req.user, ctx.req.memberOf);
}

/** Throws the `not-allowed` refusal naming who may, before anything is sent to the API. */
export async function checkRole(ctx: CommandContext, role: Role): Promise<void> {
  if (await hasRole(ctx, role)) return;
  await recordRefusal(ctx, { why: 'not-allowed', role });
  const holders = (await ctx.settings()).roles[role];
  // `holds` admitted everyone already: a refusal names a list.
  if (holders === 'everyone' || admitsNobody(holders))
    throw userError('role-nobody', { what: ROLE_ACTIONS[role], role });
  throw userError('not-allowed', { who: formatMentions(holders), what: ROLE_ACTIONS[role] });
}
