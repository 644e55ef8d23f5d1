/** Who acts where, as the core wants it: the Slack payload's ids plus the member's profile and groups. */
import type { webApi } from '@slack/bolt';
import {
  channelsOf,
  conversationAddress,
  type Mentioned,
  mentionsOf,
  messageAddress,
  type RequestInfo,
  userAddress,
} from '../../src/core/index.js';
import { slackChannelAccess } from './channel-access.js';
import { groupRef } from './groups.js';
import { SLACK_CAPABILITIES } from './index.js';
import type { ListenerContext } from './listeners/context.js';
import { slackMembership } from './membership.js';

export interface Where {
  team: string;
  user: string;
  channel: string;
  userName?: string | undefined;
  messageTs?: string;
  /** The member's own workspace as the payload names it (another organisation's in a Slack Connect channel). */
  userTeam?: string | undefined;
  /** What the member typed (a command's text), for the mentions in it. */
  text?: string;
}

/** A member `<@U1>` / `<@U1|name>` or a user group `<!subteam^S1|@name>`, as Slack writes them. */
const SLACK_MENTION = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>|<!subteam\^([A-Z0-9]+)(?:\|[^>]*)?>/g;

/** The mentions in `text` with the neutral reference of each (`slack:T1:U1`, `slack-group:S1`). */
export const mentionsIn = (text: string, team: string): Mentioned[] =>
  [...text.matchAll(SLACK_MENTION)].map((m) => ({
    text: m[0],
    ref: m[1] ? userAddress('slack', team, m[1]) : groupRef(m[2] as string),
  }));

/** A channel `<#C1>` / `<#C1|name>`, as Slack writes it. */
const SLACK_CHANNEL = /<#([CG][A-Z0-9]+)(?:\|[^>]*)?>/g;

/** The channels named in `text`, each as a conversation address of this workspace (`slack:T1:C1`). */
export const channelsIn = (text: string, team: string): Mentioned[] =>
  [...text.matchAll(SLACK_CHANNEL)].map((m) => ({
    text: m[0],
    ref: conversationAddress('slack', team, m[1] as string),
  }));

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
    capabilities: SLACK_CAPABILITIES,
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
    ...mentionsOf(mentionsIn(where.text ?? '', where.team)),
    ...channelsOf(channelsIn(where.text ?? '', where.team)),
    conversations: slackMembership(client, where.user),
    channelAccess: slackChannelAccess(client),
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
