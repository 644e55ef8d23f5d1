/** In-memory records of the simulated service. Times are epoch milliseconds; views turn them into ISO strings. */
import type { Model, Platform, PostBlockKey, Scope } from './vocabulary.js';

export interface AccountRec {
  authId: string;
  label: string;
  isDefault: boolean;
}

export interface TeamRec {
  id: string;
  name: string;
  plan: string;
  projectCap: number;
  balance: number;
  accounts: Record<Platform, AccountRec[]>;
  /** every team owns one cloned voice, listed by GET /voices next to the stock ones */
  customVoiceId: string;
}

export interface KeyRec {
  key: string;
  teamId: string;
  scopes: Scope[];
  revoked: boolean;
}

export interface LedgerRec {
  id: string;
  teamId: string;
  seq: number;
  credits: number;
  type: string;
  description: string;
  createdAt: number;
  videoId?: string;
}

export interface VariantRec {
  id: string;
  /** position in the media URL (`/media/thumb/<video>/<n>.svg`) */
  n: number;
  hookText: string;
  source: string;
  score: number;
  grade: string;
}

export type ThumbnailStatus = 'idle' | 'queued' | 'generating' | 'ready' | 'partial' | 'failed';

export interface ThumbnailsRec {
  status: ThumbnailStatus;
  generation: number;
  aspect: string;
  variants: VariantRec[];
  selectedVariantId?: string;
  selectedBy?: 'ai' | 'user';
}

export type GenerationStatus = 'processing' | 'completed' | 'failed';
/** Optional fields may be present as undefined (JSON drops them). */
export type PostBlock = Record<string, string | undefined>;

export interface VideoRec {
  id: string;
  teamId: string;
  seq: number;
  kind: 'script' | 'captions';
  name: string;
  platform: string;
  model: Model;
  script: string;
  voiceId: string;
  /** the remaining create-body fields (style, language, music…), echoed on GET /videos/{id} */
  options: Record<string, string | boolean | undefined>;
  createdAt: number;
  status: GenerationStatus;
  startedAt: number;
  /** full generation time at the speed in force when it started */
  durationMs: number;
  /** when the job reaches its terminal state (completion, or the failure point) */
  endsAt: number;
  /** percentCompleted frozen at failure */
  failedAtPercent?: number;
  errorMessages: string[];
  /** media path of the latest finished render, null before */
  renderedPath: string | null;
  thumbnails: ThumbnailsRec;
  generateThumbnails: boolean;
  posts: Partial<Record<PostBlockKey, PostBlock>>;
  archived: boolean;
  seriesId?: string;
  /** seed of this video's cosmetic noise in the `real` profile (its progress stall, warnings) */
  noiseSeed: number;
}

export type RenderStatus = 'in-progress' | 'done' | 'error';

export interface RenderRec {
  id: string;
  teamId: string;
  videoId: string;
  codec: string;
  createdAt: number;
  durationMs: number;
  endsAt: number;
  status: RenderStatus;
  /** overallProgress frozen at failure */
  failedAtProgress?: number;
}

export type CalendarStatus = 'scheduled' | 'posted' | 'failed' | 'cancelled';

export interface CalendarRec {
  id: string;
  teamId: string;
  seq: number;
  taskId: string;
  videoId: string;
  platform: Platform;
  scheduledAt: number;
  status: CalendarStatus;
  authId?: string;
  episodeId?: string;
  reason?: string;
}

export interface PublishedRec {
  id: string;
  teamId: string;
  videoId: string;
  platform: Platform;
  at: number;
  postUrl: string;
  title: string;
  authId: string;
  /** views approach this number over time */
  peakViews: number;
  /** time constant of the view curve */
  tauMs: number;
}

export type SeriesConfig = Record<string, unknown>;

export interface SeriesRec {
  id: string;
  teamId: string;
  seq: number;
  createdAt: number;
  config: SeriesConfig;
  paused: boolean;
  deleted: boolean;
  /** bumped when the cadence changes so the superseded tick chain stops */
  cadenceVersion: number;
  episodeCount: number;
}

export interface EpisodeRec {
  id: string;
  teamId: string;
  seriesId: string;
  seq: number;
  projectId: string;
  createdAt: number;
  scheduledAt: number;
  outcome?: 'posted' | 'failed' | 'cancelled';
}

export interface AssetRec {
  id: string;
  teamId: string;
  url: string;
  name: string;
  fileType?: string;
  createdAt: number;
}

export interface SkippedEpisodeRec {
  seriesId: string;
  teamId: string;
  at: number;
  reason: 'insufficient_credits' | 'usage_limit_reached';
}

/** All state of one simulator instance. */
export class Store {
  readonly teams = new Map<string, TeamRec>();
  readonly keys = new Map<string, KeyRec>();
  readonly ledger: LedgerRec[] = [];
  readonly videos = new Map<string, VideoRec>();
  readonly renders = new Map<string, RenderRec>();
  readonly calendar = new Map<string, CalendarRec>();
  readonly published: PublishedRec[] = [];
  readonly series = new Map<string, SeriesRec>();
  readonly episodes = new Map<string, EpisodeRec>();
  readonly assets = new Map<string, AssetRec>();
  readonly skippedEpisodes: SkippedEpisodeRec[] = [];
  #seq = 0;

  /** Monotonic creation order; breaks ties between records created at the same instant. */
  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  /** The last creation order handed out (a saved state keeps it, so order survives a restart). */
  get seq(): number {
    return this.#seq;
  }

  /** Continues the creation order of a saved state. */
  resumeSeq(seq: number): void {
    this.#seq = Math.max(this.#seq, seq);
  }

  team(teamId: string): TeamRec {
    const team = this.teams.get(teamId);
    if (!team) throw new Error(`unknown team ${teamId}`);
    return team;
  }

  videosOf(teamId: string): VideoRec[] {
    return [...this.videos.values()].filter((v) => v.teamId === teamId);
  }
}
