/**
 * The playground workspace as one object: the message history plus its live fan-out. Everything that
 * shows something (the outbox through `ChatSender`, and replies to clicks, commands and forms) goes
 * through here, so the history and the open pages never disagree.
 */
import { randomBytes } from 'node:crypto';
import type { Card, Clock } from '../../src/core/index.js';
import type { EventHub } from './event-hub.js';
import { type MessageView, renderMessage } from './html/message.js';
import { MessageLog, type PlaygroundMessage } from './message-log.js';

export class ChatRoom {
  readonly log = new MessageLog();
  readonly #hub: EventHub;
  readonly #clock: Clock;
  readonly #userName: (id: string) => string;
  readonly #channels: Set<string>;
  // Ids stay unique across restarts: cards in the store keep the addresses an earlier run handed out.
  readonly #prefix: string;
  #seq = 0;

  constructor(options: {
    hub: EventHub;
    clock: Clock;
    channels: readonly string[];
    userName: (id: string) => string;
  }) {
    this.#hub = options.hub;
    this.#clock = options.clock;
    this.#channels = new Set(options.channels);
    this.#userName = options.userName;
    this.#prefix = `${options.clock.now().toString(36)}${randomBytes(2).toString('hex')}`;
  }

  hasChannel(channel: string): boolean {
    return this.#channels.has(channel);
  }

  nextId(): string {
    this.#seq += 1;
    return `${this.#prefix}-${this.#seq}`;
  }

  /** Posts a card; a `threadOf` whose parent is gone (dropped from history) posts in the channel. */
  postCard(
    channel: string,
    card: Card,
    options: { visibleTo?: string; threadOf?: string; id?: string; more?: Card[] } = {},
  ): PlaygroundMessage {
    const parent = options.threadOf ? this.log.get(channel, options.threadOf) : undefined;
    return this.#add({
      kind: 'card',
      id: options.id ?? this.nextId(),
      channel,
      at: this.#clock.now(),
      card,
      ...(options.more?.length ? { more: options.more } : {}),
      ...(options.visibleTo !== undefined ? { visibleTo: options.visibleTo } : {}),
      // Replies nest one level, as on Slack: a reply to a reply joins the same thread.
      ...(parent ? { threadOf: parent.threadOf ?? parent.id } : {}),
    });
  }

  /** Shows what a user typed, to that user only (a command may carry private text). */
  echoCommand(channel: string, userId: string, text: string): PlaygroundMessage {
    return this.#add({
      kind: 'command',
      id: this.nextId(),
      channel,
      at: this.#clock.now(),
      userId,
      text,
      visibleTo: userId,
    });
  }

  /** Replaces a card; undefined when the message is not (or no longer) in the history. */
  replaceCard(channel: string, id: string, card: Card): PlaygroundMessage | undefined {
    const updated = this.log.replaceCard(channel, id, card);
    if (updated) this.#hub.message(this.view(updated), updated.visibleTo);
    return updated;
  }

  /** Replaces one card of a panel of cards (the dashboard); undefined when the message is gone. */
  replaceInPanel(
    at: { channel: string; id: string; index: number },
    card: Card,
  ): PlaygroundMessage | undefined {
    const updated = this.log.replaceInPanel(at, card);
    if (updated) this.#hub.message(this.view(updated), updated.visibleTo);
    return updated;
  }

  view(message: PlaygroundMessage): MessageView {
    return {
      id: message.id,
      channel: message.channel,
      ...(message.threadOf ? { threadOf: message.threadOf } : {}),
      html: renderMessage(message, { userName: this.#userName }),
    };
  }

  #add(message: PlaygroundMessage): PlaygroundMessage {
    this.log.add(message);
    this.#hub.message(this.view(message), message.visibleTo);
    return message;
  }
}
