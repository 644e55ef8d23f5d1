/**
 * The right person is pinged (DESIGN §4): a milestone that concerns someone (their video is ready or failed,
 * the post they scheduled or approved failed) mentions them, as each wants it (`notify`): a mention in one
 * conversation showing the card (theirs when they asked there; a card's `notify` list is what pings on every
 * platform), a direct message instead, or nothing. Nobody else is pinged, and the milestone itself goes to
 * every conversation as before.
 */

import { decodeAddress, platformOf } from '../ports/address.js';
import type { ConversationAddress, Store, UserAddress } from '../ports/index.js';
import type { Card } from '../text/cards.js';

/** Who a milestone pings, and where each asked (their mention goes there when the card is shown there). */
export interface Ping {
  user: UserAddress;
  /** The conversation they acted in; the mention goes there when it shows the card. */
  where?: ConversationAddress;
}

/** How a milestone's pings are delivered: mentions per conversation, and direct messages. */
export interface PingPlan {
  mentions: Map<ConversationAddress, UserAddress[]>;
  direct: { user: UserAddress; conversation: ConversationAddress }[];
}

const teamOf = (address: string): string => {
  const { platform, workspace } = decodeAddress(address);
  return `${platform}:${workspace}`;
};

/**
 * Plans the pings of one milestone said in `shown` (the conversations it goes to, in order). A member is
 * mentioned once, in the conversation where they acted if it is among them, else in the first one of their
 * own team; with `notify --dm`, or when no conversation of their team shows it, by direct message instead;
 * with mentions off, not at all.
 */
export async function planPings(
  store: Store,
  input: { pings: readonly Ping[]; shown: readonly ConversationAddress[] },
): Promise<PingPlan> {
  const plan: PingPlan = { mentions: new Map(), direct: [] };
  const seen = new Set<UserAddress>();
  for (const { user, where } of input.pings) {
    if (!user || seen.has(user)) continue;
    seen.add(user);
    const mode = (await store.users.getNotify(user)) ?? 'mention';
    if (mode === 'off') continue;
    const own = input.shown.filter((c) => teamOf(c) === teamOf(user));
    const here = own.find((c) => c === where) ?? own[0];
    if (mode === 'dm' || here === undefined) {
      const conversation = here ?? where ?? input.shown[0];
      // A member of another platform than every card and where they acted: nowhere to reach them.
      if (conversation && platformOf(conversation) === platformOf(user))
        plan.direct.push({ user, conversation });
      continue;
    }
    plan.mentions.set(here, [...(plan.mentions.get(here) ?? []), user]);
  }
  return plan;
}

/** The milestone as `conversation` shows it: with its mentions there, if any. */
export function withMentions(card: Card, plan: PingPlan, conversation: ConversationAddress): Card {
  const users = plan.mentions.get(conversation);
  return users?.length ? { ...card, notify: [...(card.notify ?? []), ...users] } : card;
}

/** Queues the direct messages of a plan (the milestone itself, to each), once per milestone and member. */
export async function sendDirectPings(
  store: Store,
  input: { plan: PingPlan; card: Card; dedupeKey: string },
): Promise<void> {
  for (const { user, conversation } of input.plan.direct) {
    await store.outbox.enqueue(
      platformOf(conversation),
      { op: 'notify', user, conversation, card: input.card, direct: true },
      `${input.dedupeKey}@dm:${user}`,
    );
  }
}
