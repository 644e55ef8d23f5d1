/**
 * Slack in front of several replicas: each slash command or button click is signed as Slack signs it
 * (test/slack/world.ts) and sent to the next replica in turn, like a round-robin load balancer. A replica that
 * refuses the connection or answers 5xx is skipped and the request goes to the next one, as a load balancer's
 * retry (and Slack's own) would; replicas seen dead are left out until the end, and so are those a test takes
 * out of rotation (`out`: a paused or partitioned replica, as a load balancer's health check drops it).
 */
import { findElement, fixture, SIGNING_SECRET, sign, slackEscape, TEAM } from '../../slack/world.js';
import type { Replica } from './replica.js';

export interface Sent {
  status: number;
  /** The replica that acknowledged it. */
  replica: string;
  responseUrl: string;
}

export class SlackFrontDoor {
  #next = 0;
  #counter = 0;
  /** Requests acknowledged, by replica id. */
  readonly served = new Map<string, number>();
  /** Ids of replicas out of rotation: no request goes to them until removed. */
  readonly out = new Set<string>();

  constructor(
    private readonly replicas: Replica[],
    private readonly responseUrl: () => string,
  ) {}

  /** `/reel <text>` from `user` in `channel`. */
  async command(user: string, channel: string, text: string): Promise<Sent> {
    const responseUrl = this.responseUrl();
    const payload = fixture<Record<string, string>>('slash-command.json');
    Object.assign(payload, {
      text: slackEscape(text),
      response_url: responseUrl,
      trigger_id: this.#trigger(),
      user_id: user,
      user_name: user.toLowerCase(),
      channel_id: channel,
      team_id: TEAM,
    });
    return { ...(await this.#deliver(new URLSearchParams(payload).toString())), responseUrl };
  }

  /** A click on the button for `action` in `blocks` (an ephemeral reply's, or a channel message's). */
  async click(
    user: string,
    channel: string,
    message: { blocks: unknown[]; ts: string; ephemeral: boolean },
    action: string,
  ): Promise<Sent> {
    const element = findElement(message.blocks, action);
    const responseUrl = this.responseUrl();
    const payload = fixture<Record<string, unknown>>('block-actions.json');
    Object.assign(payload, {
      user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: TEAM },
      container: {
        type: 'message',
        message_ts: message.ts,
        channel_id: channel,
        is_ephemeral: message.ephemeral,
      },
      channel: { id: channel, name: channel.toLowerCase() },
      message: { ...(payload.message as object), ts: message.ts, blocks: message.blocks },
      response_url: responseUrl,
      trigger_id: this.#trigger(),
      actions: [
        {
          type: 'button',
          action_id: element.action_id,
          block_id: 'b1',
          text: element.text,
          value: element.value,
          action_ts: `${Math.floor(Date.now() / 1000)}.000100`,
        },
      ],
    });
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    return { ...(await this.#deliver(body)), responseUrl };
  }

  async #deliver(body: string): Promise<{ status: number; replica: string }> {
    let last = 'no replica alive';
    for (let tries = 0; tries < this.replicas.length * 2; tries++) {
      const replica = this.replicas[this.#next++ % this.replicas.length] as Replica;
      if (!replica.alive || this.out.has(replica.id)) continue;
      const timestamp = Math.floor(Date.now() / 1000);
      try {
        const res = await fetch(`${replica.url}/slack/events`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-slack-request-timestamp': String(timestamp),
            'x-slack-signature': sign(body, timestamp, SIGNING_SECRET),
            'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
          },
          body,
          // Slack gives up after 3 s; a little more here so a loaded machine is not mistaken for a dead replica.
          signal: AbortSignal.timeout(10_000),
        });
        await res.text();
        if (res.status < 500) {
          this.served.set(replica.id, (this.served.get(replica.id) ?? 0) + 1);
          return { status: res.status, replica: replica.id };
        }
        last = `${replica.id} answered ${res.status}`;
      } catch (error) {
        last = `${replica.id}: ${String(error)}`;
      }
    }
    throw new Error(`no replica took the Slack request: ${last}`);
  }

  #trigger(): string {
    const n = ++this.#counter;
    return `${7_216_000_000_000 + n}.7141926741253.${(n * 7919).toString(16).padStart(32, 'a')}`;
  }
}
