/** An interaction as the core's request: who, where (guild or DM), roles and whether they are known. */
import { conversationAddress, messageAddress, userAddress } from '../../src/core/address.js';
import type { RequestInfo } from '../../src/core/context.js';
import type { InboundBase } from './inbound.js';

/** The workspace part of addresses in direct messages, which have no guild. */
export const DM_WORKSPACE = '@me';

/** Manage Server (0x20) or Administrator (0x8): a guild admin, who sets the team policy. */
const GUILD_ADMIN_BITS = 0x20n | 0x8n;
const isGuildManager = (permissions: string | undefined): boolean => {
  if (!permissions || !/^\d+$/.test(permissions)) return false;
  return (BigInt(permissions) & GUILD_ADMIN_BITS) !== 0n;
};

export function requestInfoOf(i: InboundBase, messageId?: string): RequestInfo {
  const workspace = i.guildId ?? DM_WORKSPACE;
  const conversation = conversationAddress('discord', workspace, i.channelId);
  return {
    platform: 'discord',
    user: userAddress('discord', workspace, i.user.id),
    userName: i.user.name,
    conversation,
    ...(i.roles.length > 0 ? { memberOf: i.roles.map((id) => `discord-role:${id}`) } : {}),
    ...(i.rolesKnown === false ? { membershipUnverified: true } : {}),
    ...(isGuildManager(i.permissions) ? { isWorkspaceAdmin: true } : {}),
    ...(messageId ? { message: messageAddress(conversation, messageId) } : {}),
  };
}
