/**
 * The fake Discord's gateway: a WebSocket speaking the real protocol to discord.js — HELLO (op 10), IDENTIFY
 * (op 2, token checked, else close 4004) → READY and GUILD_CREATE dispatches, heartbeats (op 1) ACKed (op 11),
 * and any dispatch a test sends (INTERACTION_CREATE).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { snowflake } from './snowflake.js';

// biome-ignore lint/suspicious/noExplicitAny: the fake reads and writes loosely typed Discord JSON
type Json = Record<string, any>;

export interface FakeGatewayOptions {
  token: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  roles?: { id: string; name: string }[];
  heartbeatIntervalMs?: number;
  botUser: Json;
  /** The gateway's ws:// URL (known once the server listens). */
  url(): string;
}

export class FakeGateway {
  readonly identifies: Json[] = [];
  heartbeats = 0;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private seq = 0;

  constructor(private readonly options: FakeGatewayOptions) {}

  /** For the HTTP server's `upgrade` event. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!(req.url ?? '').startsWith('/gateway')) {
      socket.destroy();
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.connected(ws));
  }

  dispatch(t: string, d: unknown): void {
    for (const ws of this.sockets) ws.send(JSON.stringify({ op: 0, t, s: ++this.seq, d }));
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
  }

  private connected(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.on('close', () => this.sockets.delete(ws));
    const send = (payload: Json) => ws.send(JSON.stringify(payload));
    send({ op: 10, d: { heartbeat_interval: this.options.heartbeatIntervalMs ?? 41_250 }, s: null, t: null });
    ws.on('message', (raw) => {
      const packet = JSON.parse(String(raw)) as Json;
      if (packet.op === 1) {
        this.heartbeats++;
        send({ op: 11, d: null, s: null, t: null });
        return;
      }
      if (packet.op !== 2) return;
      if (packet.d?.token !== this.options.token) {
        ws.close(4004, 'Authentication failed.');
        return;
      }
      this.identifies.push(packet.d);
      const { guildId, applicationId } = this.options;
      send({
        op: 0,
        t: 'READY',
        s: ++this.seq,
        d: {
          v: 10,
          user: this.options.botUser,
          guilds: [{ id: guildId, unavailable: true }],
          session_id: `session-${snowflake()}`,
          resume_gateway_url: this.options.url(),
          shard: [0, 1],
          application: { id: applicationId, flags: 0 },
          private_channels: [],
          presences: [],
          relationships: [],
          geo_ordered_rtc_regions: [],
          guild_join_requests: [],
          user_settings: {},
          _trace: ['fake-discord'],
        },
      });
      send({ op: 0, t: 'GUILD_CREATE', s: ++this.seq, d: guildCreate(this.options) });
    });
  }
}

export function guildCreate(options: {
  guildId: string;
  channelId: string;
  roles?: { id: string; name: string }[];
}): Json {
  const { guildId, channelId } = options;
  const role = (id: string, name: string, position: number) => ({
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: '559623605571137',
    managed: false,
    mentionable: false,
    flags: 0,
  });
  return {
    id: guildId,
    name: 'Video team',
    icon: null,
    description: null,
    owner_id: '1300000000000000501',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    features: [],
    mfa_level: 0,
    system_channel_id: channelId,
    system_channel_flags: 0,
    rules_channel_id: null,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    joined_at: '2025-01-15T10:00:00.000000+00:00',
    large: false,
    unavailable: false,
    member_count: 3,
    roles: [role(guildId, '@everyone', 0), ...(options.roles ?? []).map((r, i) => role(r.id, r.name, i + 1))],
    emojis: [],
    stickers: [],
    channels: [
      {
        id: channelId,
        type: 0,
        name: 'video-team',
        position: 0,
        permission_overwrites: [],
        parent_id: null,
        topic: null,
        nsfw: false,
        last_message_id: null,
        rate_limit_per_user: 0,
        flags: 0,
      },
    ],
    threads: [],
    members: [],
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
