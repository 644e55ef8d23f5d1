/**
 * The playground adapter: a local web chat over the same core as Slack and Discord (DESIGN §2, demo
 * mode). It mounts its page and routes on the shared HTTP server and gives the outbox a `ChatSender`;
 * history lives in memory.
 */
import type {
  Bot,
  ChatAdapter,
  ChatCapabilities,
  Clock,
  ConversationAddress,
  Logger,
  UserAddress,
} from '../../src/core/index.js';
import { conversationAddress, userAddress } from '../../src/core/index.js';
import { type Handler, type HttpServer, hostName, isLoopbackHost } from '../../src/http/server.js';
import { ChatRoom } from './chat-room.js';
import { EventHub } from './event-hub.js';
import { COMPOSER_MAX_LENGTH } from './inbound.js';
import { createRoutes } from './routes.js';
import { createPlaygroundSender } from './sender.js';
import { loadStaticFiles } from './static-files.js';

export interface PlaygroundOptions {
  bot: Bot;
  http: HttpServer;
  logger: Logger;
  clock: Clock;
  /** Default `local`. */
  workspace?: string;
  /**
   * Default `general` and `review` (`DEFAULT_PLAYGROUND_CHANNELS`); the first is where the page opens. Two, so
   * the demo shows one living card per video: `/reel status last` in the other channel brings the
   * same card there, and a click in either updates both.
   */
  channels?: string[];
  /**
   * Default alice, bob and carol (bob and carol in the group `reviewers`): people to switch between;
   * approvals need more than one, and `settings approvers @&reviewers` names the group.
   */
  users?: { id: string; name: string; groups?: readonly string[]; groupsUnknown?: boolean }[];
}

export interface PlaygroundAdapter extends ChatAdapter {
  users: { id: string; name: string; address: UserAddress }[];
  /** `playground:<workspace>:<channel>`; default the first channel. */
  conversation(channel?: string): ConversationAddress;
}

/** A local web page: forms, private answers and threads like Slack; no uploads, galleries or autocomplete. */
export const PLAYGROUND_CAPABILITIES: ChatCapabilities = {
  modals: true,
  ephemeral: true,
  threads: true,
  files: false,
  autocomplete: false,
  mediaGallery: false,
  maxInputLength: 10_000,
  maxCommandLength: COMPOSER_MAX_LENGTH,
  sharesTimeZones: true,
  workspaceNoun: 'workspace',
  workspacelessDms: false,
};

export const DEFAULT_PLAYGROUND_USERS: readonly { id: string; name: string; groups: string[] }[] = [
  { id: 'alice', name: 'Alice', groups: [] },
  { id: 'bob', name: 'Bob', groups: ['reviewers'] },
  { id: 'carol', name: 'Carol', groups: ['reviewers'] },
];

export const DEFAULT_PLAYGROUND_CHANNELS: readonly string[] = ['general', 'review'];

const ID = /^[A-Za-z0-9._-]{1,64}$/;

export function createPlaygroundAdapter(options: PlaygroundOptions): PlaygroundAdapter {
  const workspace = options.workspace ?? 'local';
  const channels = options.channels ?? [...DEFAULT_PLAYGROUND_CHANNELS];
  const people = options.users ?? DEFAULT_PLAYGROUND_USERS.map((u) => ({ ...u, groups: [...u.groups] }));
  // Ids become address parts and URL parameters: refuse odd ones at start-up, not at the first click.
  for (const id of [workspace, ...channels, ...people.map((u) => u.id)]) {
    if (!ID.test(id))
      throw new Error(`playground: "${id}" is not a valid id (letters, digits, ".", "_", "-")`);
  }
  if (channels.length === 0 || people.length === 0) throw new Error('playground: needs a channel and a user');

  const logger = options.logger.child({ component: 'playground' });
  const hub = new EventHub(options.clock);
  const names = new Map(people.map((u) => [u.id, u.name]));
  const room = new ChatRoom({ hub, clock: options.clock, channels, userName: (id) => names.get(id) ?? id });
  const routes = createRoutes({
    bot: options.bot,
    room,
    hub,
    workspace,
    channels,
    users: people,
    logger,
    files: loadStaticFiles(),
  });
  options.http.mount('/', localOnly(routes.page));
  options.http.mount('/playground/', localOnly(routes.playground));

  return {
    name: 'playground',
    capabilities: PLAYGROUND_CAPABILITIES,
    sender: createPlaygroundSender(room, workspace),
    // Nothing to connect: its routes are mounted, and the page opens event streams on its own.
    start: async () => {},
    users: people.map((u) => ({ ...u, address: userAddress('playground', workspace, u.id) })),
    conversation: (channel = channels[0] as string) => {
      if (!room.hasChannel(channel)) throw new Error(`playground: no channel #${channel}`);
      return conversationAddress('playground', workspace, channel);
    },
    // Ends the open event streams (the HTTP server itself belongs to the caller).
    stop: async () => hub.close(),
  };
}

/**
 * The playground lets its visitor act as any member, so it answers only requests addressed to this
 * machine by a loopback name: a web page on another site that rebinds its DNS to 127.0.0.1 still sends
 * its own host name, and is refused.
 */
function localOnly(handler: Handler): Handler {
  return (req, res) => {
    if (!isLoopbackHost(hostName(req))) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end('The playground only answers on 127.0.0.1 / localhost.');
      return;
    }
    return handler(req, res);
  };
}
