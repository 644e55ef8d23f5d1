/** An interaction as the core's request: who, where (guild or DM), roles and whether they are known. */
import {
  DM_WORKSPACE as CORE_DM_WORKSPACE,
  channelsOf,
  conversationAddress,
  groupReference,
  type Mentioned,
  mentionsOf,
  messageAddress,
  type RequestInfo,
  userAddress,
} from '../../src/core/index.js';
import type { InboundBase } from './inbound.js';
import { DISCORD_CAPABILITIES } from './index.js';

/** The workspace part of addresses in direct messages, which have no guild. */
export const DM_WORKSPACE = CORE_DM_WORKSPACE;

/** How a role is referred to (`memberOf`, approvers and roles, mentions): `discord-role:<id>`. */
const roleRef = (id: string): string => groupReference('discord', 'role', id);

/** Manage Server (0x20) or Administrator (0x8): a guild admin, who sets the team policy. */
const GUILD_ADMIN_BITS = 0x20n | 0x8n;
const isGuildManager = (permissions: string | undefined): boolean => {
  if (!permissions || !/^\d+$/.test(permissions)) return false;
  return (BigInt(permissions) & GUILD_ADMIN_BITS) !== 0n;
};

/** A member `<@1>` / `<@!1>` or a role `<@&1>`, as Discord writes them in a string option. */
const DISCORD_MENTION = /<@(&|!)?(\d+)>/g;

/** The mentions in the command's string options, with the neutral reference of each. */
export function mentionsIn(texts: readonly unknown[], workspace: string): Mentioned[] {
  const out: Mentioned[] = [];
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    for (const m of text.matchAll(DISCORD_MENTION)) {
      const id = m[2] as string;
      out.push({
        text: m[0],
        ref: m[1] === '&' ? roleRef(id) : userAddress('discord', workspace, id),
      });
    }
  }
  return out;
}

/** A channel `<#1>`, as Discord writes it in a string option. */
const DISCORD_CHANNEL = /<#(\d+)>/g;

/** The channels named in the command's string options, each as a conversation address of this server. */
export function channelsIn(texts: readonly unknown[], workspace: string): Mentioned[] {
  return texts.flatMap((text) =>
    typeof text !== 'string'
      ? []
      : [...text.matchAll(DISCORD_CHANNEL)].map((m) => ({
          text: m[0],
          ref: conversationAddress('discord', workspace, m[1] as string),
        })),
  );
}

export function requestInfoOf(
  i: InboundBase & { options?: Record<string, unknown> },
  messageId?: string,
): RequestInfo {
  const workspace = i.guildId ?? DM_WORKSPACE;
  const conversation = conversationAddress('discord', workspace, i.channelId);
  return {
    platform: 'discord',
    capabilities: DISCORD_CAPABILITIES,
    user: userAddress('discord', workspace, i.user.id),
    userName: i.user.name,
    conversation,
    // Discord does not say members' zones: the core asks one who has set none (time-zone-question.ts).
    sharesTimeZones: DISCORD_CAPABILITIES.sharesTimeZones,
    ...(i.roles.length > 0 ? { memberOf: i.roles.map(roleRef) } : {}),
    ...(i.rolesKnown === false ? { membershipUnverified: true } : {}),
    ...(isGuildManager(i.permissions) ? { isWorkspaceAdmin: true } : {}),
    ...(messageId ? { message: messageAddress(conversation, messageId) } : {}),
    ...mentionsOf(mentionsIn(Object.values(i.options ?? {}), workspace)),
    ...channelsOf(channelsIn(Object.values(i.options ?? {}), workspace)),
  };
}
