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
import { conversationAddress, decodeAddress, messageAddress } from '../../src/core/address.js';
import type { Card } from '../../src/core/cards.js';
import { errorMessage } from '../../src/core/describe-error.js';
import {
  ChatDeliveryError,
  type ChatSender,
  type ConversationAddress,
  type Logger,
  type MessageAddress,
  type UserAddress,
} from '../../src/core/ports.js';
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
  const { rest, render } = options;
  const log = options.logger.child({ component: 'discord-sender' });
  /** Card titles by message id, to name the thread of a card's milestones. */
  const titles = new Map<string, string>();
  /** Messages whose thread exists already (memory only; Discord says so again after a restart). */
  const threads = new Set<string>();

  const remember = (id: string, title: string) => {
    titles.delete(id);
    titles.set(id, title);
    if (titles.size > TITLES_KEPT) titles.delete(titles.keys().next().value as string);
  };

  async function call<T>(fn: () => Promise<unknown>): Promise<T> {
    try {
      return (await fn()) as T;
    } catch (error) {
      throw deliveryError(error);
    }
  }

  /** The thread on `parent` (created if needed): its channel id. */
  async function threadOn(
    parent: { channel: string; message: string },
    fallbackName: string,
  ): Promise<string> {
    if (threads.has(parent.message)) return parent.message;
    try {
      await rest.post(Routes.threads(parent.channel, parent.message), {
        body: {
          name: clip(titles.get(parent.message) ?? fallbackName, DISCORD.threadName) || 'reelbot',
          auto_archive_duration: THREAD_ARCHIVE_MINUTES,
        },
      });
    } catch (error) {
      const exists =
        error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage;
      if (!exists) throw deliveryError(error);
    }
    threads.add(parent.message);
    return parent.message;
  }

  /** A new message: a Components V2 card (the flag, components, who it pings; no content, no embeds). */
  async function send(channel: string, card: Card, extra: Record<string, unknown>): Promise<APIMessage> {
    const payload = await render.card(card);
    return call<APIMessage>(() =>
      rest.post(Routes.channelMessages(channel), {
        body: {
          flags: payload.flags,
          components: payload.components,
          allowed_mentions: payload.allowed_mentions,
          ...extra,
        },
      }),
    );
  }

  return {
    platform: 'discord',

    async post(conversation: ConversationAddress, card: Card, opts): Promise<MessageAddress> {
      const target = locate(conversation);
      let channel = target.channel;
      if (opts.threadOf) {
        const parent = locate(opts.threadOf);
        // Direct messages have no threads: the reply goes in the conversation itself.
        if (parent.message && parent.workspace !== DM_WORKSPACE) {
          channel = await threadOn({ channel: parent.channel, message: parent.message }, card.title);
        }
      }
      const message = await send(channel, card, {
        nonce: nonceOf(conversation, opts.dedupeId),
        enforce_nonce: true,
      });
      remember(message.id, card.title);
      return messageAddress(conversationAddress('discord', target.workspace, channel), message.id);
    },

    async update(message: MessageAddress, card: Card): Promise<void> {
      const target = locate(message);
      if (!target.message) throw new ChatDeliveryError(`not a message address: ${message}`, false);
      const payload = await render.card(card);
      await call(() =>
        rest.patch(Routes.channelMessage(target.channel, target.message as string), {
          body: {
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
        }),
      );
      remember(target.message, card.title);
    },

    /** A direct message; when the member does not accept them, a mention in the conversation instead. */
    async notify(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void> {
      const who = locate(user).channel;
      try {
        const dm = await call<APIChannel>(() =>
          rest.post(Routes.userChannels(), { body: { recipient_id: who } }),
        );
        await send(dm.id, card, {});
        return;
      } catch (error) {
        const closed = error instanceof ChatDeliveryError && !error.retryable;
        if (!closed) throw error;
        log.info({ user }, 'direct message refused; mentioning in the channel instead');
      }
      // In the channel the member is pinged: first in the card's notify list, so content and allowed_mentions name them.
      const notify = [user, ...(card.notify ?? []).filter((ref) => ref !== user)];
      await send(locate(conversation).channel, { ...card, notify }, {});
    },
  };
}
