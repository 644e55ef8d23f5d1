/**
 * The Discord `ChatSender`: long-lived cards are channel messages posted and edited with the BOT token
 * (interaction tokens die after 15 minutes, DESIGN §4).
 *
 * - A post carries `nonce` = hash of its outbox `dedupeId` with `enforce_nonce`, so Discord returns the first
 *   message instead of posting twice when a post is retried after a crash or a lost response.
 * - Milestones go in a thread started on the card's message. A thread started on a message has the message's
 *   id, so the address needs no lookup: `discord:<guild>:<card message id>:<reply id>`.
 * - A 429 is a retryable `ChatDeliveryError` with Retry-After (the REST client is set to reject on rate limits
 *   rather than wait, so the outbox decides); 5xx and network failures are retryable; other 4xx are not.
 * - A card's charts go with it as PNG files its gallery shows, as in interaction answers (files.ts). The card's
 *   files are the message's: an edit with charts lists only its new PNGs (Discord drops the old ones); an edit
 *   without charts drops the chart files the message still holds. A post or edit whose files Discord refuses for
 *   good (no Attach Files permission, too large) goes without them, saying so.
 */
import { createHash } from 'node:crypto';
import {
  type APIChannel,
  type APIMessage,
  DiscordAPIError,
  HTTPError,
  RateLimitError,
  type REST,
  RESTJSONErrorCodes,
  Routes,
} from 'discord.js';
import type { Card } from '../../src/core/index.js';
import {
  ChatDeliveryError,
  type ChatSender,
  type ConversationAddress,
  conversationAddress,
  decodeAddress,
  errorMessage,
  type Logger,
  type MessageAddress,
  messageAddress,
  type UserAddress,
} from '../../src/core/index.js';
import { chartUploads, droppingCharts, type FileBody, sendWithFiles } from './files.js';
import { clip, DISCORD } from './limits.js';
import type { DiscordRenderer } from './render.js';
import { DM_WORKSPACE } from './request-info.js';

/** Threads stay open a day after their last message (Discord archives them, a new reply reopens them). */
const THREAD_ARCHIVE_MINUTES = 1440;
const TITLES_KEPT = 2_000;

export function nonceOf(conversation: string, dedupeId: string): string {
  return createHash('sha256')
    .update(`${conversation}\n${dedupeId}`)
    .digest('base64url')
    .slice(0, DISCORD.nonce);
}

/** REST failures → the outbox's vocabulary. */
export function deliveryError(error: unknown): ChatDeliveryError {
  if (error instanceof ChatDeliveryError) return error;
  if (error instanceof RateLimitError) {
    const waitMs = Math.max(error.retryAfter, error.timeToReset, 0);
    return new ChatDeliveryError(`Discord rate limit on ${error.route}`, true, Math.ceil(waitMs / 100) / 10);
  }
  if (error instanceof DiscordAPIError) {
    const retryable = error.status >= 500 || error.status === 429;
    return new ChatDeliveryError(`Discord ${error.status} (code ${error.code}): ${error.message}`, retryable);
  }
  if (error instanceof HTTPError) {
    return new ChatDeliveryError(`Discord HTTP ${error.status}`, error.status >= 500 || error.status === 429);
  }
  // Timeouts and connection failures: the request may not have arrived; the nonce makes a retry safe.
  return new ChatDeliveryError(errorMessage(error), true);
}

function locate(address: string): { workspace: string; channel: string; message?: string } {
  let decoded: ReturnType<typeof decodeAddress>;
  try {
    decoded = decodeAddress(address);
  } catch {
    throw new ChatDeliveryError(`not an address: ${address}`, false);
  }
  if (decoded.platform !== 'discord') throw new ChatDeliveryError(`not a Discord address: ${address}`, false);
  return {
    workspace: decoded.workspace,
    channel: decoded.id,
    ...(decoded.message ? { message: decoded.message } : {}),
  };
}

export function createDiscordSender(options: {
  rest: REST;
  /** Renders cards and notices with commands named as on Discord, like interaction answers. */
  render: DiscordRenderer;
  logger: Logger;
}): ChatSender {
  const log = options.logger.child({ component: 'discord-sender' });
  const messages = new CardMessages(options.rest, options.render, log);
  const threads = new CardThreads(options.rest);

  return {
    platform: 'discord',

    async post(conversation: ConversationAddress, card: Card, opts): Promise<MessageAddress> {
      const target = locate(conversation);
      let channel = target.channel;
      if (opts.threadOf) {
        const parent = locate(opts.threadOf);
        // Direct messages have no threads: the reply goes in the conversation itself.
        if (parent.message && parent.workspace !== DM_WORKSPACE) {
          channel = await threads.on({ channel: parent.channel, message: parent.message }, card.title);
        }
      }
      const message = await messages.send(channel, card, {
        nonce: nonceOf(conversation, opts.dedupeId),
        enforce_nonce: true,
      });
      threads.remember(message.id, card.title);
      return messageAddress(conversationAddress('discord', target.workspace, channel), message.id);
    },

    async update(message: MessageAddress, card: Card): Promise<void> {
      const target = locate(message);
      if (!target.message) throw new ChatDeliveryError(`not a message address: ${message}`, false);
      await messages.edit({ channel: target.channel, message: target.message }, card);
      threads.remember(target.message, card.title);
    },

    /** A direct message; when the member does not accept them, a mention in the conversation instead. */
    async notify(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void> {
      const who = locate(user).channel;
      try {
        await messages.send(await messages.directChannel(who), card, {});
        return;
      } catch (error) {
        const closed = error instanceof ChatDeliveryError && !error.retryable;
        if (!closed) throw error;
        log.info({ user }, 'direct message refused; mentioning in the channel instead');
      }
      // In the channel the member is pinged: first in the card's notify list, so content and allowed_mentions name them.
      const notify = [user, ...(card.notify ?? []).filter((ref) => ref !== user)];
      await messages.send(locate(conversation).channel, { ...card, notify }, {});
    },
  };
}

async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  try {
    return (await fn()) as T;
  } catch (error) {
    throw deliveryError(error);
  }
}

/** Cards as channel messages over REST, failures in the outbox's vocabulary. */
class CardMessages {
  constructor(
    private readonly rest: REST,
    private readonly render: DiscordRenderer,
    private readonly log: Logger,
  ) {}

  /** A new message: a Components V2 card (the flag, components, who it pings; no content, no embeds). */
  async send(
    channel: string,
    card: Card,
    extra: Pick<FileBody, 'nonce' | 'enforce_nonce'>,
  ): Promise<APIMessage> {
    const payload = await this.render.card(card);
    const uploads = await chartUploads(card);
    return call<APIMessage>(() =>
      sendWithFiles(
        (request) => this.rest.post(Routes.channelMessages(channel), request),
        {
          flags: payload.flags,
          components: payload.components,
          allowed_mentions: payload.allowed_mentions,
          ...extra,
        },
        this.#sending(uploads),
      ),
    );
  }

  async edit(target: { channel: string; message: string }, card: Card): Promise<void> {
    const payload = await this.render.card(card);
    const uploads = await chartUploads(card);
    const route = Routes.channelMessage(target.channel, target.message);
    const edited = await call<APIMessage>(() =>
      sendWithFiles(
        (request) => this.rest.patch(route, request),
        {
          flags: payload.flags,
          components: payload.components,
          allowed_mentions: payload.allowed_mentions,
          // A card posted before Components V2 is an embed message (its content the mentions it pinged):
          // Discord's Edit Message sets IS_COMPONENTS_V2 on an existing message when the edit resets what
          // V2 forbids — `content` to null, `embeds` to [] (docs: resources/message#edit-message; `embeds:
          // null` was refused in practice, discord-api-docs#7787). Sent on every edit, so it does not matter
          // which kind the message is: for a V2 message they are already empty. The flag is never removed.
          content: null,
          embeds: [],
        },
        // Outbox cards hold no files but their charts: new ones replace every file the message had.
        this.#sending(uploads),
      ),
    );
    // Without charts, the edit left the message's files alone (most cards never had any, and the sender keeps
    // nothing to tell): Discord's answer says whether chart files from before remain, now shown by nothing.
    const keep = uploads.length === 0 ? droppingCharts(edited.attachments) : undefined;
    if (keep) await call(() => this.rest.patch(route, { body: { attachments: keep } }));
  }

  /** Files go with the bot token; only a final refusal (not a rate limit or an outage) sends the card without. */
  #sending(uploads: Awaited<ReturnType<typeof chartUploads>>) {
    return {
      uploads,
      log: this.log,
      auth: true,
      refusedFiles: (error: unknown) => !deliveryError(error).retryable,
      notice: 'card-files-refused' as const,
    };
  }

  /** The direct-message channel with a member: its id. */
  async directChannel(user: string): Promise<string> {
    const dm = await call<APIChannel>(() =>
      this.rest.post(Routes.userChannels(), { body: { recipient_id: user } }),
    );
    return dm.id;
  }
}

/** The threads of cards' milestones, named for their card's title. */
class CardThreads {
  /** Card titles by message id, to name the thread of a card's milestones. */
  readonly #titles = new Map<string, string>();
  /** Messages whose thread exists already (memory only; Discord says so again after a restart). */
  readonly #threads = new Set<string>();

  constructor(private readonly rest: REST) {}

  remember(id: string, title: string): void {
    this.#titles.delete(id);
    this.#titles.set(id, title);
    if (this.#titles.size > TITLES_KEPT) this.#titles.delete(this.#titles.keys().next().value as string);
  }

  /** The thread on `parent` (created if needed): its channel id. */
  async on(parent: { channel: string; message: string }, fallbackName: string): Promise<string> {
    if (this.#threads.has(parent.message)) return parent.message;
    try {
      await this.rest.post(Routes.threads(parent.channel, parent.message), {
        body: {
          name: clip(this.#titles.get(parent.message) ?? fallbackName, DISCORD.threadName) || 'reelbot',
          auto_archive_duration: THREAD_ARCHIVE_MINUTES,
        },
      });
    } catch (error) {
      const exists =
        error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage;
      if (!exists) throw deliveryError(error);
    }
    this.#threads.add(parent.message);
    return parent.message;
  }
}
