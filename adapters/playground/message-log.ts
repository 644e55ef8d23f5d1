/**
 * The playground's chat history: messages kept in memory, a bounded list per channel (oldest dropped
 * first). A message is a bot card, or the echo of a command a user typed; `visibleTo` makes it private
 * to one user (ephemeral replies, command echoes). Replies point at their parent with `threadOf`.
 */
import type { Card } from '../../src/core/index.js';

export type PlaygroundMessage = {
  id: string;
  channel: string;
  at: number;
  /** Only this user id sees it; undefined = everyone in the channel. */
  visibleTo?: string;
  threadOf?: string;
} & (
  | {
      kind: 'card';
      card: Card;
      /** Further cards answered together (`home`): the message shows them as a panel after `card`. */
      more?: Card[];
    }
  | { kind: 'command'; userId: string; text: string }
);

/** Oldest messages of a channel are dropped beyond this many (replies included). */
export const CHANNEL_CAPACITY = 500;

export class MessageLog {
  readonly #channels = new Map<string, Map<string, PlaygroundMessage>>();
  readonly #capacity: number;

  constructor(capacity = CHANNEL_CAPACITY) {
    this.#capacity = capacity;
  }

  add(message: PlaygroundMessage): PlaygroundMessage {
    let channel = this.#channels.get(message.channel);
    if (!channel) {
      channel = new Map();
      this.#channels.set(message.channel, channel);
    }
    channel.set(message.id, message);
    // Maps iterate in insertion order, so the first keys are the oldest.
    for (const id of channel.keys()) {
      if (channel.size <= this.#capacity) break;
      channel.delete(id);
    }
    return message;
  }

  get(channel: string, id: string): PlaygroundMessage | undefined {
    return this.#channels.get(channel)?.get(id);
  }

  /** Replaces a card in place (same position, thread and visibility); a panel of cards becomes this card. */
  replaceCard(channel: string, id: string, card: Card): PlaygroundMessage | undefined {
    const existing = this.get(channel, id);
    if (existing?.kind !== 'card') return undefined;
    const { more: _panel, ...single } = existing;
    const updated: PlaygroundMessage = { ...single, card };
    this.#channels.get(channel)?.set(id, updated);
    return updated;
  }

  /** Replaces the card at `index` (0 the first) of a panel of cards (the dashboard), the others kept. */
  replaceInPanel(
    at: { channel: string; id: string; index: number },
    card: Card,
  ): PlaygroundMessage | undefined {
    const existing = this.get(at.channel, at.id);
    if (existing?.kind !== 'card' || !existing.more) return this.replaceCard(at.channel, at.id, card);
    const cards = [existing.card, ...existing.more];
    if (at.index < 0 || at.index >= cards.length) return undefined;
    cards[at.index] = card;
    const [first = card, ...more] = cards;
    const updated: PlaygroundMessage = { ...existing, card: first, more };
    this.#channels.get(at.channel)?.set(at.id, updated);
    return updated;
  }

  /** What `user` sees in `channel`, oldest first. */
  visible(channel: string, user: string): PlaygroundMessage[] {
    const all = [...(this.#channels.get(channel)?.values() ?? [])];
    return all.filter((m) => m.visibleTo === undefined || m.visibleTo === user);
  }

  clear(): void {
    this.#channels.clear();
  }
}
