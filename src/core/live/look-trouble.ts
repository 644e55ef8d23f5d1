/**
 * What a video card says while looks at its job keep failing (DESIGN §4): after 3 failed looks a line in
 * words ("Can't read the video service's answer right now — still trying; last seen 62 % at 10:04"), cleared
 * by the next good look; after 15 minutes of it, the requester is told privately once, with the video id.
 */

import type { Store, UserAddress, Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { code, command, md } from '../text/text.js';
import { formatTime } from '../time/format.js';
import { notifyUser } from './live-card.js';
import { updateVideoCard } from './projections.js';
import type { WatchTrouble } from './watcher.js';

export interface LastSeen {
  /** 0..100 */
  percent: number;
  at: number;
}

/** The last progress reading kept in a watcher's samples, if any. */
export function lastSeenOf(samples: readonly LastSeen[]): LastSeen | undefined {
  return samples[samples.length - 1];
}

/** Who asked for the job: recorded on the watch when it started, else the key's owner. */
export function requesterOf(watch: Watch): UserAddress | undefined {
  const recorded = watch.state.requester;
  if (typeof recorded === 'string' && recorded) return recorded;
  return watch.owner || undefined;
}

async function troubleLine(
  store: Store,
  watch: Watch,
  { what, seen }: { what: string; seen: LastSeen | undefined },
): Promise<string> {
  const head = 'Can’t read the video service’s answer right now — still trying';
  if (!seen) return `${head}.`;
  const zone = (await store.settings.get(watch.conversation)).timeZone ?? 'UTC';
  const at = `${formatTime(seen.at, zone)}${zone === 'UTC' ? ' UTC' : ''}`;
  return `${head}; last seen ${what}${Math.round(seen.percent)} % at ${at}`;
}

const toldCard = (videoId: string, since: number, now: number): Card => ({
  title: md`Still can’t read your video’s progress`,
  tone: 'warning',
  text: md`For ${Math.round((now - since) / 60_000)} min the video service has not given a usable answer about video ${code(videoId)}. I keep looking and its card moves again as soon as it answers; ${command('status', [videoId])} shows it meanwhile.`,
});

/**
 * Applies a streak of failed looks to a video card: `what` names the job in the line (`''` for generation,
 * `render ` for a render), `seen` is the last good reading.
 */
export async function videoCardTrouble(
  { store, watch, event }: WatchTrouble,
  input: { videoId: string; what: string; seen: LastSeen | undefined },
): Promise<void> {
  const key = watch.cardKey;
  const dedupe = `${key ?? watch.id}:trouble:${watch.id}:${event.since}`;
  if (event.kind === 'long') {
    const user = requesterOf(watch);
    if (!user) return;
    await notifyUser(store, {
      user,
      conversation: watch.conversation,
      card: toldCard(input.videoId, event.since, event.now),
      dedupeKey: `${dedupe}:told`,
    });
    return;
  }
  if (!key) return;
  if (event.kind === 'failing') {
    await updateVideoCard(store, key, {
      patch: { trouble: await troubleLine(store, watch, input) },
      dedupeKey: dedupe,
    });
  } else {
    await updateVideoCard(store, key, { patch: { trouble: undefined }, dedupeKey: `${dedupe}:cleared` });
  }
}
