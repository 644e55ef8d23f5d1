import type { Handler } from '../../../src/http/server.js';
import { renderHistory } from '../html/message.js';
import { renderPage } from '../html/page.js';
import type { RoutesDeps } from '../routes.js';
import type { PlaygroundSessions } from '../sessions.js';
import type { Members } from './members.js';
import { methodNotAllowed } from './replies.js';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Images and rendered videos come from the video API's hosts, so any http(s) image or media source is allowed.
  'content-security-policy':
    "default-src 'self'; img-src 'self' https: http: data:; media-src 'self' https: http:; script-src 'self'; style-src 'self'; " +
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/**
 * GET /: the page, as the user and channel in its query see it (the first of each by default); the browser's
 * session now acts as that user.
 */
export function createPageRoute(deps: RoutesDeps, members: Members, sessions: PlaygroundSessions): Handler {
  const { bot, room } = deps;
  const defaultChannel = deps.channels[0] ?? 'general';
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
    const url = new URL(req.url ?? '/', 'http://playground');
    const wanted = url.searchParams.get('user');
    const user = wanted && members.has(wanted) ? wanted : (deps.users[0]?.id ?? '');
    const wantedChannel = url.searchParams.get('channel');
    const channel = wantedChannel && room.hasChannel(wantedChannel) ? wantedChannel : defaultChannel;
    const html = renderPage({
      workspace: deps.workspace,
      channel,
      channels: deps.channels,
      user,
      users: deps.users,
      history: renderHistory(room.log.visible(channel, user), members.userName),
      commands: bot.commands.map((c) => ({ name: c.name, summary: c.summary })),
    });
    sessions.actAs(req, res, user);
    res.writeHead(200, PAGE_HEADERS);
    res.end(req.method === 'HEAD' ? undefined : html);
  };
}
