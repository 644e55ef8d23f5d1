/**
 * A local fake of the Slack Web API (https://docs.slack.dev/reference/methods) on 127.0.0.1, enough for
 * reelbot: it records every call, keeps channel history (with message metadata), answers the methods the
 * adapter uses with Slack's response shapes, can be told to fail a method (429 with Retry-After, or a
 * platform error), receives `response_url` posts, and serves a Socket Mode WebSocket for
 * `apps.connections.open`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { type LargeBody, serveLargeBody } from '../support/large-body.js';
import { type Latch, latch } from '../support/latch.js';
import { alertsInMessage, viewAlertRefusal } from './fake-slack-alerts.js';
import { blockLimitErrors } from './fake-slack-limits.js';

export interface SlackCall {
  method: string;
  token: string | undefined;
  args: Record<string, unknown>;
  /** How the fake answered: `ok`, or the error (`ratelimited` for a 429); unset while never answered. */
  outcome?: { ok: true } | { ok: false; error: string };
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Every content the message had (first post included). */
  history: { text: string; blocks?: unknown[] }[];
}

export interface ScriptedFailure {
  /** HTTP 429 with this Retry-After (seconds). */
  retryAfter?: number;
  /** A platform error (`{ ok: false, error }`). */
  error?: string;
  /** With `error`: the lines Slack explains it with (`response_metadata.messages`). */
  messages?: string[];
  /** Accept the call (the message is posted) but never answer: the caller times out. */
  swallow?: boolean;
}

export interface FakeSlackOptions {
  /** Milliseconds clock for message timestamps (tests with virtual time pass theirs). */
  now?: () => number;
  users?: Record<string, { name: string; realName?: string; tz?: string; isAdmin?: boolean }>;
  team?: { id: string; name: string };
  /** User groups (`usergroups.list`); the list is `FakeSlack.usergroups`, editable while running. */
  usergroups?: FakeUsergroup[];
}

export interface FakeUsergroup {
  id: string;
  handle: string;
  name: string;
  users: string[];
  /** Disabled groups are listed only with `include_disabled`. */
  disabled?: boolean;
}

/** Form-encoded Web API bodies carry objects as JSON strings. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata', 'view', 'files']);

/** A file uploaded through `files.uploadV2`'s three steps; `channel` once completed (shared). */
export interface FakeUpload {
  id: string;
  filename: string;
  length: number;
  /** The bytes posted to the upload URL (as UTF-8 text). */
  content?: string;
  channel?: string;
  title?: string;
  initialComment?: string;
  threadTs?: string;
}

export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly messages: FakeMessage[] = [];
  /** Bodies posted to `response_url`s, by URL path id. */
  readonly responses: { id: string; body: Record<string, unknown> }[] = [];
  /** What the Socket Mode client sent back (acks), parsed. */
  readonly socketReceived: Record<string, unknown>[] = [];
  /** Files uploaded (`files.getUploadURLExternal` → upload URL → `files.completeUploadExternal`). */
  readonly uploads: FakeUpload[] = [];
  /** Trigger ids `views.open` refuses as `expired_trigger_id`. */
  readonly expiredTriggers = new Set<string>();
  /**
   * Block types this workspace does not take: a message holding one is refused as Slack refuses it
   * (`invalid_blocks`, a json-pointer line naming the block), through the Web API and response_urls alike.
   */
  readonly refusedBlocks = new Set<string>();
  /**
   * The messages refused for those blocks or for a breached limit, by where they were sent (a method or
   * `response_url`), with the lines Slack explained the refusal with.
   */
  readonly refusals: { where: string; blocks: unknown; messages: string[] }[] = [];
  /** Files members shared (`share`): served at `url_private` to the bot token, described by `files.info`. */
  readonly shared = new Map<string, { name: string; bytes: Uint8Array; channels: string[] }>();
  /**
   * Members of channels, for `conversations.members`; a channel not listed has every known user in it (a public
   * channel), one listed as `hidden` is a private channel the bot is not in (`channel_not_found`).
   */
  readonly channelMembers = new Map<string, string[] | 'hidden'>();
  /** Channels the bot is not in (`conversations.info` says `is_member: false`); it is in every other one. */
  readonly botAbsent = new Set<string>();
  /** Shared files far larger than `files.info` says (`shareLarge`), streamed as they are read. */
  readonly largeFiles = new Map<string, LargeBody>();
  /** The downloads of shared files (`/files-pri/…`), with the token they came with. */
  readonly downloads: { id: string; token: string | undefined }[] = [];
  /** The workspace's user groups (edit to change membership). */
  readonly usergroups: FakeUsergroup[];
  /** Methods answered only once the test releases them (a slow Slack), see `hold`. */
  private readonly holds = new Map<string, { reached: Latch; released: Latch }>();
  url = '';
  private server: Server;
  private wss: WebSocketServer;
  private sockets = new Set<WebSocket>();
  private failures = new Map<string, ScriptedFailure[]>();
  private counter = 0;
  private readonly now: () => number;

  constructor(private readonly options: FakeSlackOptions = {}) {
    this.now = options.now ?? Date.now;
    this.usergroups = options.usergroups ?? [];
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
    this.wss = new WebSocketServer({ server: this.server, path: '/socket' });
    this.wss.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('message', (data) =>
        this.socketReceived.push(JSON.parse(String(data)) as Record<string, unknown>),
      );
      socket.on('close', () => this.sockets.delete(socket));
      // Slack's first frame on a Socket Mode connection.
      socket.send(
        JSON.stringify({
          type: 'hello',
          num_connections: 1,
          debug_info: { host: 'fake-slack', build_number: 1, approximate_connection_time: 18060 },
          connection_info: { app_id: 'A0REELBOT' },
        }),
      );
    });
  }

  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  static async start(options: FakeSlackOptions = {}): Promise<FakeSlack> {
    const fake = new FakeSlack(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async close(): Promise<void> {
    for (const { released } of this.holds.values()) released.open();
    for (const socket of this.sockets) socket.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The next `times` calls of `method` fail as scripted. */
  fail(method: string, failure: ScriptedFailure, times = 1): void {
    const list = this.failures.get(method) ?? [];
    for (let i = 0; i < times; i++) list.push(failure);
    this.failures.set(method, list);
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** A `response_url` that records what is posted to it. */
  responseUrl(id = `r${++this.counter}`): string {
    return `${this.url}/response/${id}`;
  }

  responsesTo(url: string): Record<string, unknown>[] {
    const id = url.slice(url.lastIndexOf('/') + 1);
    return this.responses.filter((r) => r.id === id).map((r) => r.body);
  }

  /** Sends a Socket Mode frame to every connected client. */
  sendSocket(frame: Record<string, unknown>): void {
    for (const socket of this.sockets) socket.send(JSON.stringify(frame));
  }

  get socketConnections(): number {
    return this.sockets.size;
  }

  /**
   * Holds the answers to `method` (a slow Slack) until `release()`; `reached` resolves when a call arrived.
   * Released on `close()` too.
   */
  hold(method: string): { reached: Promise<void>; release(): void } {
    const entry = { reached: latch(), released: latch() };
    this.holds.set(method, entry);
    return {
      reached: entry.reached.promise,
      release: () => {
        if (this.holds.get(method) === entry) this.holds.delete(method);
        entry.released.open();
      },
    };
  }

  /** Polls (real time) until `check` returns something truthy. */
  async waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`fake Slack: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10)); // real-time-ok: polls real HTTP traffic until the check holds
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const raw = await readBody(req);
    if (url.pathname.startsWith('/response/')) {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const refusal = this.refusal(body.blocks);
      if (refusal) {
        this.refusals.push({ where: 'response_url', blocks: body.blocks, messages: linesOf(refusal) });
        return json(res, refusal);
      }
      this.responses.push({ id: url.pathname.slice('/response/'.length), body });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (url.pathname.startsWith('/upload/')) return this.receiveUpload(url, req, raw, res);
    if (url.pathname.startsWith('/files-pri/')) return this.serveFile(url, req, res);
    if (!url.pathname.startsWith('/api/')) {
      res.writeHead(404);
      res.end();
      return;
    }
    const method = url.pathname.slice('/api/'.length);
    const args = parseArgs(raw, req.headers['content-type'] ?? '');
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : (args.token as string | undefined);
    const call: SlackCall = { method, token, args };
    this.calls.push(call);

    const failure = this.failures.get(method)?.shift();
    if (failure?.retryAfter !== undefined) {
      call.outcome = { ok: false, error: 'ratelimited' };
      res.writeHead(429, { 'retry-after': String(failure.retryAfter), 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
      return;
    }
    if (failure?.error) {
      call.outcome = { ok: false, error: failure.error };
      const explained = failure.messages ? { response_metadata: { messages: failure.messages } } : {};
      return json(res, { ok: false, error: failure.error, ...explained });
    }
    const refusal = method.startsWith('chat.')
      ? this.refusal(args.blocks)
      : method.startsWith('views.')
        ? viewAlertRefusal(args.view, this.refusedBlocks)
        : undefined;
    if (refusal) {
      call.outcome = { ok: false, error: String(refusal.error) };
      this.refusals.push({
        where: method,
        blocks: args.blocks ?? (args.view as { blocks?: unknown })?.blocks,
        messages: linesOf(refusal),
      });
      return json(res, refusal);
    }
    const held = this.holds.get(method);
    if (held) {
      held.reached.open();
      await held.released.promise;
    }
    const answer = this.answer(method, args);
    if (failure?.swallow) return; // The work is done; the answer never comes.
    call.outcome = answer.ok === true ? { ok: true } : { ok: false, error: String(answer.error) };
    json(res, answer);
  }

  /**
   * Slack's answer to blocks holding types this workspace refuses, or breaking a limit of the newest blocks
   * (fake-slack-limits.ts), one json-pointer line per refused block or breach; undefined when it takes them.
   */
  private refusal(blocks: unknown): Record<string, unknown> | undefined {
    const list = Array.isArray(blocks) ? (blocks as { type?: unknown }[]) : [];
    const unsupported = list.flatMap((block, at) =>
      this.refusedBlocks.has(String(block?.type))
        ? [`[ERROR] unsupported type: ${String(block?.type)} [json-pointer:/blocks/${at}/type]`]
        : [],
    );
    const messages =
      unsupported.length > 0 ? unsupported : [...blockLimitErrors(blocks), ...alertsInMessage(blocks)];
    if (messages.length === 0) return undefined;
    return { ok: false, error: 'invalid_blocks', response_metadata: { messages } };
  }

  private answer(method: string, args: Record<string, unknown>): Record<string, unknown> {
    const team = this.options.team ?? { id: 'T0001', name: 'Reel Team' };
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://reel-team.slack.com/',
          team: team.name,
          user: 'reelbot',
          team_id: team.id,
          user_id: 'U0BOT',
          bot_id: 'B0BOT',
          is_enterprise_install: false,
        };
      case 'chat.postMessage': {
        const channel = String(args.channel);
        const ts = this.nextTs();
        const message: FakeMessage = {
          channel,
          ts,
          text: String(args.text ?? ''),
          ...(args.blocks ? { blocks: args.blocks as unknown[] } : {}),
          ...(args.thread_ts ? { thread_ts: String(args.thread_ts) } : {}),
          ...(args.metadata ? { metadata: args.metadata as NonNullable<FakeMessage['metadata']> } : {}),
          history: [],
        };
        message.history.push({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
        this.messages.push(message);
        return {
          ok: true,
          channel,
          ts,
          message: { type: 'message', text: message.text, ts, bot_id: 'B0BOT' },
        };
      }
      case 'chat.update': {
        const message = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = String(args.text ?? '');
        if (args.blocks) message.blocks = args.blocks as unknown[];
        message.history.push({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) });
        return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
      }
      case 'chat.postEphemeral':
        return { ok: true, message_ts: this.nextTs() };
      case 'views.open':
        if (this.expiredTriggers.has(String(args.trigger_id)))
          return { ok: false, error: 'expired_trigger_id' };
        return { ok: true, view: { id: `V${++this.counter}`, ...(args.view as object) } };
      case 'views.publish':
        return { ok: true, view: { id: `V${++this.counter}`, ...(args.view as object) } };
      case 'users.info': {
        const id = String(args.user);
        const user = this.options.users?.[id];
        if (!user) return { ok: false, error: 'user_not_found' };
        return {
          ok: true,
          user: {
            id,
            team_id: team.id,
            name: user.name,
            real_name: user.realName ?? user.name,
            tz: user.tz ?? 'America/Los_Angeles',
            tz_offset: -28800,
            is_admin: user.isAdmin === true,
            is_owner: false,
            profile: { display_name: user.name, real_name: user.realName ?? user.name },
          },
        };
      }
      case 'usergroups.list':
        // https://docs.slack.dev/reference/methods/usergroups.list: `users` only with include_users.
        return {
          ok: true,
          usergroups: this.usergroups
            .filter((g) => !g.disabled || args.include_disabled === true)
            .map((g) => ({
              id: g.id,
              team_id: team.id,
              is_usergroup: true,
              is_subteam: true,
              name: g.name,
              description: '',
              handle: g.handle,
              is_external: false,
              date_create: 1_700_000_000,
              date_update: 1_700_000_000,
              date_delete: g.disabled ? 1_700_000_100 : 0,
              auto_type: null,
              created_by: 'U0ADMIN',
              updated_by: 'U0ADMIN',
              deleted_by: null,
              prefs: { channels: [], groups: [] },
              user_count: g.users.length,
              ...(args.include_users === true ? { users: [...g.users] } : {}),
            })),
        };
      case 'conversations.history':
      case 'conversations.replies': {
        const oldest = Number(args.oldest ?? 0);
        const inThread = method === 'conversations.replies';
        const messages = this.messages
          .filter((m) => m.channel === args.channel && Number(m.ts) >= oldest)
          .filter((m) => (inThread ? m.thread_ts === args.ts || m.ts === args.ts : !m.thread_ts))
          .map((m) => ({
            type: 'message',
            ts: m.ts,
            text: m.text,
            bot_id: 'B0BOT',
            ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
            ...(args.include_all_metadata && m.metadata ? { metadata: m.metadata } : {}),
          }));
        return { ok: true, messages: inThread ? messages : messages.reverse(), has_more: false };
      }
      case 'oauth.v2.access': {
        // The code a test got from the install redirect decides the workspace: `code-T0002` installs T0002.
        const installed = String(args.code ?? '').replace(/^code-/, '') || 'T0002';
        return {
          ok: true,
          access_token: `xoxb-${installed}-installed-bot-token`,
          token_type: 'bot',
          scope:
            'commands,chat:write,chat:write.public,users:read,usergroups:read,channels:history,groups:history',
          bot_user_id: 'U0BOT2',
          app_id: 'A0REELBOT',
          team: { id: installed, name: `Team ${installed}` },
          enterprise: null,
          authed_user: { id: 'U0INSTALLER' },
          is_enterprise_install: false,
        };
      }
      case 'files.getUploadURLExternal': {
        // https://docs.slack.dev/reference/methods/files.getUploadURLExternal: filename and length required.
        if (!args.filename || !Number(args.length)) return { ok: false, error: 'invalid_arguments' };
        const id = `F${String(++this.counter).padStart(8, '0')}`;
        this.uploads.push({ id, filename: String(args.filename), length: Number(args.length) });
        return { ok: true, upload_url: `${this.url}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = (args.files ?? []) as { id: string; title?: string }[];
        const found = files.map((f) => this.uploads.find((u) => u.id === f.id && u.content !== undefined));
        if (files.length === 0 || found.some((u) => !u)) return { ok: false, error: 'file_not_found' };
        for (const [i, upload] of found.entries()) {
          if (!upload) continue;
          Object.assign(upload, {
            ...(args.channel_id ? { channel: String(args.channel_id) } : {}),
            ...(files[i]?.title ? { title: files[i]?.title } : {}),
            ...(args.initial_comment ? { initialComment: String(args.initial_comment) } : {}),
            ...(args.thread_ts ? { threadTs: String(args.thread_ts) } : {}),
          });
        }
        return { ok: true, files: found.map((u) => ({ id: u?.id, title: u?.title ?? u?.filename })) };
      }
      case 'conversations.members': {
        const members =
          this.channelMembers.get(String(args.channel)) ?? Object.keys(this.options.users ?? {});
        if (members === 'hidden') return { ok: false, error: 'channel_not_found' };
        return { ok: true, members, response_metadata: { next_cursor: '' } };
      }
      case 'conversations.info': {
        // https://docs.slack.dev/reference/methods/conversations.info: `is_member` is the token's own.
        const id = String(args.channel ?? '');
        if (this.channelMembers.get(id) === 'hidden') return { ok: false, error: 'channel_not_found' };
        return {
          ok: true,
          channel: { id, is_channel: true, is_archived: false, is_member: !this.botAbsent.has(id) },
        };
      }
      case 'files.info': {
        const id = String(args.file ?? '');
        const file = this.shared.get(id);
        return file ? { ok: true, file: this.fileObject(id) } : { ok: false, error: 'file_not_found' };
      }
      case 'apps.connections.open':
        return { ok: true, url: `${this.url.replace('http', 'ws')}/socket?ticket=fake` };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** The upload URL step: a multipart body whose file part is the content (Slack answers 200 `OK`). */
  private async receiveUpload(url: URL, req: IncomingMessage, raw: string, res: ServerResponse) {
    const upload = this.uploads.find((u) => u.id === url.pathname.slice('/upload/'.length));
    if (!upload || req.method !== 'POST') {
      res.writeHead(404);
      res.end();
      return;
    }
    const type = req.headers['content-type'] ?? '';
    if (type.includes('multipart/form-data')) {
      const form = await new Request(this.url, {
        method: 'POST',
        headers: { 'content-type': type },
        body: raw,
      }).formData();
      const part = form.get('body'); // the field files.uploadV2 posts the bytes in
      upload.content = typeof part === 'object' && part ? await part.text() : '';
    } else upload.content = raw;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`OK - ${Buffer.byteLength(upload.content)}`);
  }

  /**
   * A file a member shares in `channel` (a form's upload or a message's file): its file object as Slack gives
   * it (id, name, size, permalink, url_private on this fake, which serves it only to the bot token).
   */
  share(name: string, content: string | Uint8Array, channel = 'C0VIDEOS'): Record<string, unknown> {
    const id = `F${String(++this.counter).padStart(9, '0')}`;
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    this.shared.set(id, { name, bytes, channels: [channel] });
    return this.fileObject(id);
  }

  /** A huge file shared in `channel` whose `files.info` gives no size (an old upload, a host that lies). */
  shareLarge(name: string, body: LargeBody, channel = 'C0VIDEOS'): Record<string, unknown> {
    const { size: _unknown, ...file } = this.share(name, '', channel);
    this.largeFiles.set(String(file.id), body);
    return file;
  }

  private fileObject(id: string): Record<string, unknown> {
    const file = this.shared.get(id);
    if (!file) return {};
    const dot = file.name.lastIndexOf('.');
    return {
      id,
      name: file.name,
      title: file.name,
      filetype: dot > 0 ? file.name.slice(dot + 1) : '',
      ...(this.largeFiles.has(id) ? {} : { size: file.bytes.byteLength }),
      url_private: `${this.url}/files-pri/T0001-${id}/${encodeURIComponent(file.name)}`,
      url_private_download: `${this.url}/files-pri/T0001-${id}/download/${encodeURIComponent(file.name)}`,
      permalink: `https://reel-team.slack.com/files/U01ALICE/${id}/${encodeURIComponent(file.name)}`,
      channels: file.channels,
    };
  }

  /** `url_private`: the bytes, to a request with the bot token only (Slack answers others with a login page). */
  private serveFile(url: URL, req: IncomingMessage, res: ServerResponse): void {
    const id = /T0001-(F\d+)/.exec(url.pathname)?.[1] ?? '';
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
    this.downloads.push({ id, token });
    const file = this.shared.get(id);
    if (!file || !token?.startsWith('xoxb-')) {
      res.writeHead(file ? 302 : 404, file ? { location: 'https://reel-team.slack.com/?redir=login' } : {});
      res.end();
      return;
    }
    const large = this.largeFiles.get(id);
    if (large) {
      serveLargeBody(large, res);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.from(file.bytes));
  }

  /** `1732348800.000123`: seconds, then a per-fake counter (unique, increasing). */
  private nextTs(): string {
    return `${Math.floor(this.now() / 1000)}.${String(++this.counter).padStart(6, '0')}`;
  }
}

const linesOf = (refusal: Record<string, unknown>): string[] =>
  (refusal.response_metadata as { messages: string[] }).messages;

function parseArgs(raw: string, contentType: string): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    out[key] = JSON_FIELDS.has(key) ? JSON.parse(value) : value === 'true' ? true : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
