import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Snapshot } from './snapshot.js';
import { PLATFORMS, type Platform, SCOPES } from './vocabulary.js';

/** A connected social account as seeded (newer GET /accounts shape). */
export interface SeedAccount {
  authId: string;
  label: string;
  isDefault?: boolean;
}

/** A team the simulator starts with; its keys are used verbatim. */
export interface SeedTeam {
  name: string;
  plan?: string;
  credits?: number;
  /** maximum number of video projects the plan allows (403 usage_limit_reached beyond it) */
  projectCap?: number;
  /** scopes default to all eleven */
  keys: { key: string; scopes?: string[] }[];
  accounts?: Record<string, SeedAccount[]>;
}

/** Behaviour switches; all can be changed at run time with `Simulator.setKnobs`. */
export interface Knobs {
  /** time acceleration: job durations and rate-limit windows are divided by it */
  speed: number;
  generationFailureRate: number;
  renderFailureRate: number;
  postFailureRate: number;
  /** probability that each of the three thumbnail variants fails (3 fail: `failed`, 1–2: `partial`) */
  thumbnailFailureRate: number;
  /** probability that an API request answers 500 internal_error (before doing anything) */
  serverErrorRate: number;
  /** real (wall-clock) milliseconds added before each API request is handled */
  latencyMs: number;
  /** false turns the §8 rate limits off (handy for load-free development) */
  rateLimits: boolean;
  /** probability that a charged creation (POST /videos, POST /series/{id}/generate) answers 402 payment_failed */
  paymentFailureRate: number;
  /** platforms whose publish now (POST /posts) the platform refuses: 400 invalid_input naming the platform */
  publishFailurePlatforms: readonly string[];
}

export const DEFAULT_KNOBS = {
  speed: 1,
  generationFailureRate: 0,
  renderFailureRate: 0,
  postFailureRate: 0,
  thumbnailFailureRate: 0,
  serverErrorRate: 0,
  latencyMs: 0,
  rateLimits: true,
  paymentFailureRate: 0,
  publishFailurePlatforms: [],
} as const satisfies Knobs;

/**
 * What the simulator serves: `spec` the shapes of video-api.md; `real` what the real product's published
 * references show (older shapes, opaque ids, extra fields, odd types, progress that stalls and jumps).
 */
export type SimulatorProfile = 'spec' | 'real';

export const SIMULATOR_PROFILES = ['spec', 'real'] as const satisfies readonly SimulatorProfile[];

export interface SimulatorOptions extends Partial<Knobs> {
  /** default `spec` */
  profile?: SimulatorProfile;
  teams?: SeedTeam[];
  /** fixes ids, failures and generated content; random when omitted */
  randomSeed?: number;
  clock?: Clock;
  logger?: Logger | undefined;
  /** origin the simulator is reachable at, used for the media URLs it hands out; default: the request's Host */
  publicBaseUrl?: string;
  /** a saved state (`Simulator.snapshot()`) to continue from, instead of seeding `teams` */
  state?: Snapshot;
}

export const TEAM_DEFAULTS = { plan: 'pro', credits: 500, projectCap: 100 } as const;

/** A fresh `fl_live_` key with 32 random hex chars. */
export function generateApiKey(): string {
  return `fl_live_${randomBytes(16).toString('hex')}`;
}

const DEMO_ACCOUNT_LABELS: Record<Platform, string> = {
  youtube: 'Demo Channel',
  tiktok: '@demo.reels',
  instagram: '@demo.reels',
  x: '@demo_reels',
  facebook: 'Demo Reels Page',
  linkedin: 'Demo Reels Inc.',
  threads: '@demo.reels',
};

/** The demo team: full-scope key, 500 credits, cap of 100 projects, one connected account per platform. */
export function demoTeam(key: string = generateApiKey()): SeedTeam {
  const accounts: Record<string, SeedAccount[]> = {};
  for (const platform of PLATFORMS) {
    accounts[platform] = [
      { authId: `acc_demo_${platform}`, label: DEMO_ACCOUNT_LABELS[platform], isDefault: true },
    ];
  }
  return {
    name: 'Demo Team',
    plan: 'pro',
    credits: 500,
    projectCap: 100,
    keys: [{ key, scopes: [...SCOPES] }],
    accounts,
  };
}
