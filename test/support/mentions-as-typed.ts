/**
 * A core request carrying the mentions of `text` as its platform's adapter finds them, so core tests can type
 * `settings approvers <@U1>` (Slack), `<@&42>` (Discord) or `@&reviewers` (playground) as a member would.
 */

import { DISCORD_CAPABILITIES } from '../../adapters/discord/index.js';
import {
  channelsIn as discordChannels,
  mentionsIn as discordMentions,
} from '../../adapters/discord/request-info.js';
import { PLAYGROUND_CAPABILITIES } from '../../adapters/playground/index.js';
import {
  channelsIn as playgroundChannels,
  mentionsIn as playgroundMentions,
} from '../../adapters/playground/routes/members.js';
import { channelsIn as slackChannels, mentionsIn as slackMentions } from '../../adapters/slack/inbound.js';
import { SLACK_CAPABILITIES } from '../../adapters/slack/index.js';
import type { Mentioned, RequestInfo } from '../../src/core/dispatch/context.js';
import { decodeAddress } from '../../src/core/ports/address.js';
import type { ChatCapabilities, ChatPlatform } from '../../src/core/ports/index.js';

/** The capabilities each adapter sets on its requests (`RequestInfo.capabilities`). */
export const CAPABILITIES: Readonly<Record<ChatPlatform, ChatCapabilities>> = {
  slack: SLACK_CAPABILITIES,
  discord: DISCORD_CAPABILITIES,
  playground: PLAYGROUND_CAPABILITIES,
};

export function mentionsAsTyped(text: string, user: string): Mentioned[] {
  const { platform, workspace } = decodeAddress(user);
  if (platform === 'slack') return slackMentions(text, workspace);
  if (platform === 'discord') return discordMentions([text], workspace);
  return playgroundMentions(text, workspace);
}

/** The channels named in `text` as the platform's adapter finds them. */
export function channelsAsTyped(text: string, user: string): Mentioned[] {
  const { platform, workspace } = decodeAddress(user);
  if (platform === 'slack') return slackChannels(text, workspace);
  if (platform === 'discord') return discordChannels([text], workspace);
  return playgroundChannels(text, workspace);
}

/** `req` as its adapter would build it for a command whose text is `text`. */
export const typedBy = (req: RequestInfo, text: string): RequestInfo => {
  const channels = channelsAsTyped(text, req.user);
  return { ...req, mentions: mentionsAsTyped(text, req.user), ...(channels.length > 0 ? { channels } : {}) };
};
