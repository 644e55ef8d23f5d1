/**
 * **Retry now** on a scheduled post that failed (DESIGN §4): the failure's reply carries a button instead of a
 * command to retype. What the button needs is kept once, when the failure is seen, under an opaque id: the
 * video and platform, who scheduled and who approved it, and the content that was scheduled (what the approval
 * covered). The click (commands/publishing/retry-post.ts) publishes now, with a key of its own.
 */

import { createHash } from 'node:crypto';
import type { Store, UserAddress } from '../ports/index.js';
import type { Button } from '../text/cards.js';
import type { Platform, Video } from '../video-api/video-api.js';

export const RETRY_POST_ACTION = 'post.retry';

/** A failed scheduled post, as the Retry now button finds it. */
export interface PostRetry {
  videoId: string;
  platform: string;
  name: string;
  scheduledBy?: UserAddress;
  /** The approval the schedule ran under, and who approved it. */
  approval?: string;
  approvedBy?: UserAddress;
  /** What the schedule would post (`contentOf`), when it was scheduled: an approval covers this only. */
  content?: string;
  /** Attempts that failed: each next one is a new publish (a new idempotency key). */
  failedTries?: number;
  /** Set once a retry went out: later clicks say so and send nothing. */
  done?: { by: UserAddress; at: number; title: string };
}

const subjectOf = (id: string): string => `post-retry:${id}`;

/** The opaque id of one failed post (the same for every look at it, so the record is written once). */
export const retryIdOf = (videoId: string, entryId: string): string =>
  createHash('sha256').update(`${videoId}|${entryId}`).digest('hex').slice(0, 20);

/**
 * What a post of `video` on `platform` carries, compared as one string: its name, that platform's post details
 * and the thumbnail pick (what the content guard watches, approvals/content-guard.ts).
 */
export const contentOf = (video: Video, platform: Platform | string): string =>
  JSON.stringify({
    name: video.name,
    post: (video.posts as Record<string, unknown>)[platform] ?? null,
    thumbnail: video.thumbnails?.selectedVariantId ?? null,
  });

export const retryButton = (id: string): Button => ({
  kind: 'button',
  action: RETRY_POST_ACTION,
  value: id,
  label: 'Retry now',
  style: 'primary',
});

/** Keeps a failed post for its button; call in the transaction that says it failed. Keeps an older record. */
export async function keepRetry(store: Store, id: string, retry: PostRetry): Promise<void> {
  if (await store.cardStates.get(subjectOf(id))) return;
  await store.cardStates.put(subjectOf(id), { ...retry });
}

/** The failed post a button names; undefined for an unknown id. */
export async function readRetry(store: Store, id: string): Promise<PostRetry | undefined> {
  const raw = await store.cardStates.get(subjectOf(id));
  if (typeof raw?.videoId !== 'string' || typeof raw.platform !== 'string') return undefined;
  return raw as unknown as PostRetry;
}

export async function writeRetry(store: Store, id: string, retry: PostRetry): Promise<void> {
  await store.cardStates.put(subjectOf(id), { ...retry });
}
