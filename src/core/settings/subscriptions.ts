/**
 * What a channel subscription is made of, shared by `subscribe` and `unsubscribe`: the store row plus the
 * watch that polls for it — a `feed` watch for `calendar` and `videos`, the series watcher for `series`, a
 * `digest` watch for each of `digest daily` and `digest weekly`.
 */

import { describeDigest, digestTarget, scheduleOf } from '../digests/digest-schedule.js';
import { feedTarget } from '../live/feed-watcher.js';
import type { ConversationAddress, Store, Subscription, SubscriptionKind, Watch } from '../ports/index.js';
import { type CardText, code, literal, md } from '../text/text.js';

export const FEED_KINDS = ['calendar', 'videos', 'series', 'digest'] as const;

/** The active watch behind a subscription, if it still runs. */
export async function subscriptionWatch(
  store: Store,
  sub: { kind: SubscriptionKind; target: string; conversation: ConversationAddress },
): Promise<Watch | undefined> {
  if (sub.kind === 'series') return await store.watches.findActiveIn('series', sub.target, sub.conversation);
  if (sub.kind === 'digest') {
    if (sub.target !== 'daily' && sub.target !== 'weekly') return undefined;
    return await store.watches.findActive('digest', digestTarget(sub.target, sub.conversation));
  }
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
  sub: Pick<Subscription, 'kind' | 'target' | 'filters'>,
  seriesName?: string,
): CardText {
  if (sub.kind === 'digest') {
    const schedule = scheduleOf(sub);
    return schedule ? md`the ${describeDigest(schedule, true)}` : md`the ${literal(sub.target)} digest`;
  }
  if (sub.kind === 'calendar') return md`the posting calendar`;
  if (sub.kind === 'videos') return md`new videos`;
  return seriesName ? md`the series **${literal(seriesName)}**` : md`the series ${code(sub.target)}`;
}

export const WHAT_IT_POSTS: Record<SubscriptionKind, CardText> = {
  calendar: md`every scheduled post that goes out or fails`,
  videos: md`every new video of the team`,
  series: md`each new episode, with its own status card`,
  digest: md`a summary of the team's posts, approvals and credits`,
};
