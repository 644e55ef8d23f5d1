/**
 * One test world for a video shown on three platforms at once: ONE harness (simulator over HTTP
 * behind a recording proxy, real client, SQLite, core, poller and outbox) shared by the Slack world (real Bolt
 * against the fake Slack Web API), the Discord world (real discord.js against the fake Discord gateway and
 * REST API) and the playground adapter (its real HTTP routes). Every platform delivers through its own real
 * sender; each helper reads a projection the way its members see it (Slack's last chat.update, Discord's
 * PATCHed message, the playground's history as HTML).
 */
import { Writable } from 'node:stream';
import { createPlaygroundAdapter, type PlaygroundAdapter } from '../../adapters/playground/index.js';
import { videoCardKey } from '../../src/core/live/live-card.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/observability/logger.js';
import type { SimulatorProfile } from '../../src/simulator/index.js';
import { controlsIn } from '../discord/read-message.js';
import { type World as DiscordWorld, discordWorld, textOfMessage } from '../discord/world.js';
import {
  blocksText,
  elements,
  type SlackWorld,
  address as slackAddress,
  slackWorld,
} from '../slack/world.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';

export const PLAYGROUND_CHANNEL = 'general';

/** A message as the playground's history answers it. */
export interface PlaygroundView {
  id: string;
  channel: string;
  threadOf?: string;
  html: string;
}

/** A projection as its platform shows it now: the card's text and its thread's replies. */
export interface Shown {
  text: string;
  /** Link buttons' URLs (the MP4 link). */
  links: string[];
  /** The text of each reply in the card's thread, in order. */
  thread: string[];
}

export interface CrossWorld {
  h: Harness;
  slack: SlackWorld;
  discord: DiscordWorld;
  playground: PlaygroundAdapter;
  playgroundUrl: string;
  conversations: { slack: string; discord: string; playground: string };
  /** A command typed in the playground's composer, as its page sends it. */
  playgroundCommand(text: string, user?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A click on a button of a playground message, as its page sends it. */
  playgroundClick(
    message: PlaygroundView,
    action: string,
    user?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** The playground channel's history as `user` sees it. */
  playgroundHistory(user?: string): Promise<PlaygroundView[]>;
  /** The video's projection in one platform's conversation, as that platform shows it (undefined: none). */
  shown(platform: 'slack' | 'discord' | 'playground', videoId: string): Promise<Shown | undefined>;
  close(): Promise<void>;
}

export async function crossWorld(profile: SimulatorProfile): Promise<CrossWorld> {
  const h = await createHarness({ platform: 'slack', proxy: true, simulator: { profile } });
  const slack = await slackWorld({ shared: h });
  const discord = await discordWorld({ shared: h });
  const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const http: HttpServer = createHttpServer({
    logger: quiet,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const playground = createPlaygroundAdapter({
    bot: h.bot,
    http,
    logger: h.deps.logger,
    clock: h.clock,
    channels: [PLAYGROUND_CHANNEL],
  });
  h.senders.playground = playground.sender;
  await playground.start();
  const { url: playgroundUrl } = await http.listen(0, '127.0.0.1');
  // The playground's members act with the same team's key as the Slack and Discord members.
  for (const user of playground.users)
    await h.store.keys.put(user.address, {
      apiKey: DEMO_KEY,
      keyPrefix: DEMO_KEY.slice(0, 12),
      teamId: 'team',
      teamName: 'Team',
    });

  const conversations = {
    slack: slackAddress.channel(),
    discord: discord.conversation,
    playground: playground.conversation(PLAYGROUND_CHANNEL),
  };

  async function postJson(path: string, body: unknown) {
    const res = await fetch(`${playgroundUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  async function playgroundHistory(user = 'alice'): Promise<PlaygroundView[]> {
    const res = await fetch(
      `${playgroundUrl}/playground/messages?user=${user}&channel=${PLAYGROUND_CHANNEL}`,
    );
    if (res.status !== 200) throw new Error(`playground history answered ${res.status}`);
    return ((await res.json()) as { messages: PlaygroundView[] }).messages;
  }

  /** The message id of the video's projection in `conversation` (from the store's card row). */
  const messageOf = async (videoId: string, conversation: string): Promise<string | undefined> => {
    const message = (await h.store.cards.get(videoCardKey(videoId, conversation)))?.message;
    return message?.slice(conversation.length + 1);
  };

  const world: CrossWorld = {
    h,
    slack,
    discord,
    playground,
    playgroundUrl,
    conversations,
    async playgroundCommand(text, user = 'alice') {
      const sent = await postJson('/playground/command', { user, channel: PLAYGROUND_CHANNEL, text });
      await h.flush();
      return sent;
    },
    async playgroundClick(message, action, user = 'alice') {
      const button = [...message.html.matchAll(/data-action="([^"]*)" data-value="([^"]*)"/g)].find(
        (m) => unescapeHtml(m[1] as string) === action,
      );
      if (!button) throw new Error(`no ${action} button on playground message ${message.id}`);
      const sent = await postJson('/playground/action', {
        user,
        channel: PLAYGROUND_CHANNEL,
        messageId: message.id,
        action,
        value: unescapeHtml(button[2] as string),
      });
      await h.flush();
      return sent;
    },
    playgroundHistory,
    async shown(platform, videoId) {
      const id = await messageOf(videoId, conversations[platform]);
      if (!id) return undefined;
      if (platform === 'slack') {
        const card = slack.fake.messages.find((m) => m.ts === id && !m.thread_ts);
        if (!card) return undefined;
        return {
          text: blocksText(card.blocks),
          links: elements(card.blocks ?? [])
            .filter((e) => typeof e.url === 'string')
            .map((e) => String(e.url)),
          thread: slack.fake.messages.filter((m) => m.thread_ts === id).map((m) => m.text),
        };
      }
      if (platform === 'discord') {
        const card = discord.fake.messages.get(id);
        if (!card || card.deleted) return undefined;
        return {
          text: textOfMessage(card),
          links: controlsIn(card)
            .filter((c) => typeof c.url === 'string')
            .map((c) => String(c.url)),
          thread: discord.fake.channelMessages(id).map((m) => textOfMessage(m)),
        };
      }
      const history = await playgroundHistory();
      const card = history.find((m) => m.id === id);
      if (!card) return undefined;
      return {
        text: htmlText(card.html),
        // Link buttons, and the download link under a playable video.
        links: [...card.html.matchAll(/<a class="(?:btn btn-link|video-download)" href="([^"]*)"/g)].map(
          (m) => unescapeHtml(m[1] as string),
        ),
        thread: history.filter((m) => m.threadOf === id).map((m) => htmlText(m.html)),
      };
    },
    async close() {
      await playground.stop();
      await http.close();
      await discord.close();
      await slack.close();
      await h.close();
    },
  };
  return world;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
export const unescapeHtml = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '');

/** The visible text of a playground message's HTML (tags dropped, entities read). */
export const htmlText = (html: string): string =>
  unescapeHtml(
    html
      .replace(/<(br|\/p|\/div|\/li|\/h\d)[^>]*>/g, '\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[ \t]+/g, ' '),
  );
