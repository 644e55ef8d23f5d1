/**
 * Messages where an interaction came from: through its `response_url` when it has one (works in channels the
 * bot is not in), else through the Web API; an App Home interaction's private answers go to the app's DM.
 */
import type { Clock } from '../../src/core/index.js';
import type { Surface } from './present.js';
import type { SlackMessage } from './render.js';
import { postToResponseUrl } from './response-url.js';

export async function replyEphemeral(clock: Clock, surface: Surface, message: SlackMessage): Promise<void> {
  if (surface.responseUrl) {
    await answerAt(clock, surface.responseUrl, { response_type: 'ephemeral', ...message });
  } else if (surface.channel) {
    await surface.client.chat.postEphemeral({ channel: surface.channel, user: surface.user, ...message });
  } else {
    await surface.client.chat.postMessage({ channel: surface.user, ...message });
  }
}

export async function replyInChannel(clock: Clock, surface: Surface, message: SlackMessage): Promise<void> {
  if (surface.responseUrl) {
    await answerAt(clock, surface.responseUrl, { response_type: 'in_channel', ...message });
  } else {
    await surface.client.chat.postMessage({ channel: surface.channel ?? surface.user, ...message });
  }
}

/** Replaces the clicked message; a private one without a response_url gets a new private answer instead. */
export async function replaceMessage(clock: Clock, surface: Surface, message: SlackMessage): Promise<void> {
  if (surface.message && surface.responseUrl) {
    await postToResponseUrl(clock, surface.responseUrl, { replace_original: true, ...message });
  } else if (surface.message && !surface.message.ephemeral && surface.channel) {
    await surface.client.chat.update({ channel: surface.channel, ts: surface.message.ts, ...message });
  } else {
    await replyEphemeral(clock, surface, message);
  }
}

/** A new message through the interaction's `response_url`, beside the one clicked (never replacing it). */
function answerAt(
  clock: Clock,
  responseUrl: string,
  message: SlackMessage & { response_type: 'ephemeral' | 'in_channel' },
): Promise<void> {
  return postToResponseUrl(clock, responseUrl, { replace_original: false, ...message });
}
