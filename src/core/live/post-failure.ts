/**
 * A scheduled post that failed (seen by the schedule watch): said on every card of the video with a
 * **Retry now** button, and the people it concerns pinged — who scheduled it and who approved it (DESIGN §4).
 */

import { platformName } from '../platforms/names.js';
import type { ConversationAddress, Store, UserAddress } from '../ports/index.js';
import { keepRetry, retryButton, retryIdOf } from '../publishing/post-retry.js';
import type { Card } from '../text/cards.js';
import { literal, md } from '../text/text.js';
import type { Ping } from './pings.js';
import { sayAboutVideo } from './projections.js';

/** Who a followed post concerns and what it carried when scheduled (kept on the schedule watch's post). */
export interface PostOrigin {
  /** Who scheduled it, and where. */
  by?: UserAddress;
  where?: ConversationAddress;
  /** The approval it ran under, and its approver. */
  approval?: string;
  approvedBy?: UserAddress;
  /** What it would post (publishing/post-retry.ts `contentOf`). */
  content?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads a stored post's origin tolerantly (posts followed before pings have none). */
export function readPostOrigin(raw: Record<string, unknown>): PostOrigin {
  const origin: PostOrigin = {};
  for (const key of ['by', 'where', 'approval', 'approvedBy', 'content'] as const) {
    const value = text(raw[key]);
    if (value !== undefined) origin[key] = value;
  }
  return origin;
}

/** The pings of a failed post: its scheduler, and its approver (each once). */
export const originPings = (o: PostOrigin): Ping[] =>
  [o.by, o.approvedBy].flatMap((user) => (user ? [{ user, ...(o.where ? { where: o.where } : {}) }] : []));

/**
 * Says a scheduled post failed, with Retry now: in every conversation showing the video, else where it was
 * scheduled, its scheduler and approver pinged. Call in the poller's transaction; said once per entry.
 */
export async function sayPostFailed(
  store: Store,
  input: {
    videoId: string;
    name: string;
    platform: string;
    entryId: string;
    origin: PostOrigin;
    conversation: ConversationAddress;
    dedupeKey: string;
  },
): Promise<void> {
  const { videoId, name, platform, origin } = input;
  const id = retryIdOf(videoId, input.entryId);
  await keepRetry(store, id, {
    videoId,
    platform,
    name,
    ...(origin.by ? { scheduledBy: origin.by } : {}),
    ...(origin.approval ? { approval: origin.approval } : {}),
    ...(origin.approvedBy ? { approvedBy: origin.approvedBy } : {}),
    ...(origin.content ? { content: origin.content } : {}),
  });
  const card: Card = {
    title: md`Failed on ${platformName(platform)}`,
    tone: 'danger',
    text: md`**${literal(name)}** could not be posted to ${platformName(platform)}. Check the account connection in the dashboard, then **Retry now** to post it at once.`,
    controls: [retryButton(id)],
  };
  await sayAboutVideo(store, {
    videoId,
    conversation: input.conversation,
    card,
    dedupeKey: input.dedupeKey,
    pings: originPings(origin),
  });
}
