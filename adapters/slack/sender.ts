/**
 * Slack's `ChatSender`: the outbox posts long-lived cards with `chat.postMessage` (in the card's thread
 * when asked), edits them with `chat.update`, and sends private notices with `chat.postEphemeral`.
 *
 * - Its WebClient never waits: rate-limited calls are rejected (`rejectRateLimitedCalls`) and nothing is
 *   retried inside the client, so a 429 becomes `ChatDeliveryError(retryable, retryAfter)` and the outbox
 *   retries after Retry-After. No handler is ever blocked behind a delivery.
 * - No duplicates after a crash: every post carries `metadata` {event_type `reelbot_card`, payload
 *   {dedupeId}} and is journalled (`store.deliveries`) before the call. A later attempt of the same outbox row
 *   whose earlier attempt may have reached Slack (journalled, no message recorded, and not a rejection this
 *   process saw) first looks for the message in `conversations.history` (or `conversations.replies` in a
 *   thread) and returns it instead of posting again. A first attempt never pays for that lookup.
 */
import { webApi } from '@slack/bolt';
import { conversationAddress, decodeAddress, messageAddress } from '../../src/core/address.js';
import type { Card } from '../../src/core/cards.js';
import { errorMessage } from '../../src/core/describe-error.js';
import {
  ChatDeliveryError,
  type ChatSender,
  type ConversationAddress,
  type Logger,
  type MessageAddress,
  type Store,
  type UserAddress,
} from '../../src/core/ports.js';
import { cardToMessage, fallbackText, type SlackMessage, withoutImages } from './blocks.js';
import { describeSlackError, platformErrorCode, refusedBlocks, toDeliveryError } from './errors.js';
import type { BotTokens } from './installations.js';

export const CARD_EVENT_TYPE = 'reelbot_card';
/** How far before the journalled start the history lookup reaches (clock skew between us and Slack). */
const LOOKUP_SLACK_S = 120;
/** A notice that cannot be shown in the channel goes to the user's DM instead. */
const DM_FALLBACK = new Set(['user_not_in_channel', 'channel_not_found', 'not_in_channel', 'is_archived']);

export interface SlackSenderOptions {
  tokens: BotTokens;
  store: Store;
  logger: Logger;
  /** Web API base (`SLACK_API_URL`), default Slack's. */
  apiUrl?: string;
  /** Per-call timeout (default 10 s): a hung call must not hold the outbox lane. */
  timeoutMs?: number;
}

export function createSlackSender(options: SlackSenderOptions): ChatSender {
  const log = options.logger.child({ component: 'slack-sender' });
  const clients = new Map<string, webApi.WebClient>();
  /** Rows whose last attempt Slack answered with an error: nothing was posted, no lookup needed. */
  const rejected = new Set<string>();

  async function clientFor(team: string): Promise<webApi.WebClient> {
    const token = await options.tokens.forTeam(team).catch((error: unknown) => {
      throw new ChatDeliveryError(errorMessage(error), false);
    });
    let client = clients.get(token);
    if (!client) {
      client = new webApi.WebClient(token, {
        ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
        rejectRateLimitedCalls: true,
        retryConfig: { retries: 0 },
        timeout: options.timeoutMs ?? 10_000,
        logger: silentSlackLogger,
      });
      clients.set(token, client);
    }
    return client;
  }

  /** Calls Slack; an error Slack answered (not a timeout or network failure) marks the row as not posted. */
  async function call<T>(name: string, fn: () => Promise<T>, dedupeId?: string): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const code = (error as { code?: string })?.code;
      const answered =
        code === webApi.ErrorCode.PlatformError ||
        code === webApi.ErrorCode.RateLimitedError ||
        (code === webApi.ErrorCode.HTTPError && (error as { statusCode?: number }).statusCode !== 504);
      if (dedupeId && answered) rejected.add(dedupeId);
      throw toDeliveryError(error, name);
    }
  }

  async function postMessage(
    client: webApi.WebClient,
    args: { channel: string; threadTs?: string; card: Card; dedupeId: string },
  ): Promise<{ channel: string; ts: string }> {
    const base = {
      channel: args.channel,
      ...(args.threadTs ? { thread_ts: args.threadTs } : {}),
      unfurl_links: false,
      unfurl_media: false,
      metadata: { event_type: CARD_EVENT_TYPE, event_payload: { dedupeId: args.dedupeId } },
    };
    const result = await degrading(args.card, { what: 'post', channel: args.channel }, (message) =>
      client.chat.postMessage({
        ...base,
        text: message.text,
        ...(message.blocks?.length ? { blocks: message.blocks } : {}),
      }),
    );
    return { channel: result.channel ?? args.channel, ts: result.ts as string };
  }

  /**
   * Sends the card as blocks; while Slack refuses the blocks (`invalid_blocks`: an image it cannot fetch, an
   * expired signed URL), again without images, then as text alone — so a card never freezes on one bad image.
   */
  async function degrading<T>(
    card: Card,
    where: { what: string; channel: string },
    send: (message: { text: string; blocks?: SlackMessage['blocks'] }) => Promise<T>,
  ): Promise<T> {
    const steps = [
      cardToMessage(card),
      cardToMessage(withoutImages(card)),
      { text: fallbackText(card), blocks: [] },
    ];
    for (let i = 0; ; i++) {
      try {
        return await send(steps[i] as SlackMessage);
      } catch (error) {
        if (i === steps.length - 1 || !refusedBlocks(error)) throw error;
        log.error(
          { slackError: platformErrorCode(error), channel: where.channel, what: where.what },
          i === 0
            ? 'Slack refused the card blocks; trying without images'
            : 'Slack refused the card blocks again; sending text only',
        );
      }
    }
  }

  /** The message an earlier attempt of this row posted, if Slack has it. */
  async function findPosted(
    client: webApi.WebClient,
    args: { channel: string; threadTs?: string; dedupeId: string; startedAt: number },
  ): Promise<string | undefined> {
    const oldest = (args.startedAt / 1000 - LOOKUP_SLACK_S).toFixed(6);
    const common = { channel: args.channel, oldest, include_all_metadata: true, limit: 200 };
    try {
      const page = args.threadTs
        ? await client.conversations.replies({ ...common, ts: args.threadTs })
        : await client.conversations.history(common);
      const found = page.messages?.find((m) => {
        const metadata = m.metadata as
          | { event_type?: string; event_payload?: { dedupeId?: unknown } }
          | undefined;
        return metadata?.event_type === CARD_EVENT_TYPE && metadata.event_payload?.dedupeId === args.dedupeId;
      });
      return found?.ts;
    } catch (error) {
      const described = describeSlackError(error);
      if (described.retryAfter !== undefined) throw toDeliveryError(error, 'conversations.history');
      // Without history access (scope, private channel) the post goes ahead: at-least-once, as documented.
      log.warn({ slackError: described.code, channel: args.channel }, 'could not look for an earlier post');
      return undefined;
    }
  }

  return {
    platform: 'slack',

    async post(conversation: ConversationAddress, card: Card, postOptions) {
      const { workspace, id: channel } = slackAddress(conversation);
      const thread = postOptions.threadOf ? slackAddress(postOptions.threadOf) : undefined;
      const threadTs = thread?.message;
      const { dedupeId } = postOptions;
      const journal = options.store.deliveries;
      const prior = journal.get(dedupeId);
      if (prior?.message) return prior.message;
      const client = await clientFor(workspace);
      if (prior && !rejected.has(dedupeId)) {
        const ts = await findPosted(client, {
          channel,
          dedupeId,
          startedAt: prior.startedAt,
          ...(threadTs ? { threadTs } : {}),
        });
        if (ts) {
          const address = messageAddress(conversation, ts);
          journal.finish(dedupeId, address);
          log.info({ dedupeId, channel }, 'found the card an earlier attempt posted; not posting again');
          return address;
        }
      }
      if (!prior) journal.begin(dedupeId, conversation);
      const posted = await call(
        'chat.postMessage',
        () =>
          postMessage(client, {
            channel,
            card,
            dedupeId,
            ...(threadTs ? { threadTs } : {}),
          }),
        dedupeId,
      );
      rejected.delete(dedupeId);
      const address = messageAddress(conversationAddress('slack', workspace, posted.channel), posted.ts);
      journal.finish(dedupeId, address);
      return address;
    },

    async update(message: MessageAddress, card: Card) {
      const { workspace, id: channel, message: ts } = slackAddress(message);
      if (!ts) throw new ChatDeliveryError(`not a Slack message address: ${message}`, false);
      const client = await clientFor(workspace);
      await call('chat.update', () =>
        degrading(card, { what: 'update', channel }, (message) =>
          client.chat.update({ channel, ts, ...message }),
        ),
      );
    },

    async notify(user: UserAddress, conversation: ConversationAddress, card: Card) {
      const { workspace, id: channel } = slackAddress(conversation);
      const target = slackAddress(user);
      if (target.workspace !== workspace) {
        throw new ChatDeliveryError(`user ${user} is not of workspace ${workspace}`, false);
      }
      const client = await clientFor(workspace);
      const { text, blocks } = cardToMessage(card);
      try {
        await client.chat.postEphemeral({ channel, user: target.id, text, blocks });
      } catch (error) {
        const code = platformErrorCode(error);
        if (!code || !DM_FALLBACK.has(code)) throw toDeliveryError(error, 'chat.postEphemeral');
        // Posting to a user id lands in the app's DM with them.
        await call('chat.postMessage', () =>
          client.chat.postMessage({ channel: target.id, text, blocks, unfurl_links: false }),
        );
      }
    },
  };
}

function slackAddress(address: string): { workspace: string; id: string; message?: string } {
  let decoded: ReturnType<typeof decodeAddress>;
  try {
    decoded = decodeAddress(address);
  } catch {
    throw new ChatDeliveryError(`not an address: ${address}`, false);
  }
  if (decoded.platform !== 'slack') throw new ChatDeliveryError(`not a Slack address: ${address}`, false);
  return decoded;
}

/** The WebClient logs rate limits and retries itself; the sender reports outcomes, so the client stays quiet. */
const silentSlackLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => 'error' as never,
  setName: () => {},
};
