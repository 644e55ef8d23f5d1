/**
 * The sender's WebClients, one per bot token. They never wait: rate-limited calls are rejected
 * (`rejectRateLimitedCalls`) and nothing is retried inside the client, so the outbox decides when to retry.
 */
import { webApi } from '@slack/bolt';
import { ChatDeliveryError, errorMessage } from '../../src/core/index.js';
import type { BotTokens } from './installations.js';

export interface DeliveryClientOptions {
  tokens: BotTokens;
  /** Web API base (`SLACK_API_URL`), default Slack's. */
  apiUrl?: string;
  /** Per-call timeout (default 10 s): a hung call must not hold the outbox lane. */
  timeoutMs?: number;
}

/** The client for a workspace's bot token; a token that cannot be had is a permanent delivery failure. */
export function createDeliveryClients(
  options: DeliveryClientOptions,
): (team: string) => Promise<webApi.WebClient> {
  const clients = new Map<string, webApi.WebClient>();
  return async function clientFor(team: string): Promise<webApi.WebClient> {
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
  };
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
