import type { RunningSimulator } from '../../src/simulator/index.js';
import {
  ManualClock,
  type SeedTeam,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';

/** Monday 2026-01-05 08:00 UTC */
export const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const KEY_A = 'fl_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const KEY_A_READONLY = 'fl_live_a_readonly_00000000000000000';
export const KEY_B = 'fl_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

export const PLATFORMS = ['youtube', 'tiktok', 'instagram', 'x', 'facebook', 'linkedin', 'threads'] as const;

export function teamA(overrides: Partial<SeedTeam> = {}): SeedTeam {
  const accounts: SeedTeam['accounts'] = {};
  for (const p of PLATFORMS) accounts[p] = [{ authId: `acc_a_${p}`, label: `A on ${p}`, isDefault: true }];
  return {
    name: 'Team A',
    plan: 'pro',
    credits: 500,
    projectCap: 100,
    keys: [{ key: KEY_A }, { key: KEY_A_READONLY, scopes: ['videos:read'] }],
    accounts,
    ...overrides,
  };
}

export function teamB(overrides: Partial<SeedTeam> = {}): SeedTeam {
  return { name: 'Team B', credits: 100, keys: [{ key: KEY_B }], ...overrides };
}

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  /** parsed JSON body */
  json: {
    success: boolean;
    data: T;
    pagination?: { page: number; limit: number; total: number };
    error: { type: string; message: string };
  };
}

export interface CallOptions {
  body?: unknown;
  /** API key sent as Bearer; null sends none */
  key?: string | null;
  headers?: Record<string, string>;
  /** raw body text instead of JSON.stringify(body) */
  raw?: string;
}

export interface Harness {
  run: RunningSimulator;
  clock: ManualClock;
  url: string;
  /** `T` is the expected `data` (see wire.ts); it is not checked, the assertions do that. */
  api<T = unknown>(method: string, path: string, opts?: CallOptions): Promise<ApiResult<T>>;
  advance(ms: number): void;
  close(): Promise<void>;
}

export async function startHarness(opts: SimulatorOptions = {}): Promise<Harness> {
  const clock = new ManualClock(T0);
  const run = await startSimulator({ port: 0, clock, randomSeed: 42, teams: [teamA(), teamB()], ...opts });
  return {
    run,
    clock,
    url: run.url,
    async api<T>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResult<T>> {
      const headers: Record<string, string> = { ...opts.headers };
      const key = opts.key === undefined ? KEY_A : opts.key;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let body: string | undefined = opts.raw;
      if (body === undefined && opts.body !== undefined) body = JSON.stringify(opts.body);
      if (method === 'GET' || method === 'HEAD') body = undefined; // fetch refuses bodies on these
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(run.url + path, { method, headers, ...(body === undefined ? {} : { body }) });
      const text = await res.text();
      return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
    },
    advance(ms) {
      clock.advance(ms);
    },
    close: () => run.close(),
  };
}

export const SCRIPT =
  'The moon landing was watched by six hundred million people. Here is what they never saw.';

/** Creates a video (default storyboard) and returns its id. */
export async function createVideo(
  h: Harness,
  body: Record<string, unknown> = {},
  key?: string,
): Promise<string> {
  const res = await h.api<{ id: string }>('POST', '/videos', {
    body: { script: SCRIPT, voiceId: 'voice_aria_en', ...body },
    ...(key === undefined ? {} : { key }),
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data.id;
}

/** A video whose generation completed and whose three thumbnails are ready. */
export async function completedVideo(h: Harness, body: Record<string, unknown> = {}): Promise<string> {
  const id = await createVideo(h, body);
  h.advance(5 * MINUTE);
  return id;
}

/** A completed video with a finished render. */
export async function renderedVideo(h: Harness, body: Record<string, unknown> = {}): Promise<string> {
  const id = await completedVideo(h, body);
  const res = await h.api('POST', `/videos/${id}/render`, { body: {} });
  if (res.status !== 202) throw new Error(`render failed: ${res.status} ${JSON.stringify(res.json)}`);
  h.advance(MINUTE);
  return id;
}

export const OTHER_ID = 'ffffffffffffffffffffffff';
