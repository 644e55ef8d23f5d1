import { type Cadence, nextSlot } from '../cadence.js';
import { STOCK_VOICES } from '../catalog.js';
import type { Engine } from '../engine.js';
import type { ApiError } from '../errors.js';
import type { CalendarRec, EpisodeRec, SeriesRec, VideoRec } from '../records.js';
import { MODEL_CREDITS, type Model, type Platform } from '../vocabulary.js';
import { chargeForVideo, paymentRefusal, refusalFor } from './billing.js';
import { createVideo } from './generation.js';
import { queueScheduledPost } from './posting.js';

interface SeriesSettings extends Cadence {
  voice: string;
  brollModel: Model;
  destination: Platform;
  destinationAccounts: string[];
  duration: number;
  generateThumbnails: boolean;
}

/** Defaults the simulator applies to a series' optional settings (GET /series/{id} shows them). */
export const SERIES_DEFAULTS: Omit<SeriesSettings, 'destinationAccounts' | 'postingDays'> = {
  voice: STOCK_VOICES[0]!.id,
  autoPostTime: '09:00',
  timezone: 'UTC',
  brollModel: 'storyboard',
  destination: 'youtube',
  duration: 60,
  generateThumbnails: true,
};

function settingsOf(series: SeriesRec): SeriesSettings {
  // The config holds the validated create/patch body, so these fields have these types when present.
  const c = series.config as Partial<SeriesSettings>;
  return {
    ...SERIES_DEFAULTS,
    ...c,
    postingDays: c.postingDays ?? [],
    destinationAccounts: c.destinationAccounts ?? [],
  };
}

/** First episode right away (spec: "starts generating right after creation"), then one per posting slot. */
export function startSeries(engine: Engine, series: SeriesRec, at: number): void {
  generateEpisode(engine, series, { at, mode: 'auto' });
  startCadence(engine, series, at);
}

/** (Re)starts the slot ticks from `from`; an older chain notices the version change and stops. */
export function startCadence(engine: Engine, series: SeriesRec, from: number): void {
  series.cadenceVersion += 1;
  const version = series.cadenceVersion;
  scheduleTick(engine, series, { version, slot: nextSlot(from, settingsOf(series)) });
}

/** `version` is the cadence this tick belongs to: a restarted cadence leaves the old chain to stop. */
function scheduleTick(engine: Engine, series: SeriesRec, tick: { version: number; slot: number }): void {
  engine.scheduler.at(tick.slot, 'series:tick', (at) => {
    if (series.deleted || series.cadenceVersion !== tick.version) return;
    // At each slot the episode for the next slot is generated, unless paused or one is already queued.
    if (!series.paused && !hasQueuedEpisodeAfter(engine, series, at))
      generateEpisode(engine, series, { at, mode: 'auto' });
    scheduleTick(engine, series, { version: tick.version, slot: nextSlot(at, settingsOf(series)) });
  });
}

function hasQueuedEpisodeAfter(engine: Engine, series: SeriesRec, at: number): boolean {
  for (const episode of engine.store.episodes.values()) {
    if (episode.seriesId === series.id && episode.outcome === undefined && episode.scheduledAt > at)
      return true;
  }
  return false;
}

function lastQueuedSlot(engine: Engine, series: SeriesRec): number | undefined {
  let last: number | undefined;
  for (const episode of engine.store.episodes.values()) {
    if (episode.seriesId !== series.id || episode.outcome !== undefined) continue;
    if (last === undefined || episode.scheduledAt > last) last = episode.scheduledAt;
  }
  return last;
}

/**
 * Generates an episode for the first free slot and charges its model's cost. When the team cannot pay
 * (or is at its plan cap) nothing is created or charged: an automatic episode is recorded as skipped,
 * and the refusal is returned for the caller of POST /series/{id}/generate to report.
 */
export function generateEpisode(
  engine: Engine,
  series: SeriesRec,
  { at, mode }: { at: number; mode: 'auto' | 'manual' },
): { episode: EpisodeRec; video: VideoRec } | ApiError {
  const team = engine.store.team(series.teamId);
  const settings = settingsOf(series);
  const cost = MODEL_CREDITS[settings.brollModel];
  const refusal =
    refusalFor(engine, team, cost) ?? (mode === 'manual' ? paymentRefusal(engine, cost) : undefined);
  if (refusal) {
    if (mode === 'auto') {
      const reason = refusal.type === 'insufficient_credits' ? 'insufficient_credits' : 'usage_limit_reached';
      engine.store.skippedEpisodes.push({ seriesId: series.id, teamId: team.id, at, reason });
      engine.logger.info({ seriesId: series.id, reason }, 'series episode skipped');
    }
    return refusal;
  }
  const scheduledAt = nextSlot(Math.max(at, lastQueuedSlot(engine, series) ?? at), settings);
  series.episodeCount += 1;
  const name = String(series.config.name);
  const video = createVideo(engine, team, {
    kind: 'script',
    name: `${name} — Episode ${series.episodeCount}`.slice(0, 120),
    platform: settings.destination,
    model: settings.brollModel,
    script: episodeScript(series, series.episodeCount),
    voiceId: settings.voice,
    options: {},
    generateThumbnails: settings.generateThumbnails,
    seriesId: series.id,
    at,
  });
  chargeForVideo(engine, team, {
    credits: cost,
    description: `Series episode (${settings.brollModel}): ${name}`,
    videoId: video.id,
    at,
  });
  const episode: EpisodeRec = {
    id: engine.newId(at),
    teamId: team.id,
    seriesId: series.id,
    seq: engine.store.nextSeq(),
    projectId: video.id,
    createdAt: at,
    scheduledAt,
  };
  engine.store.episodes.set(episode.id, episode);
  const authId = settings.destinationAccounts.find((id) =>
    team.accounts[settings.destination].some((a) => a.authId === id),
  );
  const entry: CalendarRec = {
    id: engine.newId(at),
    teamId: team.id,
    seq: engine.store.nextSeq(),
    taskId: episode.id,
    videoId: video.id,
    platform: settings.destination,
    scheduledAt,
    status: 'scheduled',
    episodeId: episode.id,
    ...(authId === undefined ? {} : { authId }),
  };
  engine.store.calendar.set(entry.id, entry);
  queueScheduledPost(engine, entry);
  return { episode, video };
}

function episodeScript(series: SeriesRec, n: number): string {
  const c = series.config;
  const topic = (c.customPrompt as string | undefined) ?? (c.niche as string | undefined) ?? String(c.source);
  return `Episode ${n} of ${String(c.name)}. Today's story is about ${topic.replace(/_/g, ' ')}. Stay until the end for the twist.`;
}

/** Episode status as listed: `generating`, `scheduled` (ready, waiting for its slot), `posted`, `failed`, `cancelled`. */
export function episodeStatus(engine: Engine, episode: EpisodeRec): string {
  if (episode.outcome !== undefined) return episode.outcome;
  const video = engine.store.videos.get(episode.projectId);
  if (!video) return 'failed';
  if (video.status === 'processing') return 'generating';
  if (video.status === 'failed') return 'failed';
  return 'scheduled';
}
