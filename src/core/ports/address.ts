/**
 * Opaque addresses (`platform:workspace:id[:message]`), encoded and decoded in this one place.
 * Adapters build them from platform payloads; the core only compares and stores them.
 */
import type { ChatPlatform, ConversationAddress, MessageAddress, UserAddress } from './index.js';

/** Every chat platform, for reading addresses; the one place the core lists them. */
export const CHAT_PLATFORMS: readonly ChatPlatform[] = ['slack', 'discord', 'playground'];

/**
 * The workspace part of a direct message on a platform whose DMs sit outside every workspace
 * (`ChatCapabilities.workspacelessDms`): `discord:@me:C1`.
 */
export const DM_WORKSPACE = '@me';

/** Whether `workspace` (`platform:workspace`) is such a platform's space of direct messages. */
export const isDmWorkspace = (workspace: string): boolean => workspace.split(':')[1] === DM_WORKSPACE;

/** The space of DMs of the platform of `workspace` (`discord:G1` → `discord:@me`). */
export const dmWorkspaceOf = (workspace: string): string => `${workspace.split(':')[0]}:${DM_WORKSPACE}`;

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
  if (!CHAT_PLATFORMS.includes(platform as ChatPlatform) || !workspace || !id || rest.length > 0) {
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

/**
 * A group members can be mentioned as (a Slack user group, a Discord role, a playground group), as the
 * platform's adapter names it: `<platform>-<noun>:<id>` (`slack-group:S1`, `discord-role:R1`). The core only
 * stores, compares and mentions it; the adapter reads it back (`decodeGroupReference`).
 */
export const groupReference = (platform: ChatPlatform, noun: string, id: string): string => {
  if (!/^[a-z]+$/.test(noun)) throw new Error(`group noun must be lower-case letters: ${noun}`);
  return `${platform}-${noun}:${part(id)}`;
};

export interface DecodedGroupReference {
  platform: ChatPlatform;
  /** The platform's word in the reference (`group`, `role`). */
  noun: string;
  id: string;
}

/** Reads a `groupReference`; undefined for anything else (a user address, a stranger's text). */
export function decodeGroupReference(ref: string): DecodedGroupReference | undefined {
  const match = /^([a-z]+)-([a-z]+):(\S+)$/.exec(ref);
  if (!match || !CHAT_PLATFORMS.includes(match[1] as ChatPlatform)) return undefined;
  return { platform: match[1] as ChatPlatform, noun: match[2] as string, id: match[3] as string };
}
