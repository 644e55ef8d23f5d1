import {
  channelsOf,
  conversationAddress,
  groupReference,
  type Mentioned,
  mentionsOf,
  messageAddress,
  type RequestInfo,
  userAddress,
} from '../../../src/core/index.js';
import type { ChatRoom } from '../chat-room.js';
import { BadRequest } from '../inbound.js';
import { PLAYGROUND_CAPABILITIES } from '../index.js';
import type { RoutesDeps } from '../routes.js';

/** Who may use the playground and where: the demo's people and channels, and the core request of each. */
export interface Members {
  has(user: string): boolean;
  userName(id: string): string;
  /** The core's request for a POST by `body.user` in `body.channel` (on `messageId` for a click or form). */
  requestInfo(
    body: { user: string; channel: string; timeZone?: string | undefined; text?: string },
    messageId?: string,
  ): RequestInfo;
  /** Known user and channel, or a 400 naming the choices. */
  check(body: { user: string; channel: string }): void;
}

/** A member `@ann` (or `<@ann>`) or a group `@&reviewers`, as the playground's composer writes them. */
const PLAYGROUND_MENTION = /(?<![\w.@])<?@(&?)([A-Za-z0-9._-]+)>?/g;

/** The mentions in `text`, with the neutral reference of each. */
export const mentionsIn = (text: string, workspace: string): Mentioned[] =>
  [...text.matchAll(PLAYGROUND_MENTION)].map((m) => ({
    text: m[0],
    ref:
      m[1] === '&'
        ? groupReference('playground', 'group', m[2] as string)
        : userAddress('playground', workspace, m[2] as string),
  }));

/** A channel `#general`, named as the playground names its channels. */
const PLAYGROUND_CHANNEL = /(?<![\w.#&<@])#([A-Za-z0-9._-]+)/g;

/** The channels named in `text`, each as a conversation address of this workspace. */
export const channelsIn = (text: string, workspace: string): Mentioned[] =>
  [...text.matchAll(PLAYGROUND_CHANNEL)].map((m) => ({
    text: m[0],
    ref: conversationAddress('playground', workspace, m[1] as string),
  }));

export function createMembers(
  deps: Pick<RoutesDeps, 'workspace' | 'channels' | 'users'>,
  room: ChatRoom,
): Members {
  const userById = new Map(deps.users.map((u) => [u.id, u]));
  const userName = (id: string) => userById.get(id)?.name ?? id;
  return {
    has: (user) => userById.has(user),
    userName,
    requestInfo(body, messageId) {
      const conversation = conversationAddress('playground', deps.workspace, body.channel);
      const req: RequestInfo = {
        platform: 'playground',
        capabilities: PLAYGROUND_CAPABILITIES,
        user: userAddress('playground', deps.workspace, body.user),
        userName: userName(body.user),
        conversation,
        memberOf: userById.get(body.user)?.groupsUnknown
          ? []
          : (userById.get(body.user)?.groups ?? []).map((g) => groupReference('playground', 'group', g)),
        ...(userById.get(body.user)?.groupsUnknown ? { membershipUnverified: true } : {}),
        // The demo's first member (Alice) plays the workspace admin who sets the team policy.
        ...(deps.users[0]?.id === body.user ? { isWorkspaceAdmin: true } : {}),
        ...(body.timeZone ? { platformTimeZone: body.timeZone } : {}),
        ...(messageId ? { message: messageAddress(conversation, messageId) } : {}),
        ...mentionsOf(mentionsIn(body.text ?? '', deps.workspace)),
        ...channelsOf(channelsIn(body.text ?? '', deps.workspace)),
        // The demo's channels are open to all its people.
        conversations: {
          isMember: async (c) =>
            deps.channels.some((ch) => conversationAddress('playground', deps.workspace, ch) === c),
        },
        // The bot is in every channel of the demo, and in no other.
        channelAccess: {
          botCanPost: async (c) =>
            deps.channels.some((ch) => conversationAddress('playground', deps.workspace, ch) === c),
        },
      };
      return req;
    },
    check(body) {
      if (!userById.has(body.user)) {
        throw new BadRequest(
          400,
          `Unknown user "${body.user}"; use one of: ${[...userById.keys()].join(', ')}.`,
        );
      }
      if (!room.hasChannel(body.channel)) {
        throw new BadRequest(
          400,
          `Unknown channel "${body.channel}"; use one of: ${deps.channels.join(', ')}.`,
        );
      }
    },
  };
}
