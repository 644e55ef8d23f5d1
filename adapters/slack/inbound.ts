/** Who acts where, as the core wants it: the Slack payload's ids plus the member's profile and groups. */
import type { webApi } from '@slack/bolt';
import { conversationAddress, messageAddress, userAddress } from '../../src/core/address.js';
import type { RequestInfo } from '../../src/core/context.js';
import type { ListenerContext } from './listeners/context.js';

export interface Where {
  team: string;
  user: string;
  channel: string;
  userName?: string | undefined;
  messageTs?: string;
  /** The member's own workspace as the payload names it (another organisation's in a Slack Connect channel). */
  userTeam?: string | undefined;
}

export async function requestInfo(
  ctx: ListenerContext,
  client: webApi.WebClient,
  where: Where,
): Promise<RequestInfo> {
  // Both are cached; on a cold cache the two Web API calls run side by side.
  const [person, membership] = await Promise.all([
    ctx.people.lookup(client, where.team, where.user),
    ctx.groups.membership(client, where.team, where.user),
  ]);
  const conversation = conversationAddress('slack', where.team, where.channel);
  const userName = person.name ?? where.userName;
  return {
    platform: 'slack',
    user: userAddress('slack', where.team, where.user),
    conversation,
    ...(userName ? { userName } : {}),
    ...(person.timeZone ? { platformTimeZone: person.timeZone } : {}),
    // A membership Slack could not confirm lately counts for nothing; the core refuses what needs it.
    memberOf: membership.verified ? membership.groups : [],
    ...(membership.verified ? {} : { membershipUnverified: true }),
    ...(person.isAdmin ? { isWorkspaceAdmin: true } : {}),
    ...externalOrg(ctx, where),
    ...(where.messageTs ? { message: messageAddress(conversation, where.messageTs) } : {}),
  };
}

/** A member whose own workspace is not the one the app serves here: a guest from another organisation. */
function externalOrg(
  ctx: ListenerContext,
  where: { team: string; userTeam?: string | undefined },
): { externalOrg?: string } {
  const own = where.userTeam ?? where.team;
  const home = ctx.homeTeam?.() ?? where.team;
  return own === home ? {} : { externalOrg: `slack:${own}` };
}
