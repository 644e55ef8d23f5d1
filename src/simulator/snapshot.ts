/**
 * The simulator's state as JSON, so an embedded simulator (the demo) can continue after a restart: its
 * records are saved whole, and the jobs they describe (a generation, a render, thumbnails, a scheduled post,
 * a series' cadence) are queued again when the state is loaded. What is only about the wire (idempotency
 * replays, rate-limit windows) starts afresh.
 */
import type { Engine } from './engine.js';
import { queueGenerationFinish } from './jobs/generation.js';
import { queueScheduledPost } from './jobs/posting.js';
import { queueRenderFinish } from './jobs/renders.js';
import { startCadence } from './jobs/series.js';
import { startThumbnails } from './jobs/thumbnails.js';
import type { Store } from './records.js';

/** Bumped when a record's shape changes incompatibly: an older snapshot is then not loaded. */
const VERSION = 1;

type Entries<M> = M extends Map<string, infer V> ? V[] : never;

export interface Snapshot {
  version: typeof VERSION;
  seq: number;
  teams: Entries<Store['teams']>;
  keys: Entries<Store['keys']>;
  ledger: Store['ledger'];
  videos: Entries<Store['videos']>;
  renders: Entries<Store['renders']>;
  calendar: Entries<Store['calendar']>;
  published: Store['published'];
  series: Entries<Store['series']>;
  episodes: Entries<Store['episodes']>;
  assets: Entries<Store['assets']>;
  skippedEpisodes: Store['skippedEpisodes'];
}

export function snapshotOf(store: Store): Snapshot {
  return {
    version: VERSION,
    seq: store.seq,
    teams: [...store.teams.values()],
    keys: [...store.keys.values()],
    ledger: store.ledger,
    videos: [...store.videos.values()],
    renders: [...store.renders.values()],
    calendar: [...store.calendar.values()],
    published: store.published,
    series: [...store.series.values()],
    episodes: [...store.episodes.values()],
    assets: [...store.assets.values()],
    skippedEpisodes: store.skippedEpisodes,
  };
}

/** A parsed snapshot this version can load; undefined for anything else (another version, not one at all). */
export function readSnapshot(value: unknown): Snapshot | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Partial<Snapshot>;
  if (s.version !== VERSION || typeof s.seq !== 'number') return undefined;
  const lists = [s.teams, s.keys, s.ledger, s.videos, s.renders, s.calendar, s.published, s.series];
  if (![...lists, s.episodes, s.assets, s.skippedEpisodes].every(Array.isArray)) return undefined;
  return s as Snapshot;
}

/** Loads `snapshot` into the engine's (empty) store and queues again the jobs still running in it. */
export function restore(engine: Engine, snapshot: Snapshot): void {
  const { store } = engine;
  const fill = <V extends { id: string }>(map: Map<string, V>, records: V[]) => {
    for (const record of records) map.set(record.id, record);
  };
  fill(store.teams, snapshot.teams);
  for (const key of snapshot.keys) store.keys.set(key.key, key);
  store.ledger.push(...snapshot.ledger);
  fill(store.videos, snapshot.videos);
  fill(store.renders, snapshot.renders);
  fill(store.calendar, snapshot.calendar);
  store.published.push(...snapshot.published);
  fill(store.series, snapshot.series);
  fill(store.episodes, snapshot.episodes);
  fill(store.assets, snapshot.assets);
  store.skippedEpisodes.push(...snapshot.skippedEpisodes);
  store.resumeSeq(snapshot.seq);

  const now = engine.now();
  for (const video of store.videos.values()) {
    if (video.status === 'processing') queueGenerationFinish(engine, video);
    // Its run's timing was not saved: a run still going starts again.
    else if (video.thumbnails.status === 'queued' || video.thumbnails.status === 'generating')
      startThumbnails(engine, video, now);
  }
  for (const render of store.renders.values())
    if (render.status === 'in-progress') queueRenderFinish(engine, render);
  for (const entry of store.calendar.values())
    if (entry.status === 'scheduled') queueScheduledPost(engine, entry);
  for (const series of store.series.values()) if (!series.deleted) startCadence(engine, series, now);
}
