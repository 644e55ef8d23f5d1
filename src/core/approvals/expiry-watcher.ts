/**
 * The `approval` watch: one per pending approval. Its `expiresAt` is the approval's expiry, which the poller
 * applies through `expire` without building any API call. Before that it looks at each reminder's time
 * (reminders.ts): `check` (which never uses the owner's client) sends the reminder that is due and waits for
 * the next one, or for the expiry; it stops once the approval is decided.
 */

import type { Watcher, WatchStop } from '../live/watcher.js';
import { approvalModel } from './effects.js';
import { expireApproval } from './expire.js';
import { nextLookAt, sendDueReminder } from './reminders.js';

const MINUTE = 60_000;

export const approvalWatcher: Watcher = {
  kind: 'approval',
  minIntervalMs: 5_000,
  maxIntervalMs: 30 * MINUTE,
  async check({ store, now }, watch) {
    const approval = await store.approvals.get(watch.target);
    if (approval?.status !== 'pending' || approval.expiresAt === null)
      return { state: watch.state, done: true };
    const expiresAt = approval.expiresAt;
    const requestedAt = (await approvalModel(store, approval))?.requestedAt ?? approval.createdAt;
    return {
      state: watch.state,
      done: false,
      nextCheckInMs: Math.max(0, nextLookAt(requestedAt, expiresAt, now) - now),
      apply: async (tx) => sendDueReminder(tx, approval, now),
    };
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
