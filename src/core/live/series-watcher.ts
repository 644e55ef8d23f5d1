/**
 * The `series` watch: follows one series for one conversation and gives each new episode its own video
 * status card plus a `generation` watch (DESIGN §4 "each new episode gets its own status card").
 * Episodes only appear on the series' cadence (or a manual generate), so it polls every few minutes and
 * looks again just after the next posting slot. It never finishes while the series exists.
 */

import type { ConversationAddress, Store, UserAddress, Watch } from '../ports/index.js';
import { type Cadence, daysOf, describeSchedule, nextPostTime } from '../series/cadence.js';
import type { Card } from '../text/cards.js';
import { isNotFound } from '../text/not-found.js';
import { command, hole, literal, md } from '../text/text.js';
import type { Episode } from '../video-api/video-api.js';
import { postToChannel, unpostableNotice, videoCardKey } from './live-card.js';
import { showVideo } from './projections.js';
import {
  newOutcomes,
  outcomeCards,
  outcomeFilter,
  postOutcomes,
  rememberOutcomes,
} from './series-outcomes.js';
import type { VideoCardModel } from './video-card.js';
import { keyTrouble, type WatchContext, type Watcher, type WatchResult } from './watcher.js';

const MINUTE = 60_000;
export const SERIES_MIN_INTERVAL_MS = MINUTE;
export const SERIES_MAX_INTERVAL_MS = 15 * MINUTE;
/** Between slots, a look every few minutes catches episodes generated from the dashboard. */
const SERIES_DEFAULT_INTERVAL_MS = 5 * MINUTE;
/** Episodes are generated at the slot; look a little after it. */
const AFTER_SLOT_MS = 30_000;
/** A series runs for months: the watch lives as long as it does. */
export const SERIES_WATCH_TTL_MS = 365 * 24 * 60 * MINUTE;
/** Re-read the configuration (time, days, zone, paused) this often to keep the cadence guess right. */
const CONFIG_REFRESH_MS = 60 * MINUTE;
/** Generation takes minutes; the generation watcher's own bounds take over after the first look. */
const GENERATION_FIRST_CHECK_MS = 10_000;
/** As long as a generation watch started by `create` (videos/tracking.ts). */
const GENERATION_WATCH_TTL_MS = 6 * 60 * MINUTE;
/** Seen episode ids kept in state; page 1 holds 20, so this is plenty. */
const SEEN_LIMIT = 200;

interface SeriesWatchState {
  /** false until the first look recorded what already existed (no flood of old episodes). */
  primed: boolean;
  seen: string[];
  name?: string;
  /** brollModel, for the episode cards. */
  model?: string;
  cadence?: Cadence;
  paused?: boolean;
  configAt?: number;
  /** The episodes' outcomes seen (`<id>:<status>`), for a subscription filtered by status (series-outcomes.ts). */
  settled?: string[];
}

function readState(raw: Record<string, unknown>): SeriesWatchState {
  const seen = Array.isArray(raw.seen) ? raw.seen.filter((s): s is string => typeof s === 'string') : [];
  const state: SeriesWatchState = { primed: raw.primed === true, seen };
  if (typeof raw.name === 'string') state.name = raw.name;
  if (typeof raw.model === 'string') state.model = raw.model;
  if (raw.cadence && typeof raw.cadence === 'object') state.cadence = raw.cadence as Cadence;
  if (typeof raw.paused === 'boolean') state.paused = raw.paused;
  if (typeof raw.configAt === 'number') state.configAt = raw.configAt;
  if (Array.isArray(raw.settled))
    state.settled = raw.settled.filter((s): s is string => typeof s === 'string');
  return state;
}

/**
 * Starts following a series in a conversation (one watch per series per conversation). `primed` with the
 * episode ids already shown means "announce every other episode" — right for a series created here, whose
 * episodes are all news; a subscription to an existing series starts unprimed.
 */
export async function watchSeries(
  store: Store,
  input: {
    seriesId: string;
    conversation: ConversationAddress;
    owner: UserAddress;
    now: number;
    name?: string;
    primed: boolean;
    seen?: string[];
    /** The episodes' outcomes that exist now (`settledEpisodes`): history for a status filter. */
    settled?: string[];
    firstCheckInMs?: number;
  },
): Promise<Watch> {
  const existing = await store.watches.findActiveIn('series', input.seriesId, input.conversation);
  if (existing) {
    if (input.seen?.length || input.settled) {
      const state = readState(existing.state);
      const seen = merge(input.seen ?? [], state.seen);
      const settled = input.settled
        ? rememberOutcomes([], [...input.settled, ...(state.settled ?? [])])
        : state.settled;
      await store.watches.update(existing.id, { state: { ...state, seen, ...(settled ? { settled } : {}) } });
    }
    return existing;
  }
  const state: SeriesWatchState = { primed: input.primed, seen: input.seen ?? [] };
  if (input.settled) state.settled = input.settled;
  if (input.name) state.name = input.name;
  return await store.watches.add({
    kind: 'series',
    target: input.seriesId,
    owner: input.owner,
    conversation: input.conversation,
    cardKey: null,
    state: state as unknown as Record<string, unknown>,
    nextCheckAt: input.now + (input.firstCheckInMs ?? SERIES_MIN_INTERVAL_MS),
    expiresAt: input.now + SERIES_WATCH_TTL_MS,
  });
}

/** Stops following a series in one conversation (after a deliberate delete); true if a watch was active. */
export async function unwatchSeries(
  store: Store,
  seriesId: string,
  conversation: ConversationAddress,
): Promise<boolean> {
  let stopped = false;
  // Normally one; any duplicate is stopped too (each update removes it from the active set).
  for (let w = await store.watches.findActiveIn('series', seriesId, conversation); w; ) {
    await store.watches.update(w.id, { status: 'done' });
    stopped = true;
    w = await store.watches.findActiveIn('series', seriesId, conversation);
  }
  return stopped;
}

/**
 * The series changed from chat (paused, resumed, new schedule): every watch of it re-reads the configuration
 * at its next look and looks soon, so the cadence guess follows at once.
 */
export async function refreshSeriesWatches(store: Store, seriesId: string, now: number): Promise<void> {
  for (const w of await store.watches.activeWhere({ kind: 'series', target: seriesId })) {
    const { configAt: _stale, ...state } = readState(w.state);
    await store.watches.update(w.id, {
      state: state as unknown as Record<string, unknown>,
      nextCheckAt: Math.min(w.nextCheckAt, now + SERIES_MIN_INTERVAL_MS),
    });
  }
}

/**
 * Posts a video status card for a new video (a series episode) and watches its generation, once per video
 * per conversation: if the card already exists (the `series generate` click, or another watcher) nothing
 * is added. Call inside a transaction. Returns whether a card was started.
 */
export async function startEpisodeCard(
  store: Store,
  input: {
    videoId: string;
    name: string;
    conversation: ConversationAddress;
    owner: UserAddress;
    now: number;
    model?: string;
    credits?: number;
    requestedBy?: string;
    /** Who asked for it (a `series generate` click), told privately if the platform refuses the card. */
    requester?: UserAddress;
  },
): Promise<boolean> {
  const key = videoCardKey(input.videoId, input.conversation);
  // Already shown here (a `series generate` click, `status`, another watcher): never a second card.
  if (await store.cards.get(key)) return false;
  const model: VideoCardModel = { videoId: input.videoId, name: input.name, phase: 'generating', percent: 0 };
  if (input.model) model.model = input.model;
  if (input.credits !== undefined) model.credits = input.credits;
  if (input.requestedBy) model.requestedBy = input.requestedBy;
  const watching = await store.watches.findActive('generation', input.videoId);
  await showVideo(store, {
    model,
    conversation: input.conversation,
    now: input.now,
    keepState: watching !== undefined,
    ...(input.requester
      ? { onUnpostable: unpostableNotice(input.requester, md`run ${command('status', [input.videoId])}`) }
      : {}),
  });
  // One watch per video: another conversation's watch already keeps this card up to date too.
  if (watching) return true;
  await store.watches.add({
    kind: 'generation',
    target: input.videoId,
    owner: input.owner,
    conversation: input.conversation,
    cardKey: key,
    // The generation watcher's own state shape (see generation-state.ts `readGenerationState`).
    state: { name: input.name, samples: [], lastStep: -1, phase: 'generating' },
    nextCheckAt: input.now + GENERATION_FIRST_CHECK_MS,
    expiresAt: input.now + GENERATION_WATCH_TTL_MS,
  });
  return true;
}

const merge = (fresh: string[], old: string[]): string[] =>
  [...new Set([...fresh, ...old])].slice(0, SEEN_LIMIT);

/** When to look again: just after the next slot when it is near, otherwise every few minutes. */
export function nextSeriesCheckIn(state: Pick<SeriesWatchState, 'cadence' | 'paused'>, now: number): number {
  if (state.paused) return SERIES_MAX_INTERVAL_MS;
  const slot = state.cadence ? nextPostTime(state.cadence, now) : undefined;
  if (slot !== undefined && slot - now <= SERIES_DEFAULT_INTERVAL_MS) {
    return Math.max(SERIES_MIN_INTERVAL_MS, slot - now + AFTER_SLOT_MS);
  }
  return SERIES_DEFAULT_INTERVAL_MS;
}

/** Credits per episode from the models catalog; the card simply omits them when it cannot be read. */
async function modelCost(ctx: WatchContext, model: string): Promise<number | undefined> {
  try {
    const catalog = await ctx.api.options.get('models', { priority: 'background' });
    return catalog.items.find((i) => i.value === model)?.credits;
  } catch (e) {
    ctx.logger.debug({ err: e }, 'models catalog unreadable');
    return undefined;
  }
}

/** Re-reads the series' configuration (name, model, cadence, paused) when it is older than an hour. */
async function refreshConfig(ctx: WatchContext, watch: Watch, state: SeriesWatchState): Promise<void> {
  if (state.configAt !== undefined && ctx.now - state.configAt < CONFIG_REFRESH_MS) return;
  const series = await ctx.api.series.get(watch.target, { priority: 'background' });
  state.name = series.name;
  state.paused = series.paused === true;
  if (series.brollModel) state.model = series.brollModel;
  const cadence: Cadence = { postingDays: daysOf(series.postingDays) };
  if (series.autoPostTime) cadence.autoPostTime = series.autoPostTime;
  if (series.timezone) cadence.timezone = series.timezone;
  state.cadence = cadence;
  state.configAt = ctx.now;
}

async function check(ctx: WatchContext, watch: Watch): Promise<WatchResult> {
  const state = readState(watch.state);
  const opts = { priority: 'background' } as const;
  try {
    await refreshConfig(ctx, watch, state);
    const { items } = await ctx.api.series.episodes(watch.target, { page: 1, limit: 20 }, opts);
    // An episode without its video yet is left unseen: it is picked up once it has one.
    const withVideo = items.filter((e): e is Episode & { projectId: string } => Boolean(e.projectId));
    const seen = new Set(state.seen);
    const next: SeriesWatchState = {
      ...state,
      primed: true,
      seen: merge(
        withVideo.map((e) => e.id),
        state.seen,
      ),
    };
    const label = state.name ?? 'Series';
    const result = { state: next as unknown as Record<string, unknown>, done: false };
    const nextCheckInMs = nextSeriesCheckIn(next, ctx.now);
    // Followed for its outcomes (`--status failed`): a message per matching outcome, no episode cards.
    const filters = await outcomeFilter(ctx.store, watch);
    if (filters) {
      next.settled = rememberOutcomes(items, state.settled);
      const episodes = newOutcomes(items, state.primed ? state.settled : undefined, filters);
      const cards = await outcomeCards(ctx, { episodes, seriesName: label });
      return { ...result, nextCheckInMs, apply: (store) => postOutcomes(store, { watch, cards }) };
    }
    const fresh = state.primed ? withVideo.filter((e) => !seen.has(e.id)).reverse() : [];
    const names = await episodeNames(ctx, fresh);
    const cost = fresh.length > 0 && state.model ? await modelCost(ctx, state.model) : undefined;
    return {
      ...result,
      nextCheckInMs,
      async apply(store) {
        for (const episode of fresh) {
          await startEpisodeCard(store, {
            videoId: episode.projectId,
            name: names.get(episode.projectId) ?? `${label} — new episode`,
            conversation: watch.conversation,
            owner: watch.owner,
            now: ctx.now,
            ...(state.model ? { model: state.model } : {}),
            ...(cost === undefined ? {} : { credits: cost }),
          });
        }
      },
    };
  } catch (e) {
    if (!isNotFound(e)) throw e;
    return {
      state: watch.state,
      done: true,
      async apply(store) {
        await postToChannel(store, {
          conversation: watch.conversation,
          card: goneCard(state.name, watch.target),
          dedupeKey: `series-watch:${watch.id}:gone`,
        });
      },
    };
  }
}

/** The new episodes' video names (the first five); the card works with the series name otherwise. */
async function episodeNames(
  ctx: WatchContext,
  fresh: Array<Episode & { projectId: string }>,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const episode of fresh.slice(0, 5)) {
    try {
      names.set(
        episode.projectId,
        (await ctx.api.videos.get(episode.projectId, { priority: 'background' })).name,
      );
    } catch (e) {
      ctx.logger.debug({ err: e, videoId: episode.projectId }, 'episode name lookup failed');
    }
  }
  return names;
}

function goneCard(name: string | undefined, seriesId: string): Card {
  return {
    title: md`Series ${name ? md`“${literal(name)}” ` : md``}was deleted`,
    tone: 'warning',
    text: md`No more episodes will be posted here. Videos it already generated are kept; find them with ${command('videos')}.`,
    context: md`series \`${literal(seriesId)}\``,
  };
}

export const seriesWatcher: Watcher = {
  kind: 'series',
  minIntervalMs: SERIES_MIN_INTERVAL_MS,
  maxIntervalMs: SERIES_MAX_INTERVAL_MS,
  deferrable: () => true,
  check,
  async expire({ store, watch, reason }) {
    const state = readState(watch.state);
    const text =
      reason === 'expired'
        ? md`I followed this series here for a year${state.cadence ? md` (${literal(describeSchedule(state.cadence))})` : md``}. Run ${command('subscribe', ['series', hole('name')])} to keep getting a card for each new episode.`
        : md`Stopped: ${keyTrouble(reason, md`followed this series here`)}. Run ${command('subscribe', ['series', hole('name')])} to follow it with yours: each new episode gets its card again.`;
    await postToChannel(store, {
      conversation: watch.conversation,
      card: {
        title: md`Stopped following ${state.name ? md`“${literal(state.name)}”` : md`a series`}`,
        tone: reason === 'expired' ? 'info' : 'warning',
        text,
        context: md`series \`${literal(watch.target)}\``,
      },
      dedupeKey: `series-watch:${watch.id}:expired`,
    });
  },
};
