/**
 * A chat platform that records what the outbox sender delivers. Typed against the `ChatSender` port;
 * failures can be scripted to exercise retries.
 */

import {
  ChatDeliveryError,
  type ChatPlatform,
  type ChatSender,
  type ConversationAddress,
  type MessageAddress,
  type UserAddress,
} from '../../src/core/ports/index.js';
import type { Card } from '../../src/core/text/cards.js';
import { asTyped } from './commands-as-typed.js';

export interface PostedMessage {
  message: MessageAddress;
  conversation: ConversationAddress;
  threadOf?: MessageAddress;
  dedupeId: string;
  /** Latest content (after edits). */
  card: Card;
  /** Every content the message had, first post included. */
  history: Card[];
}

export class FakeChat implements ChatSender {
  readonly posts: PostedMessage[] = [];
  readonly updates: { message: MessageAddress; card: Card }[] = [];
  readonly notices: { user: UserAddress; conversation: ConversationAddress; card: Card; direct?: boolean }[] =
    [];
  /** Scripted failures, consumed one per call. */
  readonly failures: ChatDeliveryError[] = [];
  private counter = 0;

  constructor(readonly platform: ChatPlatform) {}

  post(
    conversation: ConversationAddress,
    card: Card,
    options: { threadOf?: MessageAddress; dedupeId: string },
  ): Promise<MessageAddress> {
    const failure = this.failures.shift();
    if (failure) return Promise.reject(failure);
    // Shown as a Slack-like platform shows it: commands as typed there.
    card = asTyped(card);
    const message = `${conversation}:m${++this.counter}`;
    this.posts.push({
      message,
      conversation,
      dedupeId: options.dedupeId,
      card,
      history: [card],
      ...(options.threadOf ? { threadOf: options.threadOf } : {}),
    });
    return Promise.resolve(message);
  }

  update(message: MessageAddress, card: Card): Promise<void> {
    const failure = this.failures.shift();
    if (failure) return Promise.reject(failure);
    const posted = this.posts.find((p) => p.message === message);
    if (!posted) return Promise.reject(new ChatDeliveryError(`no message ${message}`, false));
    const shown = asTyped(card);
    posted.card = shown;
    posted.history.push(shown);
    this.updates.push({ message, card: shown });
    return Promise.resolve();
  }

  notify(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void> {
    const failure = this.failures.shift();
    if (failure) return Promise.reject(failure);
    this.notices.push({ user, conversation, card: asTyped(card) });
    return Promise.resolve();
  }

  direct(user: UserAddress, conversation: ConversationAddress, card: Card): Promise<void> {
    const failure = this.failures.shift();
    if (failure) return Promise.reject(failure);
    this.notices.push({ user, conversation, card: asTyped(card), direct: true });
    return Promise.resolve();
  }

  /** Top-level messages (not thread replies). */
  get channelMessages(): PostedMessage[] {
    return this.posts.filter((p) => !p.threadOf);
  }

  repliesTo(message: MessageAddress): PostedMessage[] {
    return this.posts.filter((p) => p.threadOf === message);
  }

  /** The first top-level message whose title matches. */
  find(title: string | RegExp): PostedMessage | undefined {
    return this.posts.find((p) =>
      typeof title === 'string' ? p.card.title === title : title.test(p.card.title),
    );
  }
}
