/**
 * A series followed for its outcomes (`subscribe series <s> --status failed`, issue 32): instead of a status
 * card for every new episode, the channel gets one message per episode that settles with the status asked
 * for — a failed episode (its video could not be made, or its post failed) or one that went out. The series
 * watch remembers the outcomes it has seen (`<episode id>:<status>`), and the outbox dedupe key names the
 * episode and its outcome, so a restart, a retried look or a second replica never tells one twice.
 */

import type { Store, SubscriptionFilters, Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { type CardText, code, command, hole, literal, md } from '../text/text.js';
import type { Episode } from '../video-api/video-api.js';
import { postToChannel } from './live-card.js';
import type { WatchContext } from './watcher.js';

/** Episode statuses that are an outcome (the service lists `posted` and `failed`; others are still moving). */
const OUTCOMES = ['posted', 'failed'];
/** Outcomes kept in the watch's state; a page holds 20 episodes, so this is plenty. */
const OUTCOMES_KEPT = 200;
/** Videos read per look for their names; the rest are told by episode id. */
const MAX_LOOKUPS = 5;

/** The page's episodes that have an outcome, as the watch remembers them. */
export const settledEpisodes = (items: readonly Episode[]): string[] =>
  items.filter((e) => OUTCOMES.includes(e.status)).map((e) => `${e.id}:${e.status}`);

/** The outcome filter of the subscription behind this series watch; undefined: every episode gets its card. */
export async function outcomeFilter(store: Store, watch: Watch): Promise<SubscriptionFilters | undefined> {
  const row = (await store.subscriptions.list(watch.conversation)).find(
    (s) => s.kind === 'series' && s.target === watch.target,
  );
  return row?.filters?.status ? row.filters : undefined;
}

/** What the state remembers after this page: its outcomes, newest first, then older ones. */
export const rememberOutcomes = (items: readonly Episode[], previous: readonly string[] = []): string[] =>
  [...new Set([...settledEpisodes(items), ...previous])].slice(0, OUTCOMES_KEPT);

/**
 * The episodes whose outcome is new since `previous` and passes the filter, oldest first. Without `previous`
 * (a filter typed over a running watch) nothing is new: the outcomes that exist are history.
 */
export function newOutcomes(
  items: readonly Episode[],
  previous: readonly string[] | undefined,
  filters: SubscriptionFilters,
): Episode[] {
  if (!previous) return [];
  const told = new Set(previous);
  return items.filter((e) => e.status === filters.status && !told.has(`${e.id}:${e.status}`)).reverse();
}

/** One message per episode's outcome, each named by its video when that can be read. */
export async function outcomeCards(
  ctx: WatchContext,
  input: { episodes: Episode[]; seriesName: string },
): Promise<Array<{ episode: Episode; card: Card }>> {
  const out: Array<{ episode: Episode; card: Card }> = [];
  for (const [i, episode] of input.episodes.entries()) {
    const video = i < MAX_LOOKUPS ? await readVideo(ctx, episode.projectId) : undefined;
    out.push({ episode, card: outcomeCard({ episode, seriesName: input.seriesName, video }) });
  }
  return out;
}

export async function postOutcomes(
  store: Store,
  input: { watch: Watch; cards: Array<{ episode: Episode; card: Card }> },
): Promise<void> {
  const { watch } = input;
  for (const { episode, card } of input.cards) {
    await postToChannel(store, {
      conversation: watch.conversation,
      card,
      dedupeKey: `series-outcome:${watch.target}@${watch.conversation}:${episode.id}:${episode.status}`,
    });
  }
}

interface EpisodeVideo {
  name: string;
  failed: boolean;
}

async function readVideo(ctx: WatchContext, id: string | undefined): Promise<EpisodeVideo | undefined> {
  if (!id) return undefined;
  try {
    const v = await ctx.api.videos.get(id, { priority: 'background' });
    return { name: v.name, failed: v.status === 'failed' };
  } catch (e) {
    // The name is a nicety: the message still says which episode, by its video id.
    ctx.logger.debug({ err: e, videoId: id }, 'episode video lookup failed');
    return undefined;
  }
}

function outcomeCard(input: { episode: Episode; seriesName: string; video: EpisodeVideo | undefined }): Card {
  const { episode, seriesName, video } = input;
  const id = episode.projectId;
  const what: CardText = video
    ? md`**${literal(video.name)}**`
    : id
      ? md`The episode ${code(id)}`
      : md`An episode`;
  const context = md`series ${literal(seriesName)}${id ? md` · video ${code(id)}` : md``} · series subscription`;
  if (episode.status === 'posted') {
    return {
      title: md`${literal(seriesName)}: an episode went out`,
      tone: 'success',
      text: md`${what} was posted.`,
      context,
    };
  }
  const text =
    video?.failed || !id
      ? md`${what} could not be made, so it will not be posted.${id ? md` See why with ${command('status', [id])}.` : md``}`
      : md`${what} could not be posted. Check the platform’s connection in the dashboard, then schedule it again: ${command('schedule', [id, hole('platforms'), hole('when')])}.`;
  return { title: md`${literal(seriesName)}: an episode failed`, tone: 'danger', text, context };
}
