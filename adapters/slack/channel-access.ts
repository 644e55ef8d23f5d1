/**
 * Whether the bot can post in a Slack channel (`settings alerts #channel`): asked with `conversations.info`
 * (https://docs.slack.dev/reference/methods/conversations.info), whose `is_member` is the bot's own membership
 * (the token's). An archived channel, one it is not in, or one it cannot see (`channel_not_found`: a private
 * channel without it) answers no; a failed call or an answer without `is_member` answers "cannot tell",
 * which the core refuses.
 */
import type { webApi } from '@slack/bolt';
import type { ChannelAccess } from '../../src/core/index.js';
import { decodeAddress } from '../../src/core/index.js';

export function slackChannelAccess(client: webApi.WebClient): ChannelAccess {
  return {
    async botCanPost(conversation) {
      try {
        const { channel } = await client.conversations.info({ channel: decodeAddress(conversation).id });
        if (channel?.is_archived === true) return false;
        return typeof channel?.is_member === 'boolean' ? channel.is_member : undefined;
      } catch (error) {
        return (error as { data?: { error?: unknown } }).data?.error === 'channel_not_found'
          ? false
          : undefined;
      }
    },
  };
}
