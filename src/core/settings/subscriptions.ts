/**
 * What a channel subscription is made of, shared by `subscribe` and `unsubscribe`: the store row plus the
 * watch that polls for it — a `feed` watch for `calendar` and `videos`, the series watcher for `series`.
 */

import { feedTarget } from '../live/feed-watcher.js';
import type { ConversationAddress, Store, Subscription, SubscriptionKind, Watch } from '../ports/index.js';
import { type CardText, code, literal, md } from '../text/text.js';

export const FEED_KINDS = ['calendar', 'videos', 'series'] as const;

/** The active watch behind a subscription, if it still runs. */
export async function subscriptionWatch(
  store: Store,
  sub: { kind: SubscriptionKind; target: string; conversation: ConversationAddress },
): Promise<Watch | undefined> {
  if (sub.kind === 'series') return await store.watches.findActiveIn('series', sub.target, sub.conversation);
  return await store.watches.findActive(
    'feed',
    feedTarget({ kind: sub.kind, conversation: sub.conversation }),
  );
}

/** The series' name as its watch remembers it. */
export function seriesNameOf(watch: Watch | undefined): string | undefined {
  const name = (watch?.state as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

export function describeSubscription(
  sub: Pick<Subscription, 'kind' | 'target'>,
  seriesName?: string,
): CardText {
  if (sub.kind === 'calendar') return md`the posting calendar`;
  if (sub.kind === 'videos') return md`new videos`;
  return seriesName ? md`the series **${literal(seriesName)}**` : md`the series ${code(sub.target)}`;
}

export const WHAT_IT_POSTS: Record<SubscriptionKind, CardText> = {
  calendar: md`every scheduled post that goes out or fails`,
  videos: md`every new video of the team`,
  series: md`each new episode, with its own status card`,
};
