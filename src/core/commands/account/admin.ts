/**
 * Channel configuration (settings, subscriptions) is limited to the channel's `admin` role when one is
 * set; an empty role means everyone may (ChannelSettings.roles).
 */
import { type CommandContext, userError } from '../../context.js';
import { formatMentions, isAmong } from './mentions.js';

export function requireAdmin(ctx: CommandContext, what: string): void {
  const admins = ctx.settings().roles.admin;
  if (admins.length === 0 || isAmong(admins, ctx.req.user, ctx.req.memberOf)) return;
  throw userError('not-allowed', { who: formatMentions(admins), what });
}
