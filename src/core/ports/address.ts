/**
 * Opaque addresses (`platform:workspace:id[:message]`), encoded and decoded in this one place.
 * Adapters build them from platform payloads; the core only compares and stores them.
 */
import type { ChatPlatform, ConversationAddress, MessageAddress, UserAddress } from './index.js';

const PLATFORMS: readonly ChatPlatform[] = ['slack', 'discord', 'playground'];

const part = (value: string): string => {
  if (value === '' || value.includes(':'))
    throw new Error(`address part must be non-empty without ':': ${value}`);
  return value;
};

export const userAddress = (platform: ChatPlatform, workspace: string, user: string): UserAddress =>
  `${platform}:${part(workspace)}:${part(user)}`;

export const conversationAddress = (
  platform: ChatPlatform,
  workspace: string,
  channel: string,
): ConversationAddress => `${platform}:${part(workspace)}:${part(channel)}`;

export const messageAddress = (conversation: ConversationAddress, message: string): MessageAddress =>
  `${conversation}:${part(message)}`;

export interface DecodedAddress {
  platform: ChatPlatform;
  workspace: string;
  id: string;
  /** Message id for message addresses. */
  message?: string;
}

export function decodeAddress(address: string): DecodedAddress {
  const [platform, workspace, id, message, ...rest] = address.split(':');
  if (!PLATFORMS.includes(platform as ChatPlatform) || !workspace || !id || rest.length > 0) {
    throw new Error(`not a reelbot address: ${address}`);
  }
  return { platform: platform as ChatPlatform, workspace, id, ...(message ? { message } : {}) };
}

export const platformOf = (address: string): ChatPlatform => decodeAddress(address).platform;

/** `slack:T1:C1:123.4` → `slack:T1:C1` */
export const conversationOf = (message: MessageAddress): ConversationAddress => {
  const { platform, workspace, id } = decodeAddress(message);
  return conversationAddress(platform, workspace, id);
};

/** `slack:T1` — the workspace (team/guild) an address belongs to. */
export const workspaceOf = (address: string): string => {
  const { platform, workspace } = decodeAddress(address);
  return `${platform}:${workspace}`;
};
