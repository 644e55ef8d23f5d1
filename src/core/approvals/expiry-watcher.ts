/**
 * The `approval` watch: one per approval with an expiry (a scheduled post). Its `nextCheckAt` and
 * `expiresAt` are both the scheduled time, so the poller's first look at it is the expiry itself, which it
 * applies through `expire` without building any API call. `check` is only a fallback for a watch seen
 * early (it never uses the owner's client): it stops once the approval is decided, else waits for expiry.
 */

import type { Watcher, WatchStop } from '../live/watcher.js';
import { expireApproval } from './expire.js';

const MINUTE = 60_000;

export const approvalWatcher: Watcher = {
  kind: 'approval',
  minIntervalMs: 5_000,
  maxIntervalMs: 30 * MINUTE,
  async check({ store, now }, watch) {
    const approval = await store.approvals.get(watch.target);
    if (approval?.status !== 'pending' || approval.expiresAt === null)
      return { state: watch.state, done: true };
    return { state: watch.state, done: false, nextCheckInMs: Math.max(0, approval.expiresAt - now) };
  },
  async expire({ store, watch, now }: WatchStop) {
    const approval = await store.approvals.get(watch.target);
    if (approval?.status !== 'pending') return;
    if (approval.expiresAt !== null && now < approval.expiresAt) {
      // Closed early (the poller gave up on the owner's key, whatever the reason): the approval needs no key
      // until it is decided, so keep a watch for the real expiry time.
      await store.watches.add({
        kind: 'approval',
        target: approval.id,
        owner: watch.owner,
        conversation: watch.conversation,
        cardKey: watch.cardKey,
        state: {},
        nextCheckAt: approval.expiresAt,
        expiresAt: approval.expiresAt,
      });
      return;
    }
    await expireApproval(store, approval, now);
  },
};
