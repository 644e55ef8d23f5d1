/**
 * A local fake of Discord for end-to-end tests, on 127.0.0.1: the REST API reelbot and discord.js use
 * (`/api/v10/...`: gateway bot info, users/@me, DMs, application commands, channel messages and threads,
 * interaction callbacks and webhook follow-ups) and a gateway WebSocket speaking the real protocol
 * (HELLO → IDENTIFY → READY → GUILD_CREATE, heartbeats ACKed, dispatched INTERACTION_CREATE).
 *
 * It refuses what Discord refuses (bad auth, payloads over the limits in `discord-rules.ts`, a second
 * acknowledgement, an unknown message) with Discord's error shapes, and records everything for assertions.
 * Failures can be scripted: a 429 with Retry-After, or a 5xx.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LargeBody, serveLargeBody } from '../support/large-body.js';
import {
  attachmentProblems,
  commandProblems,
  editProblems,
  IS_COMPONENTS_V2,
  messageProblems,
  modalProblems,
} from './discord-rules.js';
import { FakeGateway } from './fake-gateway.js';
import { snowflake } from './snowflake.js';

export { snowflake };

// biome-ignore lint/suspicious/noExplicitAny: the fake reads and writes loosely typed Discord JSON
type Json = Record<string, any>;

export interface FakeMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: Json[];
  components: Json[];
  flags: number;
  nonce?: string;
  author: Json;
  /** Every body that changed it, the first post included. */
  history: Json[];
  deleted: boolean;
  /** Set on messages made through an interaction. */
  interaction?: string;
  /** Files uploaded with the message (multipart `files[n]`), as text. */
  files?: FakeFile[];
}

export interface FakeFile {
  /** The attachment's id once a message holds it (a snowflake; an edit keeps it by listing this id). */
  id?: string;
  /** The form field (`files[0]`). */
  field: string;
  filename: string;
  contentType: string;
  /** The file read as UTF-8 text (exports). */
  content: string;
  /** The file's bytes as sent (images). */
  bytes: Uint8Array;
}

/** A multipart/form-data body as Discord reads it: `payload_json` is the message, each file part a file. */
async function readMultipart(
  type: string | undefined,
  raw: Buffer,
): Promise<{ body: Json; files: FakeFile[] } | undefined> {
  if (!type?.startsWith('multipart/form-data')) return undefined;
  const form = await new Request('http://fake.invalid/', {
    method: 'POST',
    headers: { 'content-type': type },
    body: new Uint8Array(raw),
  }).formData();
  const files: FakeFile[] = [];
  let body: Json = {};
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, key) => {
    entries.push([key, value]);
  });
  for (const [key, value] of entries) {
    if (key === 'payload_json' && typeof value === 'string') body = JSON.parse(value) as Json;
    else if (typeof value !== 'string') {
      const bytes = new Uint8Array(await value.arrayBuffer());
      const content = new TextDecoder().decode(bytes);
      files.push({ field: key, filename: value.name, contentType: value.type, content, bytes });
    }
  }
  return { body, files };
}

export interface FakeInteraction {
  id: string;
  token: string;
  type: number;
  channelId: string;
  payload: Json;
  sourceMessage?: string;
  /** Callback bodies (normally one). */
  callbacks: Json[];
  original?: string | undefined;
  followups: string[];
  /** What happened, in order: `callback:4`, `edit`, `followup`, `delete`. */
  events: string[];
  /** `performance.now()` when the first callback was accepted (the ack-latency benchmark reads it). */
  firstCallbackAt?: number;
}

interface ScriptedFailure {
  method: string;
  path: RegExp;
  status: number;
  retryAfter?: number;
}

const API = '/api/v10';
const EPHEMERAL = 64;
const LOADING = 128;

export interface FakeDiscordOptions {
  token: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  roles?: { id: string; name: string }[];
  heartbeatIntervalMs?: number;
}

export class FakeDiscord {
  readonly messages = new Map<string, FakeMessage>();
  readonly interactions = new Map<string, FakeInteraction>();
  readonly requests: { method: string; path: string; body?: Json | Json[] }[] = [];
  readonly threads = new Map<string, { parent: string; name: string }>();
  readonly commands = new Map<string, Json[]>();
  readonly commandPuts: { scope: string; body: Json[] }[] = [];
  readonly failures: ScriptedFailure[] = [];
  /**
   * Channels as `GET /channels/{id}` shows them to the bot: each known one's permission overwrites (default:
   * none, so the @everyone role's View Channel and Send Messages hold); `hidden` ones answer 403 Missing Access,
   * and ones of another server name it.
   */
  readonly channelOverwrites = new Map<string, Json[]>();
  readonly hiddenChannels = new Set<string>();
  readonly foreignChannels = new Map<string, string>();
  /** Users whose DMs are closed (POSTing to their DM channel fails with 50007). */
  readonly closedDms = new Set<string>();
  readonly botUser: Json;
  url = '';
  private readonly server: Server;
  private readonly gateway: FakeGateway;
  private readonly dmChannels = new Map<string, string>();
  private readonly nonces = new Map<string, string>();
  /** The files of the request being handled; the message it makes or edits takes them. */
  private arriving: FakeFile[] = [];

  constructor(readonly options: FakeDiscordOptions) {
    this.botUser = {
      id: options.applicationId,
      username: 'reelbot',
      discriminator: '0',
      global_name: null,
      avatar: null,
      bot: true,
      public_flags: 0,
      flags: 0,
    };
    this.server = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => {
        if (!res.headersSent) this.json(res, 500, { message: String(error), code: 0 });
      });
    });
    this.gateway = new FakeGateway({
      ...options,
      botUser: this.botUser,
      url: () => `${this.url.replace('http', 'ws')}/gateway`,
    });
    this.server.on('upgrade', (req, socket, head) => this.gateway.upgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Files members attached (`attach`), served on this fake's origin as the CDN would. */
  readonly attachments = new Map<string, { filename: string; bytes: Uint8Array }>();
  /** The attachment downloads, by attachment id. */
  readonly downloads: string[] = [];
  /** Attachments far larger than their description says (`attachLarge`), streamed as they are read. */
  readonly largeAttachments = new Map<string, LargeBody>();

  /** A huge file attached as `filename`, whose resolved attachment (and URL) gives no size. */
  attachLarge(filename: string, body: LargeBody): Json {
    const { size: _unknown, ...attachment } = this.attach(filename, '');
    this.largeAttachments.set(String(attachment.id), body);
    return attachment;
  }

  /**
   * A file a member attaches (to a message, a modal's file upload, a command's attachment option): the
   * attachment object as Discord resolves it, its URL on this fake (standing for cdn.discordapp.com).
   */
  attach(filename: string, content: string | Uint8Array): Json {
    const id = snowflake();
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    this.attachments.set(id, { filename, bytes });
    const url = `${this.url}/attachments/${this.options.channelId}/${id}/${encodeURIComponent(filename)}`;
    return {
      id,
      filename,
      size: bytes.byteLength,
      url,
      proxy_url: url,
      content_type: 'text/plain; charset=utf-8',
    };
  }

  private serveAttachment(url: URL, res: ServerResponse): void {
    const id = url.pathname.split('/')[3] ?? '';
    this.downloads.push(id);
    const large = this.largeAttachments.get(id);
    if (large) {
      serveLargeBody(large, res);
      return;
    }
    const file = this.attachments.get(id);
    if (!file) {
      this.json(res, 404, { message: '404: Not Found', code: 0 });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(Buffer.from(file.bytes));
  }

  /** What `DISCORD_API_URL` is set to. */
  get apiUrl(): string {
    return `${this.url}/api`;
  }

  async close(): Promise<void> {
    this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- test helpers ----------------------------------------------------------------------------------------

  /** Non-ephemeral, not deleted messages of a channel, oldest first. */
  channelMessages(channelId = this.options.channelId): FakeMessage[] {
    return [...this.messages.values()].filter(
      (m) => m.channel_id === channelId && !m.deleted && !(m.flags & EPHEMERAL),
    );
  }

  edits(messageId: string): Json[] {
    return this.requests
      .filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${messageId}`))
      .map((r) => r.body as Json);
  }

  failNext(method: string, path: RegExp, status: number, retryAfter?: number): void {
    this.failures.push({ method, path, status, ...(retryAfter !== undefined ? { retryAfter } : {}) });
  }

  async waitFor<T>(probe: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
    const started = Date.now();
    for (;;) {
      const value = probe();
      if (value) return value;
      if (Date.now() - started > timeoutMs)
        throw new Error(`fake discord: condition not met in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 5)); // real-time-ok: polls real HTTP/WebSocket traffic until the probe holds
    }
  }

  /** Registers an interaction (so callbacks and webhooks for it are accepted) without sending it. */
  register(payload: Json): FakeInteraction {
    const record: FakeInteraction = {
      id: payload.id,
      token: payload.token,
      type: payload.type,
      channelId: payload.channel_id,
      payload,
      callbacks: [],
      followups: [],
      events: [],
      ...(payload.message ? { sourceMessage: payload.message.id } : {}),
    };
    this.interactions.set(record.id, record);
    return record;
  }

  /** Sends INTERACTION_CREATE over the gateway, as Discord does when a member uses the app. */
  dispatchInteraction(payload: Json): FakeInteraction {
    const record = this.register(payload);
    this.dispatch('INTERACTION_CREATE', payload);
    return record;
  }

  dispatch(t: string, d: unknown): void {
    this.gateway.dispatch(t, d);
  }

  /** IDENTIFY payloads received (one per connection). */
  get identifies(): Json[] {
    return this.gateway.identifies;
  }

  get heartbeats(): number {
    return this.gateway.heartbeats;
  }

  /** The first response to an interaction (from the callback route, or an HTTP-mode answer). */
  applyCallback(id: string, token: string, body: Json): { status: number; body?: Json } {
    const record = this.interactions.get(id);
    if (!record || record.token !== token)
      return { status: 404, body: { message: 'Unknown interaction', code: 10062 } };
    if (record.callbacks.length > 0) {
      return { status: 400, body: { message: 'Interaction has already been acknowledged.', code: 40060 } };
    }
    const data = (body.data ?? {}) as Json;
    const source = record.sourceMessage ? this.messages.get(record.sourceMessage) : undefined;
    const problems =
      body.type === 9
        ? modalProblems(data)
        : body.type === 7 && source
          ? [...editProblems(source, data), ...this.danglingProblems(source, data)]
          : [4, 7].includes(body.type)
            ? [...messageProblems(data), ...this.danglingProblems(undefined, data)]
            : [];
    if (body.type === 8 && (data.choices?.length ?? 0) > 25) problems.push('more than 25 choices');
    if (body.type === 9 && ![2, 3, 4].includes(record.type) && record.type !== 3)
      problems.push('a modal cannot answer this');
    if (record.type === 5 && body.type === 9) problems.push('a modal cannot answer a modal');
    if ([6, 7].includes(body.type) && !record.sourceMessage) problems.push('no message to update');
    if (problems.length > 0)
      return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: problems } };
    record.firstCallbackAt = performance.now();
    record.callbacks.push(body);
    record.events.push(`callback:${body.type}`);
    switch (body.type) {
      case 4:
      case 5: {
        // A deferral takes only EPHEMERAL; IS_COMPONENTS_V2 is set by the edit that answers it.
        const flags = body.type === 5 ? ((data.flags ?? 0) & EPHEMERAL) | LOADING : (data.flags ?? 0);
        record.original = this.create(record.channelId, data, { flags, interaction: id }).id;
        break;
      }
      case 6:
        record.original = record.sourceMessage;
        break;
      case 7:
        record.original = record.sourceMessage;
        this.edit(record.sourceMessage as string, data);
        break;
    }
    return { status: 204 };
  }

  // ---- REST ------------------------------------------------------------------------------------------------

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname.startsWith('/attachments/')) return this.serveAttachment(url, res);
    if (!url.pathname.startsWith(API)) return this.json(res, 404, { message: '404: Not Found', code: 0 });
    const path = url.pathname.slice(API.length);
    const raw = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
    });
    // A message with files is multipart/form-data: `payload_json` and `files[n]` (kept for the message made).
    const parts = await readMultipart(req.headers['content-type'], raw);
    this.arriving = parts?.files ?? [];
    const text = parts ? '' : raw.toString('utf8');
    const body = parts ? parts.body : text ? (JSON.parse(text) as Json) : undefined;
    this.requests.push({ method, path, ...(body !== undefined ? { body } : {}) });

    const failure = this.failures.findIndex((f) => f.method === method && f.path.test(path));
    if (failure >= 0) {
      const f = this.failures.splice(failure, 1)[0] as ScriptedFailure;
      if (f.status === 429) {
        const after = f.retryAfter ?? 1;
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(after),
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset-after': String(after),
          'x-ratelimit-bucket': 'fake-bucket',
          'x-ratelimit-scope': 'user',
        });
        res.end(
          JSON.stringify({ message: 'You are being rate limited.', retry_after: after, global: false }),
        );
        return;
      }
      return this.json(res, f.status, { message: `${f.status}: scripted failure`, code: 0 });
    }

    const interactionRoute = /^\/(interactions|webhooks)\//.test(path);
    if (!interactionRoute && req.headers.authorization !== `Bot ${this.options.token}`) {
      return this.json(res, 401, { message: '401: Unauthorized', code: 0 });
    }
    const m = (re: RegExp) => re.exec(path);
    let match: RegExpExecArray | null;

    if (method === 'GET' && path === '/gateway/bot') {
      return this.json(res, 200, {
        url: `${this.url.replace('http', 'ws')}/gateway`,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    if (method === 'GET' && path === '/users/@me') return this.json(res, 200, this.botUser);
    if (method === 'POST' && path === '/users/@me/channels') {
      const recipient = String(body?.recipient_id);
      const id = this.dmChannels.get(recipient) ?? snowflake();
      this.dmChannels.set(recipient, id);
      return this.json(res, 200, {
        id,
        type: 1,
        recipients: [{ id: recipient }],
        last_message_id: null,
        flags: 0,
      });
    }
    match = m(/^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/);
    if (match) {
      if (match[1] !== this.options.applicationId)
        return this.json(res, 403, { message: 'Missing Access', code: 50001 });
      const scope = match[2] ? `guild:${match[2]}` : 'global';
      if (method === 'GET') return this.json(res, 200, this.commands.get(scope) ?? []);
      if (method === 'PUT') {
        const list = (body as unknown as Json[]) ?? [];
        const problems = list.flatMap((c) => commandProblems(c));
        if (list.length > 100) problems.push('more than 100 commands');
        if (problems.length > 0)
          return this.json(res, 400, { message: 'Invalid Form Body', code: 50035, errors: problems });
        this.commandPuts.push({ scope, body: list });
        // Discord echoes the commands back with ids and its own defaults filled in.
        const stored = list.map((c) => ({
          ...c,
          id: snowflake(),
          application_id: this.options.applicationId,
          version: snowflake(),
          default_member_permissions: null,
          nsfw: false,
          integration_types: [0],
          ...(match?.[2] ? { guild_id: match[2] } : {}),
        }));
        this.commands.set(scope, stored);
        return this.json(res, 200, stored);
      }
    }
    match = m(/^\/channels\/(\d+)$/);
    if (match && method === 'GET') {
      const id = match[1] as string;
      if (this.hiddenChannels.has(id)) return this.json(res, 403, { message: 'Missing Access', code: 50001 });
      const guild = this.foreignChannels.get(id) ?? this.options.guildId;
      const overwrites = this.channelOverwrites.get(id) ?? [];
      return this.json(res, 200, {
        id,
        type: 0,
        guild_id: guild,
        name: `channel-${id}`,
        permission_overwrites: overwrites,
      });
    }
    match = m(/^\/guilds\/(\d+)\/members\/(\d+)$/);
    if (match && method === 'GET') return this.json(res, 200, { user: { id: match[2] }, roles: [] });
    match = m(/^\/guilds\/(\d+)\/roles$/);
    if (match && method === 'GET') {
      // @everyone (the guild's id) may view channels and send messages, as in a new server.
      const everyone = { id: match[1], name: '@everyone', permissions: String((1 << 10) | (1 << 11)) };
      const others = (this.options.roles ?? []).map((r) => ({ ...r, permissions: '0' }));
      return this.json(res, 200, [everyone, ...others]);
    }
    match = m(/^\/channels\/(\d+)\/messages$/);
    if (match && method === 'POST') {
      const channel = match[1] as string;
      const dmOf = [...this.dmChannels.entries()].find(([, id]) => id === channel)?.[0];
      if (dmOf && this.closedDms.has(dmOf)) {
        return this.json(res, 403, { message: 'Cannot send messages to this user', code: 50007 });
      }
      const problems = [...messageProblems(body ?? {}), ...this.danglingProblems(undefined, body ?? {})];
      if (problems.length > 0)
        return this.json(res, 400, { message: 'Invalid Form Body', code: 50035, errors: problems });
      if (body?.enforce_nonce && body.nonce) {
        const known = this.nonces.get(`${channel}:${body.nonce}`);
        if (known) return this.json(res, 200, this.view(this.messages.get(known) as FakeMessage));
      }
      const message = this.create(channel, body ?? {}, {});
      if (body?.nonce) this.nonces.set(`${channel}:${body.nonce}`, message.id);
      return this.json(res, 200, this.view(message));
    }
    match = m(/^\/channels\/(\d+)\/messages\/(\d+)$/);
    if (match) {
      const message = this.messages.get(match[2] as string);
      if (!message || message.deleted || message.channel_id !== match[1]) {
        return this.json(res, 404, { message: 'Unknown Message', code: 10008 });
      }
      if (method === 'GET') return this.json(res, 200, this.view(message));
      if (method === 'PATCH') {
        const problems = [
          ...editProblems(message, body ?? {}),
          ...this.danglingProblems(message, body ?? {}),
        ];
        if (problems.length > 0)
          return this.json(res, 400, { message: 'Invalid Form Body', code: 50035, errors: problems });
        this.edit(message.id, body ?? {});
        return this.json(res, 200, this.view(message));
      }
    }
    match = m(/^\/channels\/(\d+)\/messages\/(\d+)\/threads$/);
    if (match && method === 'POST') {
      const [, channel, messageId] = match as unknown as [string, string, string];
      if (!this.messages.has(messageId))
        return this.json(res, 404, { message: 'Unknown Message', code: 10008 });
      if (this.threads.has(messageId)) {
        return this.json(res, 400, {
          message: 'A thread has already been created for this message',
          code: 160004,
        });
      }
      const name = String(body?.name ?? '');
      if (name.length < 1 || name.length > 100)
        return this.json(res, 400, { message: 'Invalid Form Body', code: 50035 });
      this.threads.set(messageId, { parent: channel, name });
      return this.json(res, 201, {
        id: messageId,
        type: 11,
        guild_id: this.options.guildId,
        parent_id: channel,
        name,
      });
    }
    match = m(/^\/interactions\/(\d+)\/([^/]+)\/callback$/);
    if (match && method === 'POST') {
      const result = this.applyCallback(match[1] as string, match[2] as string, body ?? {});
      if (result.status === 204) {
        res.writeHead(204);
        res.end();
        return;
      }
      return this.json(res, result.status, result.body ?? {});
    }
    match = m(/^\/webhooks\/(\d+)\/([^/]+)(?:\/messages\/([^/]+))?$/);
    if (match) {
      const [, app, token, which] = match as unknown as [string, string, string, string | undefined];
      const record = [...this.interactions.values()].find((i) => i.token === token);
      if (app !== this.options.applicationId || !record)
        return this.json(res, 404, { message: 'Unknown Webhook', code: 10015 });
      if (record.callbacks.length === 0)
        return this.json(res, 404, { message: 'Unknown Webhook', code: 10015 });
      if (!which && method === 'POST') {
        const problems = [...messageProblems(body ?? {}), ...this.danglingProblems(undefined, body ?? {})];
        if (problems.length > 0)
          return this.json(res, 400, { message: 'Invalid Form Body', code: 50035, errors: problems });
        const message = this.create(record.channelId, body ?? {}, {
          flags: body?.flags ?? 0,
          interaction: record.id,
        });
        record.followups.push(message.id);
        record.events.push('followup');
        return this.json(res, 200, this.view(message));
      }
      // discord.js sends `%40original`; Discord reads it as `@original`.
      const id = which && decodeURIComponent(which) === '@original' ? record.original : which;
      const message = id ? this.messages.get(id) : undefined;
      if (!message || message.deleted)
        return this.json(res, 404, { message: 'Unknown Message', code: 10008 });
      if (method === 'PATCH') {
        const problems = [
          ...editProblems(message, body ?? {}),
          ...this.danglingProblems(message, body ?? {}),
        ];
        if (problems.length > 0)
          return this.json(res, 400, { message: 'Invalid Form Body', code: 50035, errors: problems });
        this.edit(message.id, body ?? {});
        message.flags &= ~LOADING;
        record.events.push('edit');
        return this.json(res, 200, this.view(message));
      }
      if (method === 'DELETE') {
        message.deleted = true;
        record.events.push('delete');
        res.writeHead(204);
        res.end();
        return;
      }
    }
    return this.json(res, 404, { message: `404: no fake route ${method} ${path}`, code: 0 });
  }

  private create(channel: string, body: Json, extra: { flags?: number; interaction?: string }): FakeMessage {
    const message: FakeMessage = {
      id: snowflake(),
      channel_id: channel,
      content: body.content ?? '',
      embeds: body.embeds ?? [],
      components: body.components ?? [],
      flags: extra.flags ?? Number(body.flags ?? 0),
      author: this.botUser,
      history: [body],
      deleted: false,
      ...(body.nonce ? { nonce: String(body.nonce) } : {}),
      ...(extra.interaction ? { interaction: extra.interaction } : {}),
      ...(this.arriving.length > 0 ? { files: this.held(this.arriving) } : {}),
    };
    this.arriving = [];
    this.messages.set(message.id, message);
    return message;
  }

  private edit(id: string, body: Json): void {
    const message = this.messages.get(id);
    if (!message) return;
    if (body.embeds !== undefined) message.embeds = body.embeds ?? [];
    if (body.components !== undefined) message.components = body.components;
    if (body.content !== undefined) message.content = body.content ?? '';
    // IS_COMPONENTS_V2 can be set by an edit, never removed.
    message.flags |= Number(body.flags ?? 0) & IS_COMPONENTS_V2;
    message.history.push(body);
    message.files = this.filesAfterEdit(message, body);
    this.arriving = [];
  }

  /** Files as a message holds them: each with an attachment id of its own. */
  private held(files: FakeFile[]): FakeFile[] {
    return files.map((f) => ({ ...f, id: f.id ?? snowflake() }));
  }

  /**
   * An edit's files: when it sends `attachments`, Discord keeps only the files it lists by id (new files, named
   * by their index in `files[n]`, are added); without `attachments`, the files stay and new ones are added.
   */
  private filesAfterEdit(message: FakeMessage, body: Json): FakeFile[] {
    const listed = Array.isArray(body.attachments)
      ? new Set((body.attachments as Json[]).map((a) => String(a.id)))
      : undefined;
    const kept = (message.files ?? []).filter((f) => !listed || listed.has(String(f.id)));
    return [...kept, ...this.held(this.arriving)];
  }

  /**
   * What Discord would show nothing for: a V2 message's media (gallery items, thumbnails, files) referring to
   * `attachment://name` that is not among the files it will hold.
   */
  private danglingProblems(message: FakeMessage | undefined, body: Json): string[] {
    const v2 = (Number(body.flags ?? 0) | (message?.flags ?? 0)) & IS_COMPONENTS_V2;
    const components = (body.components ?? message?.components ?? []) as Json[];
    if (!v2) return [];
    const files = message ? this.filesAfterEdit(message, body) : this.arriving;
    return attachmentProblems(components, new Set(files.map((f) => f.filename)));
  }

  /** A message as Discord returns it (and as it appears in a component interaction). */
  view(message: FakeMessage): Json {
    return {
      id: message.id,
      type: 0,
      channel_id: message.channel_id,
      content: message.content,
      embeds: message.embeds,
      components: message.components,
      author: message.author,
      attachments: (message.files ?? []).map((f) => ({
        id: f.id,
        filename: f.filename,
        size: f.bytes.byteLength,
        content_type: f.contentType,
        url: `${this.url}/attachments/${message.id}/${f.filename}`,
      })),
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      flags: message.flags,
      timestamp: new Date().toISOString(),
      edited_timestamp: message.history.length > 1 ? new Date().toISOString() : null,
      application_id: this.options.applicationId,
      ...(message.nonce ? { nonce: message.nonce } : {}),
    };
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
