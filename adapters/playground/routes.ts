/**
 * The playground's HTTP surface: the page, its static files, the event stream, history, and the three
 * POSTs that become core requests (command text, a click, a form submission). Translation only: every
 * answer is the core's `Response`, shown as it says (ephemeral → the caller only; channel → everyone).
 * One small factory per route group lives in `routes/`.
 */
import type { Bot, Response as CoreResponse, Logger } from '../../src/core/index.js';
import type { Handler } from '../../src/http/server.js';
import type { ChatRoom } from './chat-room.js';
import type { EventHub } from './event-hub.js';
import type { MessageView } from './html/message.js';
import { BadRequest } from './inbound.js';
import { DOWNLOAD_PATH, serveDownload } from './routes/downloads.js';
import { createMembers, type Members } from './routes/members.js';
import { createPageRoute } from './routes/page-route.js';
import { createPostRoutes } from './routes/post-routes.js';
import { json, methodNotAllowed } from './routes/replies.js';
import { createPlaygroundSessions, type PlaygroundSessions } from './sessions.js';
import type { StaticFiles } from './static-files.js';

export interface PlaygroundUser {
  id: string;
  name: string;
  /** Groups the person belongs to, mentioned as `@&name` (approvers, roles). */
  groups?: readonly string[];
  /** The demo's stand-in for a failed group lookup: membership unknown, decisions by group refused. */
  groupsUnknown?: boolean;
}

export interface RoutesDeps {
  bot: Bot;
  room: ChatRoom;
  hub: EventHub;
  workspace: string;
  channels: readonly string[];
  users: readonly PlaygroundUser[];
  logger: Logger;
  files: StaticFiles;
}

/** What a POST answers: the core's response kind plus what the page needs to show it. */
export interface ClientReply {
  ok: true;
  kind: CoreResponse['kind'];
  messages?: MessageView[];
  form?: { id: string; html: string };
  errors?: Record<string, string>;
}

export function createRoutes(deps: RoutesDeps): { page: Handler; playground: Handler } {
  const members = createMembers(deps, deps.room);
  const sessions = createPlaygroundSessions();
  return {
    page: createPageRoute(deps, members, sessions),
    playground: createPlaygroundRoute(deps, members, sessions),
  };
}

/** Everything under /playground/: static files, the event stream, history, and the POSTs. */
function createPlaygroundRoute(deps: RoutesDeps, members: Members, sessions: PlaygroundSessions): Handler {
  const { room, hub, logger } = deps;
  const defaultChannel = deps.channels[0] ?? 'general';
  const posts = createPostRoutes(deps, members);

  function history(url: URL): { user: string; channel: string; messages: MessageView[] } {
    const user = url.searchParams.get('user') ?? '';
    const channel = url.searchParams.get('channel') ?? defaultChannel;
    members.check({ user, channel });
    return { user, channel, messages: room.log.visible(channel, user).map((m) => room.view(m)) };
  }

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://playground');
    const path = url.pathname;
    try {
      if (path.startsWith('/playground/static/')) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
        return deps.files.serve(path.slice('/playground/static/'.length), req, res);
      }
      if (path === DOWNLOAD_PATH) return serveDownload({ room, sessions, req, url }, res);
      if (path === '/playground/events' || path === '/playground/messages') {
        if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
        if (path === '/playground/messages') {
          const seen = history(url);
          sessions.actAs(req, res, seen.user);
          return json(res, 200, seen);
        }
        const user = url.searchParams.get('user') ?? '';
        if (!members.has(user)) throw new BadRequest(400, `Unknown user "${user}".`);
        sessions.actAs(req, res, user);
        return hub.open(user, res);
      }
      const post = posts[path];
      if (!post) return json(res, 404, { ok: false, error: `No playground route ${path}.` });
      if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
      return json(res, 200, await post(req));
    } catch (error) {
      if (error instanceof BadRequest) return json(res, error.status, { ok: false, error: error.message });
      logger.error({ err: error, path }, 'playground request failed');
      return json(res, 500, { ok: false, error: 'The playground server failed; see its log.' });
    }
  };
}
