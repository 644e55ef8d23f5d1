/**
 * Slack's `ChatSender`: the outbox posts long-lived cards with `chat.postMessage` (in the card's thread
 * when asked), edits them with `chat.update`, sends private notices with `chat.postEphemeral`, and publishes
 * members' App Homes again when what they show changed (`views.publish`).
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
import type { Card } from '../../src/core/index.js';
import {
  ChatDeliveryError,
  type ChatSender,
  type ConversationAddress,
  conversationAddress,
  decodeAddress,
  type Logger,
  type MessageAddress,
  messageAddress,
  type Store,
  type UserAddress,
} from '../../src/core/index.js';
import type { BlockSupport } from './block-support.js';
import { findPosted, postCard } from './card-posts.js';
import { sendDegrading } from './degrading.js';
import { createDeliveryClients } from './delivery-clients.js';
import { platformErrorCode, toDeliveryError } from './errors.js';
import type { BotTokens } from './installations.js';
import { cardToMessage, type SlackMessage } from './render.js';

export { CARD_EVENT_TYPE } from './card-posts.js';

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
  /** Which newest blocks each workspace takes (block-support.ts). */
  blockSupport?: BlockSupport;
  /** Publishes a member's App Home again (listeners/publish-home.ts), with the workspace's delivery client. */
  home?: (user: UserAddress, client: webApi.WebClient) => Promise<void>;
}

/** Where the newest blocks are remembered for `workspace`, when they are. */
const blocksOf = (support: BlockSupport | undefined, workspace: string) =>
  support ? { blocks: { support, workspace } } : {};

export function createSlackSender(options: SlackSenderOptions): ChatSender {
  const log = options.logger.child({ component: 'slack-sender' });
  const clientFor = createDeliveryClients(options);
  /** Rows whose last attempt Slack answered with an error: nothing was posted, no lookup needed. */
  const rejected = new Set<string>();

  /** Calls Slack; an error Slack answered (not a timeout or network failure) marks the row as not posted. */
  async function call<T>(name: string, fn: () => Promise<T>, dedupeId?: string): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (dedupeId && answeredBySlack(error)) rejected.add(dedupeId);
      throw toDeliveryError(error, name);
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
      const prior = await journal.get(dedupeId);
      if (prior?.message) return prior.message;
      const client = await clientFor(workspace);
      const where = { channel, dedupeId, ...(threadTs ? { threadTs } : {}) };
      if (prior && !rejected.has(dedupeId)) {
        const ts = await findPosted(client, { ...where, startedAt: prior.startedAt }, log);
        if (ts) {
          const address = messageAddress(conversation, ts);
          await journal.finish(dedupeId, address);
          log.info({ dedupeId, channel }, 'found the card an earlier attempt posted; not posting again');
          return address;
        }
      }
      if (!prior) await journal.begin(dedupeId, conversation);
      const posted = await call(
        'chat.postMessage',
        () => postCard(client, { ...where, card, ...blocksOf(options.blockSupport, workspace) }, log),
        dedupeId,
      );
      rejected.delete(dedupeId);
      const address = messageAddress(conversationAddress('slack', workspace, posted.channel), posted.ts);
      await journal.finish(dedupeId, address);
      return address;
    },

    async update(message: MessageAddress, card: Card) {
      const { workspace, id: channel, message: ts } = slackAddress(message);
      if (!ts) throw new ChatDeliveryError(`not a Slack message address: ${message}`, false);
      const client = await clientFor(workspace);
      const where = { log, what: 'update', channel, ...blocksOf(options.blockSupport, workspace) };
      await call('chat.update', () =>
        sendDegrading(card, where, (message) => client.chat.update({ channel, ts, ...message })),
      );
    },

    notify: (user, conversation, card) => privately(clientFor, { user, conversation, card }, ephemeralOrDm),
    // An ephemeral message notifies no one: a ping moved to a direct message goes there at once.
    direct: (user, conversation, card) => privately(clientFor, { user, conversation, card }, directMessage),

    async refreshHome(user: UserAddress) {
      const home = options.home;
      if (!home) return;
      const client = await clientFor(slackAddress(user).workspace);
      await call('views.publish', () => home(user, client));
    },
  };
}

/** A private message to a member of the conversation's workspace (one of another is refused for good). */
async function privately(
  clientFor: (workspace: string) => Promise<webApi.WebClient>,
  notice: { user: UserAddress; conversation: ConversationAddress; card: Card },
  deliver: (
    client: webApi.WebClient,
    to: { channel: string; user: string; message: SlackMessage },
  ) => Promise<void>,
): Promise<void> {
  const { workspace, id: channel } = slackAddress(notice.conversation);
  const target = slackAddress(notice.user);
  if (target.workspace !== workspace) {
    throw new ChatDeliveryError(`user ${notice.user} is not of workspace ${workspace}`, false);
  }
  await deliver(await clientFor(workspace), {
    channel,
    user: target.id,
    message: cardToMessage(notice.card),
  });
}

/** A private notice in the channel; where it cannot be shown, in the app's DM with the member. */
async function ephemeralOrDm(
  client: webApi.WebClient,
  notice: { channel: string; user: string; message: SlackMessage },
): Promise<void> {
  const { channel, user } = notice;
  const { text, blocks } = notice.message;
  try {
    await client.chat.postEphemeral({ channel, user, text, blocks });
  } catch (error) {
    const code = platformErrorCode(error);
    if (!code || !DM_FALLBACK.has(code)) throw toDeliveryError(error, 'chat.postEphemeral');
    await directMessage(client, notice);
  }
}

/** A message in the app's DM with the member: posting to a user id lands there. */
async function directMessage(
  client: webApi.WebClient,
  notice: { user: string; message: SlackMessage },
): Promise<void> {
  const { text, blocks } = notice.message;
  try {
    await client.chat.postMessage({ channel: notice.user, text, blocks, unfurl_links: false });
  } catch (error) {
    throw toDeliveryError(error, 'chat.postMessage');
  }
}

/** Slack itself answered with an error (not a timeout or a network failure): nothing was posted. */
function answeredBySlack(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return (
    code === webApi.ErrorCode.PlatformError ||
    code === webApi.ErrorCode.RateLimitedError ||
    (code === webApi.ErrorCode.HTTPError && (error as { statusCode?: number }).statusCode !== 504)
  );
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
