/**
 * The playground's `ChatSender`: what the outbox calls to post and edit long-lived cards. Addresses are
 * `playground:<workspace>:<channel>[:<message>]`.
 */

import type { Card } from '../../src/core/index.js';
import {
  ChatDeliveryError,
  type ChatSender,
  type ConversationAddress,
  conversationAddress,
  decodeAddress,
  type MessageAddress,
  messageAddress,
  type UserAddress,
} from '../../src/core/index.js';
import type { ChatRoom } from './chat-room.js';
import { drawCharts } from './html/data.js';

/** How many `dedupeId`s are remembered, so a retried post returns the message it already made. */
const DEDUPE_MEMORY = 1_000;

export function createPlaygroundSender(room: ChatRoom, workspace: string): ChatSender {
  const posted = new Map<string, MessageAddress>();

  /** The channel (and message id) of an address of this workspace; a foreign one is a wiring bug. */
  function locate(address: string): { channel: string; message?: string } {
    let decoded: ReturnType<typeof decodeAddress>;
    try {
      decoded = decodeAddress(address);
    } catch {
      throw new ChatDeliveryError(`not an address: ${address}`, false);
    }
    if (decoded.platform !== 'playground' || decoded.workspace !== workspace) {
      throw new ChatDeliveryError(`not a playground address of workspace ${workspace}: ${address}`, false);
    }
    if (!room.hasChannel(decoded.id))
      throw new ChatDeliveryError(`no playground channel #${decoded.id}`, false);
    return { channel: decoded.id, ...(decoded.message ? { message: decoded.message } : {}) };
  }

  return {
    platform: 'playground',

    async post(conversation: ConversationAddress, card: Card, options) {
      await drawCharts([card]);
      const known = posted.get(options.dedupeId);
      if (known) return known;
      const { channel } = locate(conversation);
      const parent = options.threadOf ? locate(options.threadOf) : undefined;
      const message = room.postCard(channel, card, parent?.message ? { threadOf: parent.message } : {});
      const address = messageAddress(conversationAddress('playground', workspace, channel), message.id);
      posted.set(options.dedupeId, address);
      if (posted.size > DEDUPE_MEMORY) posted.delete(posted.keys().next().value as string);
      return address;
    },

    async update(message: MessageAddress, card: Card) {
      await drawCharts([card]);
      const { channel, message: id } = locate(message);
      if (!id) throw new ChatDeliveryError(`not a message address: ${message}`, false);
      // History lives in memory: after a restart the store still edits cards posted by the earlier run.
      // Showing the card again (same address) beats dropping the edit.
      if (!room.replaceCard(channel, id, card)) room.postCard(channel, card, { id });
    },

    async notify(user: UserAddress, conversation: ConversationAddress, card: Card) {
      await drawCharts([card]);
      const { channel } = locate(conversation);
      const prefix = `playground:${workspace}:`;
      const userId = user.startsWith(prefix) ? user.slice(prefix.length) : '';
      if (userId === '' || userId.includes(':')) {
        throw new ChatDeliveryError(`not a playground user of workspace ${workspace}: ${user}`, false);
      }
      room.postCard(channel, card, { visibleTo: userId });
    },
  };
}
