/**
 * The playground's HTTP surface: the page, its static files, the event stream, history, and the three
 * POSTs that become core requests (command text, a click, a form submission). Translation only: every
 * answer is the core's `Response`, shown as it says (ephemeral → the caller only; channel → everyone).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { conversationAddress, messageAddress, userAddress } from '../../src/core/address.js';
import type { Bot } from '../../src/core/bot.js';
import type { Response as CoreResponse } from '../../src/core/cards.js';
import type { RequestInfo } from '../../src/core/context.js';
import type { Logger } from '../../src/core/ports.js';
import type { Handler } from '../../src/http/server.js';
import type { ChatRoom } from './chat-room.js';
import type { EventHub } from './event-hub.js';
import { renderForm } from './html/form.js';
import { plainText } from './html/markdown.js';
import { type MessageView, renderHistory } from './html/message.js';
import { renderPage } from './html/page.js';
import {
  type ActionBody,
  actionBody,
  BadRequest,
  type CommandBody,
  commandBody,
  type FormBody,
  formBody,
  readJson,
} from './requests.js';
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

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // Images come from the video API's hosts (thumbnails), so any http(s) image source is allowed.
  'content-security-policy':
    "default-src 'self'; img-src 'self' https: http: data:; script-src 'self'; style-src 'self'; " +
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

export function createRoutes(deps: RoutesDeps): { page: Handler; playground: Handler } {
  const { bot, room, hub, logger } = deps;
  const userById = new Map(deps.users.map((u) => [u.id, u]));
  const userName = (id: string) => userById.get(id)?.name ?? id;
  const defaultChannel = deps.channels[0] ?? 'general';

  function requestInfo(
    body: { user: string; channel: string; timeZone?: string | undefined },
    messageId?: string,
  ) {
    const conversation = conversationAddress('playground', deps.workspace, body.channel);
    const req: RequestInfo = {
      platform: 'playground',
      user: userAddress('playground', deps.workspace, body.user),
      userName: userName(body.user),
      conversation,
      memberOf: userById.get(body.user)?.groupsUnknown
        ? []
        : (userById.get(body.user)?.groups ?? []).map((g) => `playground-group:${g}`),
      ...(userById.get(body.user)?.groupsUnknown ? { membershipUnverified: true } : {}),
      // The demo's first member (Alice) plays the workspace admin who sets the team policy.
      ...(deps.users[0]?.id === body.user ? { isWorkspaceAdmin: true } : {}),
      ...(body.timeZone ? { platformTimeZone: body.timeZone } : {}),
      ...(messageId ? { message: messageAddress(conversation, messageId) } : {}),
    };
    return req;
  }

  /** Known user and channel, or a 400 naming the choices. */
  function check(body: { user: string; channel: string }): void {
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
  }

  /** Shows the core's response; `messageId` is the message an `update` replaces. */
  function show(
    response: CoreResponse,
    at: { user: string; channel: string; messageId?: string },
  ): ClientReply {
    switch (response.kind) {
      case 'message': {
        const visibleTo = response.visibility === 'ephemeral' ? at.user : undefined;
        const message = room.postCard(at.channel, response.card, visibleTo ? { visibleTo } : {});
        return { ok: true, kind: 'message', messages: [room.view(message)] };
      }
      case 'update': {
        const target = at.messageId ? room.log.get(at.channel, at.messageId) : undefined;
        // Only a message this user can see is replaced; otherwise the new card is shown to them alone.
        const visible = target && (target.visibleTo === undefined || target.visibleTo === at.user);
        const message =
          (visible && at.messageId && room.replaceCard(at.channel, at.messageId, response.card)) ||
          room.postCard(at.channel, response.card, { visibleTo: at.user });
        return { ok: true, kind: 'update', messages: [room.view(message)] };
      }
      case 'form':
        return { ok: true, kind: 'form', form: { id: response.form.id, html: renderForm(response.form) } };
      case 'form-errors':
        // Shown as text next to each input: card markdown read as plain words (escapes undone).
        return {
          ok: true,
          kind: 'form-errors',
          errors: Object.fromEntries(
            Object.entries(response.errors).map(([id, text]) => [id, plainText(text)]),
          ),
        };
      case 'none':
        return { ok: true, kind: 'none' };
    }
  }

  async function command(req: IncomingMessage): Promise<ClientReply> {
    const body: CommandBody = await readJson(req, commandBody);
    check(body);
    // The composer takes the text exactly as typed on Slack; the `/reel` prefix is optional.
    const text = body.text
      .trim()
      .replace(/^\/reel(?=\s|$)/i, '')
      .trim();
    const echo = room.echoCommand(body.channel, body.user, text);
    // The text may carry private input, so only the command word is logged.
    logger.debug(
      { user: body.user, channel: body.channel, command: text.split(/\s+/)[0] },
      'playground command',
    );
    const response = await bot.handleText(requestInfo(body), text);
    const reply = show(response, body);
    return { ...reply, messages: [room.view(echo), ...(reply.messages ?? [])] };
  }

  async function action(req: IncomingMessage): Promise<ClientReply> {
    const body: ActionBody = await readJson(req, actionBody);
    check(body);
    logger.debug({ user: body.user, channel: body.channel, action: body.action }, 'playground action');
    const response = await bot.handleAction(requestInfo(body, body.messageId), {
      action: body.action,
      value: body.value,
      ...(body.choice !== undefined ? { choice: body.choice } : {}),
    });
    return show(response, body);
  }

  async function form(req: IncomingMessage): Promise<ClientReply> {
    const body: FormBody = await readJson(req, formBody);
    check(body);
    logger.debug({ user: body.user, channel: body.channel, formId: body.formId }, 'playground form');
    const response = await bot.handleForm(requestInfo(body, body.messageId), {
      formId: body.formId,
      state: body.state,
      values: body.values,
    });
    return show(response, {
      user: body.user,
      channel: body.channel,
      ...(body.messageId ? { messageId: body.messageId } : {}),
    });
  }

  function history(url: URL): { user: string; channel: string; messages: MessageView[] } {
    const user = url.searchParams.get('user') ?? '';
    const channel = url.searchParams.get('channel') ?? defaultChannel;
    check({ user, channel });
    return { user, channel, messages: room.log.visible(channel, user).map((m) => room.view(m)) };
  }

  const page: Handler = (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
    const url = new URL(req.url ?? '/', 'http://playground');
    const wanted = url.searchParams.get('user');
    const user = wanted && userById.has(wanted) ? wanted : (deps.users[0]?.id ?? '');
    const wantedChannel = url.searchParams.get('channel');
    const channel = wantedChannel && room.hasChannel(wantedChannel) ? wantedChannel : defaultChannel;
    const html = renderPage({
      workspace: deps.workspace,
      channel,
      channels: deps.channels,
      user,
      users: deps.users,
      history: renderHistory(room.log.visible(channel, user), userName),
      commands: bot.commands.map((c) => ({ name: c.name, summary: c.summary })),
    });
    res.writeHead(200, PAGE_HEADERS);
    res.end(req.method === 'HEAD' ? undefined : html);
  };

  const posts: Record<string, (req: IncomingMessage) => Promise<ClientReply>> = {
    '/playground/command': command,
    '/playground/action': action,
    '/playground/form': form,
  };

  const playground: Handler = async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://playground');
    const path = url.pathname;
    try {
      if (path.startsWith('/playground/static/')) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET');
        return deps.files.serve(path.slice('/playground/static/'.length), req, res);
      }
      if (path === '/playground/events' || path === '/playground/messages') {
        if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
        if (path === '/playground/messages') return json(res, 200, history(url));
        const user = url.searchParams.get('user') ?? '';
        if (!userById.has(user)) throw new BadRequest(400, `Unknown user "${user}".`);
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

  return { page, playground };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function methodNotAllowed(res: ServerResponse, allow: string): void {
  res.writeHead(405, { 'content-type': 'application/json; charset=utf-8', allow });
  res.end(JSON.stringify({ ok: false, error: `Use ${allow}.` }));
}
