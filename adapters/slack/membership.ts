/**
 * Whether a member is in a Slack conversation, for the dashboard's subscriptions: asked with
 * `conversations.members` (https://docs.slack.dev/reference/methods/conversations.members), each channel once
 * per request. A channel the bot cannot read (a private one it is not in), a failed call or a member list
 * longer than we page through answer "cannot tell", which the core treats as "not a member".
 */
import type { webApi } from '@slack/bolt';
import type { ConversationMembership } from '../../src/core/index.js';
import { decodeAddress } from '../../src/core/index.js';

/** Pages of 1,000 members read at most per channel. */
const MAX_PAGES = 10;

export function slackMembership(client: webApi.WebClient, user: string): ConversationMembership {
  const answers = new Map<string, Promise<boolean | undefined>>();
  const ask = async (channel: string): Promise<boolean | undefined> => {
    try {
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const res = await client.conversations.members({
          channel,
          limit: 1000,
          ...(cursor ? { cursor } : {}),
        });
        if (res.members?.includes(user)) return true;
        cursor = res.response_metadata?.next_cursor || undefined;
        if (!cursor) return false;
      }
      return undefined;
    } catch {
      return undefined;
    }
  };
  return {
    isMember(conversation) {
      const { id } = decodeAddress(conversation);
      let answer = answers.get(id);
      if (!answer) {
        answer = ask(id);
        answers.set(id, answer);
      }
      return answer;
    },
  };
}
