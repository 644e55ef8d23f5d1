/** Video jobs for the benchmarks: created straight on the simulator, then watched as the create command does. */
import { videoCardKey } from '../../src/core/live/live-card.js';
import { showVideo } from '../../src/core/live/projections.js';
import type { VideoCardModel } from '../../src/core/live/video-card.js';
import type { Store } from '../../src/core/ports/index.js';

export type Model = 'storyboard' | 'motion_lite' | 'motion_pro';
/** Nominal generation times at simulator speed 1. */
export const MODEL_MS: Record<Model, number> = {
  storyboard: 90_000,
  motion_lite: 150_000,
  motion_pro: 240_000,
};
/** A mix weighted towards the cheap model. */
export const MODEL_MIX: Model[] = [
  'storyboard',
  'storyboard',
  'storyboard',
  'motion_lite',
  'motion_lite',
  'motion_pro',
];

/** POST /videos with a raw fetch (not through the bot's client, so it never counts as the bot's calls). */
export async function createVideo(
  apiUrl: string,
  key: string,
  input: { model: Model; name: string },
): Promise<string> {
  const res = await fetch(`${apiUrl}/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      script: `${input.name}: a short benchmark script that is long enough to pass validation.`,
      voiceId: 'voice_aria_en',
      model: input.model,
      name: input.name,
    }),
  });
  const body = (await res.json()) as { data?: { id: string } };
  if (!res.ok || !body.data) throw new Error(`create failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data.id;
}

/**
 * What the create command does once the video exists (src/core/videos/tracking.ts): the video's one card
 * state and its live card in `conversation` (`showVideo`), then ONE generation watch, first look in 10 s —
 * minus the command's own reads. `alsoShownIn` adds a projection per further conversation, as `/reel status`
 * elsewhere does (issue 16): the same video live in several conversations, still one watch. Call inside
 * `store.transaction`. Returns the card key of the watch's conversation.
 */
export async function watchGeneration(
  store: Store,
  input: {
    videoId: string;
    name: string;
    model: Model;
    owner: string;
    conversation: string;
    now: number;
    alsoShownIn?: readonly string[];
  },
): Promise<string> {
  const cardKey = videoCardKey(input.videoId, input.conversation);
  const model: VideoCardModel = {
    videoId: input.videoId,
    name: input.name,
    model: input.model,
    phase: 'generating',
    percent: 0,
  };
  await showVideo(store, { model, conversation: input.conversation, now: input.now });
  // The other conversations: the card comes to life there on the stored state, as `status` does.
  for (const conversation of input.alsoShownIn ?? []) {
    await showVideo(store, { model, conversation, now: input.now, keepState: true });
  }
  await store.watches.add({
    kind: 'generation',
    target: input.videoId,
    owner: input.owner,
    conversation: input.conversation,
    cardKey,
    state: { name: input.name, samples: [], lastStep: -1, phase: 'generating', startedAt: input.now },
    nextCheckAt: input.now + 10_000,
    expiresAt: input.now + 6 * 3600_000,
  });
  return cardKey;
}
