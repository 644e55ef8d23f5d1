/**
 * Long-lived cards (DESIGN §4): one card per job, posted and edited through the outbox with the bot
 * token. A state change and the message it causes are committed together: callers run these inside
 * `store.transaction`, and every enqueue carries a dedupe key unique to the state change, so a crash or a
 * retry never doubles a notification.
 */
import { createHash } from 'node:crypto';
import { refreshHomes } from '../home/home-refresh.js';
import { platformOf } from '../ports/address.js';
import type { ConversationAddress, Store, UserAddress } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { type CardText, md } from '../text/text.js';

/** Who asked for a card, and what they are told privately if the platform refuses to post it. */
export interface Unpostable {
  user: UserAddress;
  card: Card;
}

/**
 * The private notice for a card the platform refused (the bot is not in the channel). `next` completes
 * "invite @reelbot (or /invite) and …", e.g. "run " and a `command(`status`, [id])` reference.
 */
export const unpostableNotice = (user: UserAddress, next: CardText): Unpostable => ({
  user,
  card: {
    title: md`I can’t post in this channel`,
    tone: 'warning',
    text: md`I can’t post in this channel — invite @reelbot (or /invite) and ${next}.`,
  },
});

/** Creates (or re-uses) a card and queues its first post. Returns false if it was already posted. */
export async function postCard(
  store: Store,
  input: {
    key: string;
    conversation: ConversationAddress;
    card: Card;
    model?: Record<string, unknown>;
    /** Posts the card as a reply in the thread of another card. */
    threadOfCard?: string;
    /** Whom to tell, privately, if the platform refuses the post (see `unpostableNotice`). */
    onUnpostable?: Unpostable;
  },
): Promise<boolean> {
  const existing = await store.cards.get(input.key);
  await store.cards.put(input.key, {
    conversation: input.conversation,
    card: input.card,
    model: input.model ?? existing?.model ?? {},
  });
  if (existing)
    return editCard(store, input.key, {
      card: input.card,
      dedupeKey: `${input.key}:repost:${stamp(input.card)}`,
    });
  // Dashboards show approval requests and the like (video cards refresh them through projections.ts).
  await refreshHomes(store, { where: [input.conversation], cause: `${input.key}:post` });
  return await store.outbox.enqueue(
    platformOf(input.conversation),
    {
      op: 'post-card',
      cardKey: input.key,
      ...(input.threadOfCard ? { threadOfCard: input.threadOfCard } : {}),
      ...(input.onUnpostable ? { onUnpostable: input.onUnpostable } : {}),
    },
    `${input.key}:post`,
  );
}

/**
 * Posts again a card that never reached its channel (the platform refused it: the bot was not invited), with
 * its current content; false when it is posted already. Safe while the first post is still on its way: the
 * sender skips a post of a card that has its message. `dedupeKey` names the request (e.g. its instant).
 */
export async function repostIfUnposted(
  store: Store,
  input: { key: string; dedupeKey: string; onUnpostable?: Unpostable },
): Promise<boolean> {
  const record = await store.cards.get(input.key);
  if (!record || record.message) return false;
  return await store.outbox.enqueue(
    platformOf(record.conversation),
    {
      op: 'post-card',
      cardKey: input.key,
      ...(input.onUnpostable ? { onUnpostable: input.onUnpostable } : {}),
    },
    input.dedupeKey,
  );
}

/** Replaces a card's content and queues an edit; the sender coalesces edits into the latest. */
export async function editCard(
  store: Store,
  key: string,
  { card, dedupeKey, model }: { card: Card; dedupeKey: string; model?: Record<string, unknown> },
): Promise<boolean> {
  const record = await store.cards.get(key);
  if (!record) return false;
  await store.cards.put(key, { conversation: record.conversation, card, model: model ?? record.model });
  await refreshHomes(store, { where: [record.conversation], cause: `${key}|${dedupeKey}` });
  return await store.outbox.enqueue(
    platformOf(record.conversation),
    { op: 'update-card', cardKey: key },
    dedupeKey,
  );
}

/**
 * A milestone: a reply in the card's thread when the channel has threading on, else in the channel.
 * `dedupeKey` names the state change ("video X completed") so it is said once.
 */
export async function replyToCard(
  store: Store,
  input: { key: string; card: Card; dedupeKey: string; threaded: boolean },
): Promise<boolean> {
  const record = await store.cards.get(input.key);
  if (!record) return false;
  return await store.outbox.enqueue(
    platformOf(record.conversation),
    {
      op: 'reply',
      conversation: record.conversation,
      card: input.card,
      ...(input.threaded ? { threadOfCard: input.key } : {}),
    },
    input.dedupeKey,
  );
}

/** A message in a channel that is not tied to a card (subscriptions). */
export async function postToChannel(
  store: Store,
  input: { conversation: ConversationAddress; card: Card; dedupeKey: string },
): Promise<boolean> {
  return await store.outbox.enqueue(
    platformOf(input.conversation),
    { op: 'reply', conversation: input.conversation, card: input.card },
    input.dedupeKey,
  );
}

/** A private notice to one user (approval expired, job gave up). */
export async function notifyUser(
  store: Store,
  input: { user: UserAddress; conversation: ConversationAddress; card: Card; dedupeKey: string },
): Promise<boolean> {
  return await store.outbox.enqueue(
    platformOf(input.conversation),
    { op: 'notify', user: input.user, conversation: input.conversation, card: input.card },
    input.dedupeKey,
  );
}

/** Card key of a video's status card in one conversation: one card per video per channel. */
export const videoCardKey = (videoId: string, conversation: ConversationAddress): string =>
  `video:${videoId}@${conversation}`;

export const seriesCardKey = (seriesId: string, conversation: ConversationAddress): string =>
  `series:${seriesId}@${conversation}`;

const stamp = (card: Card): string =>
  createHash('sha1').update(JSON.stringify(card)).digest('hex').slice(0, 12);
