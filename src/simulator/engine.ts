import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Knobs } from './options.js';
import { type ApiProfile, specProfile } from './profiles/profile.js';
import { createStreams, objectId, type RandomStreams } from './random.js';
import { type LedgerRec, Store, type TeamRec } from './records.js';
import { Scheduler } from './scheduler.js';

export interface EngineOptions {
  clock: Clock;
  knobs: Knobs;
  /** seeds every random stream */
  seed: number;
  logger: Logger;
  /** what is served on the wire (spec or real shapes); default the spec's */
  profile?: ApiProfile;
}

/** Everything the routes and jobs share: state, timeline, randomness, knobs and the clock. */
export class Engine {
  readonly store = new Store();
  readonly scheduler = new Scheduler();
  readonly rng: RandomStreams;
  readonly clock: Clock;
  knobs: Knobs;
  readonly logger: Logger;
  readonly profile: ApiProfile;

  constructor(options: EngineOptions) {
    this.clock = options.clock;
    this.knobs = options.knobs;
    this.logger = options.logger;
    this.profile = options.profile ?? specProfile;
    this.rng = createStreams(options.seed);
  }

  now(): number {
    return this.clock.now();
  }

  newId(at: number = this.now()): string {
    return objectId(at, this.rng.ids);
  }

  /** Runs the timeline up to the clock. */
  settle(): void {
    this.scheduler.runDue(this.now());
  }

  /** A nominal duration (at speed 1) converted to simulated milliseconds at the current speed. */
  scaled(ms: number): number {
    return Math.max(1, Math.round(ms / this.knobs.speed));
  }

  addLedgerEntry(
    team: TeamRec,
    entry: { credits: number; type: string; description: string; at: number; videoId?: string },
  ): LedgerRec {
    const rec: LedgerRec = {
      id: this.newId(entry.at),
      teamId: team.id,
      seq: this.store.nextSeq(),
      credits: entry.credits,
      type: entry.type,
      description: entry.description,
      createdAt: entry.at,
      ...(entry.videoId === undefined ? {} : { videoId: entry.videoId }),
    };
    this.store.ledger.push(rec);
    team.balance += entry.credits;
    return rec;
  }

  /** Number of live (not deleted) video projects, the quantity the plan cap limits. */
  projectCount(teamId: string): number {
    let count = 0;
    for (const video of this.store.videos.values()) if (video.teamId === teamId) count += 1;
    return count;
  }
}
