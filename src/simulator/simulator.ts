import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { type Clock, ManualClock, systemClock } from './clock.js';
import { Dispatcher } from './dispatcher.js';
import { Engine } from './engine.js';
import { ApiError, internalError } from './errors.js';
import { errorResponse, readBody, send, sendMedia } from './http-io.js';
import { seedPastPost } from './jobs/post-history.js';
import { startThumbnails } from './jobs/thumbnails.js';
import { serveMedia } from './media.js';
import {
  DEFAULT_KNOBS,
  demoTeam,
  type Knobs,
  type SimulatorOptions,
  type SimulatorProfile,
} from './options.js';
import { profileNamed } from './profiles/index.js';
import type { TeamRec } from './records.js';
import { addKey, seedTeams } from './seed.js';
import { restore, type Snapshot, snapshotOf } from './snapshot.js';
import { API_PREFIX, iso } from './views.js';
import { PLATFORMS, type Platform } from './vocabulary.js';

/** A ledger entry as the inspection helpers return it. */
export interface LedgerEntry {
  id: string;
  credits: number;
  type: string;
  description: string;
  createdAt: string;
  videoId?: string;
}

/** A post the simulator published (now, on schedule, or for a series episode). */
export interface PublishedPost {
  team: string;
  videoId: string;
  platform: Platform;
  at: string;
  postUrl: string;
  title: string;
  authId: string;
}

const KNOB_NAMES = Object.keys(DEFAULT_KNOBS) as (keyof Knobs)[];

/** `base` with the knobs set in `partial` (other option fields ignored), validated. */
function mergeKnobs(base: Knobs, partial: Partial<Knobs>): Knobs {
  const knobs = { ...base };
  for (const name of KNOB_NAMES) {
    const value = partial[name];
    if (value !== undefined) Object.assign(knobs, { [name]: value });
  }
  validateKnobs(knobs);
  return knobs;
}

function validateKnobs(knobs: Knobs): void {
  if (!(knobs.speed > 0) || !Number.isFinite(knobs.speed)) throw new Error('speed must be a positive number');
  if (!(knobs.latencyMs >= 0)) throw new Error('latencyMs must be 0 or more');
  if (!Array.isArray(knobs.publishFailurePlatforms))
    throw new Error('publishFailurePlatforms must be a list of platforms');
  for (const name of [
    'generationFailureRate',
    'renderFailureRate',
    'postFailureRate',
    'thumbnailFailureRate',
    'serverErrorRate',
    'paymentFailureRate',
  ] as const) {
    const rate = knobs[name];
    if (!(rate >= 0 && rate <= 1)) throw new Error(`${name} must be between 0 and 1`);
  }
}

/**
 * The video API of video-api.md, in memory. `handle` serves HTTP (mount it on any node:http server);
 * the other methods let tests and demos drive time and look inside.
 */
/** One API request as the simulator received it (see `Simulator.received`). */
export interface ReceivedRequest {
  method: string;
  /** Below `/api/v1`, e.g. `/videos`. */
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export class Simulator {
  /** the seeded API keys, in seed order */
  readonly keys: string[];
  readonly #engine: Engine;
  readonly #dispatcher: Dispatcher;
  #publicBaseUrl: string | undefined;
  #requests = 0;
  readonly #received: ReceivedRequest[] = [];

  constructor(opts: SimulatorOptions = {}) {
    const knobs = mergeKnobs(DEFAULT_KNOBS, opts);
    const clock: Clock = opts.clock ?? systemClock;
    const logger = opts.logger ?? pino({ level: 'silent' });
    const profile = profileNamed(opts.profile ?? 'spec');
    const seed = opts.randomSeed ?? randomInt(2 ** 31);
    this.#engine = new Engine({ clock, knobs, seed, logger, profile });
    this.#dispatcher = new Dispatcher(this.#engine);
    this.#publicBaseUrl = opts.publicBaseUrl?.replace(/\/+$/, '');
    if (opts.state) {
      // A saved state brings its own teams and keys (`teams` seeds a fresh simulator only).
      restore(this.#engine, opts.state);
      this.keys = [...this.#engine.store.keys.values()].filter((k) => !k.revoked).map((k) => k.key);
    } else {
      this.keys = seedTeams(this.#engine, opts.teams ?? [demoTeam()]);
    }
  }

  /** Everything it holds, as JSON-ready records (snapshot.ts): `state` of a later simulator continues it. */
  snapshot(): Snapshot {
    this.#engine.settle();
    return snapshotOf(this.#engine.store);
  }

  /** node:http request listener. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    this.#serve(req, res).catch((error: unknown) => {
      this.#engine.logger.error({ err: error }, 'simulator request failed');
      if (!res.headersSent) send(res, errorResponse(error instanceof ApiError ? error : internalError()));
      else res.destroy();
    });
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/healthz') {
      send(res, { status: 200, headers: {}, body: JSON.stringify({ ok: true }) });
      return;
    }
    if (path.startsWith('/media/')) {
      this.#engine.settle();
      const media = this.#engine.profile.media(this.#engine, path) ?? serveMedia(this.#engine, path);
      sendMedia(req, res, media);
      return;
    }
    this.#requests += 1;
    const requestId = `sim-${this.#requests}`;
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      const error = new ApiError('not_found', `No such endpoint: ${method} ${path}`);
      send(res, this.#engine.profile.errorResponse(error, requestId));
      return;
    }
    const rawBody = await readBody(req);
    this.#record({ method, path: path.slice(API_PREFIX.length) || '/', query: url.searchParams, rawBody });
    if (this.#engine.knobs.latencyMs > 0) await sleep(this.#engine.knobs.latencyMs);
    const response = this.#dispatcher.process({
      method,
      path: path.slice(API_PREFIX.length) || '/',
      query: url.searchParams,
      headers: req.headers,
      rawBody,
      origin: this.#publicBaseUrl ?? `http://${req.headers.host ?? '127.0.0.1'}`,
      requestId,
    });
    send(res, { ...response, headers: { ...response.headers, 'X-Request-Id': requestId } });
  }

  /**
   * The API requests received, oldest first (at most the last 1000): what a test asserts the bot sent, as
   * the simulator read it off the wire. `body` is the parsed JSON (undefined when none or not JSON).
   */
  received(filter?: { method?: string; path?: string | RegExp }): ReceivedRequest[] {
    return this.#received.filter(
      (r) =>
        (filter?.method === undefined || r.method === filter.method) &&
        (filter?.path === undefined ||
          (typeof filter.path === 'string' ? r.path === filter.path : filter.path.test(r.path))),
    );
  }

  #record(r: { method: string; path: string; query: URLSearchParams; rawBody: string }): void {
    let body: unknown;
    try {
      body = r.rawBody ? JSON.parse(r.rawBody) : undefined;
    } catch {
      body = undefined;
    }
    this.#received.push({ method: r.method, path: r.path, query: Object.fromEntries(r.query), body });
    if (this.#received.length > 1000) this.#received.shift();
  }

  /** Origin used in media URLs (thumbnails, b-roll frames, renders); set by `startSimulator`. */
  setPublicBaseUrl(origin: string): void {
    this.#publicBaseUrl = origin.replace(/\/+$/, '');
  }

  /** `spec` or `real` (fixed for the simulator's lifetime). */
  get profile(): SimulatorProfile {
    return this.#engine.profile.name;
  }

  get knobs(): Readonly<Knobs> {
    return { ...this.#engine.knobs };
  }

  setKnobs(partial: Partial<Knobs>): void {
    this.#engine.knobs = mergeKnobs(this.#engine.knobs, partial);
  }

  /** Runs every job transition due at the clock's current time (requests do this on their own). */
  settle(): void {
    this.#engine.settle();
  }

  /** Moves an injected ManualClock forward and settles. */
  advance(ms: number): void {
    const clock = this.#engine.clock;
    if (!(clock instanceof ManualClock)) throw new Error('advance() needs a ManualClock passed as `clock`');
    clock.advance(ms);
    this.settle();
  }

  now(): number {
    return this.#engine.now();
  }

  // ---- inspection and test helpers ------------------------------------------------------------

  /** A team by name, id, or one of its API keys. */
  #team(teamOrKey: string): TeamRec {
    const { store } = this.#engine;
    const byKey = store.keys.get(teamOrKey);
    if (byKey) return store.team(byKey.teamId);
    const team = [...store.teams.values()].find((t) => t.name === teamOrKey || t.id === teamOrKey);
    if (!team) throw new Error(`no team named '${teamOrKey}' and no such key`);
    return team;
  }

  /** The team's ledger, oldest first. */
  ledger(teamOrKey: string): LedgerEntry[] {
    const team = this.#team(teamOrKey);
    return this.#engine.store.ledger.filter((e) => e.teamId === team.id).map(toLedgerEntry);
  }

  balance(teamOrKey: string): number {
    return this.#team(teamOrKey).balance;
  }

  /** Ledger entries charged for one video (one entry: charged once). */
  chargesFor(videoId: string): LedgerEntry[] {
    return this.#engine.store.ledger.filter((e) => e.videoId === videoId).map(toLedgerEntry);
  }

  publishedPosts(): PublishedPost[] {
    const { store } = this.#engine;
    return store.published.map((p) => ({
      team: store.team(p.teamId).name,
      videoId: p.videoId,
      platform: p.platform,
      at: iso(p.at),
      postUrl: p.postUrl,
      title: p.title,
      authId: p.authId,
    }));
  }

  /** Automatic series episodes that were not generated because the team could not pay or was at its cap. */
  skippedEpisodes(): { seriesId: string; at: string; reason: string }[] {
    return this.#engine.store.skippedEpisodes.map((s) => ({
      seriesId: s.seriesId,
      at: iso(s.at),
      reason: s.reason,
    }));
  }

  grantCredits(teamOrKey: string, credits: number, description = 'Credit purchase'): void {
    const team = this.#team(teamOrKey);
    this.#engine.addLedgerEntry(team, { credits, type: 'purchase', description, at: this.now() });
  }

  /** Adds an API key to a team (all scopes unless given). */
  addKey(teamOrKey: string, key: string, scopes?: string[]): void {
    addKey(this.#engine, this.#team(teamOrKey), { key, scopes });
  }

  revokeKey(key: string): void {
    const rec = this.#engine.store.keys.get(key);
    if (!rec) throw new Error('no such key');
    rec.revoked = true;
  }

  connectAccount(
    teamOrKey: string,
    platform: Platform,
    account: { authId: string; label: string; isDefault?: boolean },
  ): void {
    if (!PLATFORMS.includes(platform)) throw new Error(`unknown platform ${platform}`);
    const list = this.#team(teamOrKey).accounts[platform];
    list.push({
      authId: account.authId,
      label: account.label,
      isDefault: account.isDefault ?? list.length === 0,
    });
  }

  /**
   * Seeds the team's past posts (ISO or epoch-ms times, views, titles): each a rendered video posted then on
   * its platform's default account, seen by GET /calendar and GET /analytics. Returns the videos' ids.
   */
  seedPostHistory(
    teamOrKey: string,
    posts: readonly { platform: Platform; at: string | number; views: number; title: string }[],
  ): string[] {
    const team = this.#team(teamOrKey);
    this.settle();
    return posts.map((p) => {
      const at = typeof p.at === 'number' ? p.at : Date.parse(p.at);
      if (!Number.isFinite(at) || at > this.now()) throw new Error(`a past post needs a past time: ${p.at}`);
      return seedPastPost(this.#engine, team, { ...p, at });
    });
  }

  /** The API has no archive operation; this stands in for the dashboard's. */
  archiveVideo(videoId: string, archived = true): void {
    this.#video(videoId).archived = archived;
  }

  /** Automatic thumbnail regeneration (as the service does on its own); a user's pick is kept. */
  regenerateThumbnails(videoId: string): void {
    const video = this.#video(videoId);
    if (video.status !== 'completed') throw new Error('only a completed video has thumbnails');
    this.settle();
    startThumbnails(this.#engine, video, this.now());
  }

  #video(videoId: string) {
    const video = this.#engine.store.videos.get(videoId);
    if (!video) throw new Error(`no video ${videoId}`);
    return video;
  }
}

function toLedgerEntry(e: {
  id: string;
  credits: number;
  type: string;
  description: string;
  createdAt: number;
  videoId?: string;
}): LedgerEntry {
  return {
    id: e.id,
    credits: e.credits,
    type: e.type,
    description: e.description,
    createdAt: iso(e.createdAt),
    ...(e.videoId === undefined ? {} : { videoId: e.videoId }),
  };
}
