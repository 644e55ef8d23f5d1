/**
 * Discord in front of several replicas in HTTP interactions mode: each interaction is registered with the
 * fake Discord (so follow-ups and edits through its webhook land there), signed with the application's
 * Ed25519 key as Discord signs it, and POSTed to the next replica's `/discord/interactions` in turn, like a
 * round-robin load balancer; the replica's HTTP answer is the interaction's first response.
 */
import type { FakeDiscord, FakeInteraction, FakeMessage } from '../../discord/fake-discord.js';
import {
  clickPayload,
  commandOptions,
  interactionPayload,
  type Json,
  type MemberName,
  submitPayload,
} from '../../discord/world.js';
import type { DiscordSigner } from '../../support/ed25519.js';
import type { Replica } from './replica.js';

/** An interaction once answered, and the replica that answered it. */
export interface Served {
  record: FakeInteraction;
  replica: string;
}

export class DiscordFrontDoor {
  #next = 0;

  constructor(
    private readonly replicas: Replica[],
    private readonly fake: FakeDiscord,
    private readonly signer: DiscordSigner,
  ) {}

  /** `/reel <path> option:value…` as `as`. */
  slash(path: string, options: Record<string, string>, as: MemberName): Promise<Served> {
    const payload = interactionPayload('chat-input', as);
    payload.data.options = commandOptions(this.fake, path.split(' '), options);
    return this.send(payload);
  }

  click(message: FakeMessage, control: string, as: MemberName, values?: string[]): Promise<Served> {
    return this.send(clickPayload(this.fake, { message, control, as, ...(values ? { values } : {}) }));
  }

  submit(modalOf: FakeInteraction, values: Record<string, string>, as: MemberName): Promise<Served> {
    return this.send(submitPayload(this.fake, { modalOf, values, as }));
  }

  /** The message an interaction's first response made or changed (a deferred one's once edited). */
  original(record: FakeInteraction): FakeMessage {
    const message = record.original ? this.fake.messages.get(record.original) : undefined;
    if (!message) throw new Error(`interaction ${record.id} has no message (${record.events.join(', ')})`);
    return message;
  }

  /** Sends to the next replica; resolves once the first response is in (and a deferral's answer). */
  async send(payload: Json): Promise<Served> {
    const replica = this.replicas[this.#next++ % this.replicas.length] as Replica;
    const record = this.fake.register(payload);
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${replica.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': this.signer.sign(timestamp, body),
        'x-signature-timestamp': timestamp,
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status !== 200) throw new Error(`${replica.id} answered ${res.status}: ${await res.text()}`);
    const result = this.fake.applyCallback(record.id, record.token, (await res.json()) as Json);
    if (result.status >= 400)
      throw new Error(`fake refused ${replica.id}'s answer: ${JSON.stringify(result.body)}`);
    // Deferred ("thinking…", or a click's silent acknowledgement): the answer follows through the webhook.
    const type = (record.callbacks[0] as Json).type;
    if (type === 5 || type === 6)
      await this.fake.waitFor(
        () => record.events.some((e) => ['edit', 'delete', 'followup'].includes(e)),
        15_000,
      );
    return { record, replica: replica.id };
  }
}
