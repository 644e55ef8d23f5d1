/**
 * Long-lived card posts: each carries `metadata` {event_type `reelbot_card`, payload {dedupeId}}, so that a
 * later attempt of the same outbox row can find what an earlier one posted instead of posting again.
 */
import type { webApi } from '@slack/bolt';
import type { Card, Logger } from '../../src/core/index.js';
import { type DegradingSend, sendDegrading } from './degrading.js';
import { describeSlackError, toDeliveryError } from './errors.js';

export const CARD_EVENT_TYPE = 'reelbot_card';
/** How far before the journalled start the history lookup reaches (clock skew between us and Slack). */
const LOOKUP_SLACK_S = 120;

export async function postCard(
  client: webApi.WebClient,
  args: { channel: string; threadTs?: string; card: Card; dedupeId: string } & Pick<DegradingSend, 'blocks'>,
  log: Logger,
): Promise<{ channel: string; ts: string }> {
  const base = {
    channel: args.channel,
    ...(args.threadTs ? { thread_ts: args.threadTs } : {}),
    unfurl_links: false,
    unfurl_media: false,
    metadata: { event_type: CARD_EVENT_TYPE, event_payload: { dedupeId: args.dedupeId } },
  };
  const result = await sendDegrading(
    args.card,
    { log, what: 'post', channel: args.channel, ...(args.blocks ? { blocks: args.blocks } : {}) },
    (message) =>
      client.chat.postMessage({
        ...base,
        text: message.text,
        ...(message.blocks?.length ? { blocks: message.blocks } : {}),
      }),
  );
  return { channel: result.channel ?? args.channel, ts: result.ts as string };
}

/** The message an earlier attempt of this row posted, if Slack has it. */
export async function findPosted(
  client: webApi.WebClient,
  args: { channel: string; threadTs?: string; dedupeId: string; startedAt: number },
  log: Logger,
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
