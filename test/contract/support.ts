/**
 * Contract-test wiring: the real client (`src/api`) against the real simulator (`src/simulator`) over
 * HTTP on 127.0.0.1. The two were written independently from video-api.md; these tests are where they meet.
 *
 * Time is virtual: the simulator and the client read one `TestClock`, the client's `sleep` (back-offs,
 * Retry-After, rate-budget waits) moving it forward at once, recorded, instead of waiting. Only the
 * per-attempt socket timeout runs on real time (`timeoutClock: systemClock`), as it must for real I/O.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import {
  createVideoApiClient,
  type ResponseEvent,
  type VideoApiClient,
  type VideoApiClientOptions,
  VideoApiError,
} from '../../src/api/index.js';
import { say } from '../../src/core/text/messages.js';
import { systemClock } from '../../src/core/time/system-clock.js';
import { describeApiError } from '../../src/core/video-api/api-errors.js';
import type { CreatedVideo, Model } from '../../src/core/video-api/video-api.js';
import {
  demoTeam,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';
import { TestClock } from '../support/test-clock.js';

/** Monday 2026-01-05 08:00 UTC. */
export const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Demo team, every scope; one connected account per platform. */
export const DEMO_KEY = 'fl_live_contract_demo_0123456789abcdef';
/** Demo team, `videos:read` only. */
export const READONLY_KEY = 'fl_live_contract_readonly_0123456789ab';
/** Demo team, no scope at all (GET /me still answers). */
export const NOSCOPE_KEY = 'fl_live_contract_noscope_0123456789abc';
/** Another team: its resources are 404 to the demo team and the other way round. No accounts. */
export const OTHER_KEY = 'fl_live_contract_other_0123456789abcdef';
/** A team with 30 credits: one storyboard (20) fits, a motion_lite (50) does not. */
export const POOR_KEY = 'fl_live_contract_poor_0123456789abcdef0';
/** A team whose plan allows one video project. */
export const CAPPED_KEY = 'fl_live_contract_capped_0123456789abcde';

export const SCRIPT = 'Five facts about octopuses that sound made up but are completely true.';
/** Nominal times at speed 1 (simulator README): storyboard generation, thumbnails after it, a render. */
export const GENERATION_MS = 90 * SECOND;
export const THUMBNAILS_MS = 15 * SECOND;
export const RENDER_MS = 45 * SECOND;

export interface RawResult {
  status: number;
  headers: Headers;
  json: {
    success: boolean;
    data?: unknown;
    pagination?: { page: number; limit: number; total: number };
    error?: { type: string; message: string };
  };
}

export interface RawOptions {
  /** Sent as `Authorization: Bearer`; `null` sends no key (headers may still carry one). */
  key?: string | null;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Contract {
  run: RunningSimulator;
  /** The simulator's clock, and every client's: `sleeps` records what the clients waited for. */
  clock: TestClock;
  /** Every attempt any client made, in order (from `onResponse`). */
  events: ResponseEvent[];
  /** A client for `key` (default: the demo key) with its own rate budget. */
  client(key?: string, options?: Partial<VideoApiClientOptions>): VideoApiClient;
  /** A request without the client, to see the wire as the simulator serves it. */
  raw(method: string, path: string, options?: RawOptions): Promise<RawResult>;
  /** Moves simulated time; jobs due by then run on the next request. */
  advance(ms: number): void;
  /** A fresh Idempotency-Key, one per logical action. */
  idem(label?: string): { idempotencyKey: string };
  close(): Promise<void>;
}

export type ContractOptions = Omit<SimulatorOptions, 'clock' | 'teams' | 'randomSeed'>;

/** Starts a simulator seeded with the contract teams, and hands out clients wired to it. */
export async function startContract(options: ContractOptions = {}): Promise<Contract> {
  const clock = new TestClock(T0);
  const demo = demoTeam(DEMO_KEY);
  demo.keys.push({ key: READONLY_KEY, scopes: ['videos:read'] }, { key: NOSCOPE_KEY, scopes: [] });
  const run = await startSimulator({
    port: 0,
    clock,
    randomSeed: 1,
    teams: [
      demo,
      { name: 'Other Team', credits: 500, keys: [{ key: OTHER_KEY }] },
      { name: 'Poor Team', credits: 30, keys: [{ key: POOR_KEY }] },
      { name: 'Capped Team', credits: 500, projectCap: 1, keys: [{ key: CAPPED_KEY }] },
    ],
    ...options,
  });
  const events: ResponseEvent[] = [];
  let idemCount = 0;
  return {
    run,
    clock,
    events,
    client: (key = DEMO_KEY, extra = {}) =>
      createVideoApiClient({
        baseUrl: run.url,
        apiKey: key,
        clock,
        timeoutClock: systemClock,
        random: () => 0.5,
        onResponse: (event) => events.push(event),
        ...extra,
      }),
    raw: (method, path, opts = {}) => rawRequest(run.url, method, path, opts),
    advance: (ms) => clock.advance(ms),
    idem: (label = 'action') => {
      idemCount += 1;
      return { idempotencyKey: `contract-${label}-${idemCount}` };
    },
    close: () => run.close(),
  };
}

export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  opts: RawOptions = {},
): Promise<RawResult> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const key = opts.key === undefined ? DEMO_KEY : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : {} };
}

/** Creates a storyboard video (20 credits) and plays time until generation completes. */
export async function completedVideo(
  c: Contract,
  api: VideoApiClient,
  input: { name?: string; model?: Model } = {},
): Promise<CreatedVideo> {
  const created = await api.videos.create(
    { script: SCRIPT, voiceId: 'voice_aria_en', model: input.model ?? 'storyboard', ...pick(input, 'name') },
    c.idem('create'),
  );
  c.advance(5 * MINUTE);
  const status = await api.videos.status(created.id);
  if (status.status !== 'completed') throw new Error(`video ${created.id} is ${status.status}`);
  return created;
}

/** A completed video, rendered; returns the video id and the render's URL. */
export async function renderedVideo(
  c: Contract,
  api: VideoApiClient,
): Promise<{ id: string; renderUrl: string }> {
  const { id } = await completedVideo(c, api);
  const { renderId } = await api.videos.render(id, {}, c.idem('render'));
  c.advance(RENDER_MS + SECOND);
  const render = await api.renders.get(renderId);
  if (render.status !== 'done' || render.url === undefined) throw new Error(`render is ${render.status}`);
  return { id, renderUrl: render.url };
}

/** The `VideoApiError` a call rejects with (fails the test if it resolves or throws anything else). */
export async function caught(promise: Promise<unknown>): Promise<VideoApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof VideoApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail with a VideoApiError');
}

type ErrorClass = abstract new (...args: never[]) => VideoApiError;

/**
 * Asserts the typed class, `type` and HTTP status, and that the core words it with its own message
 * code (`api.<type>` in src/core/text/messages.ts) rather than the catch-all.
 */
export function expectApiError(error: VideoApiError, Class: ErrorClass, type: string, status: number): void {
  expect(error).toBeInstanceOf(Class);
  expect(error.type).toBe(type);
  expect(error.status).toBe(status);
  expect(error.details.method).toMatch(/^(GET|POST|PATCH|DELETE)$/);
  expect(error.details.path).toMatch(/^\//);
  expect(error.details.requestId).toMatch(/^sim-\d+$/);
  expect(describeApiError(error)).not.toBe(say('api.unknown', { message: error.message }));
}

function pick<T extends object, K extends keyof T>(value: T, key: K): Partial<Pick<T, K>> {
  return value[key] === undefined ? {} : ({ [key]: value[key] } as Partial<Pick<T, K>>);
}

/** What a proxy may put in place of the simulator's answer. */
export interface Replacement {
  status: number;
  body: unknown;
}

export interface SeenByProxy {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The simulator's status, before any replacement. */
  upstreamStatus: number;
  upstreamHeaders: Headers;
  upstreamBody: string;
}

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of the simulator that can swap an answer after the
 * simulator has acted on the request — the "response lost after the charge" case no knob produces.
 */
export async function startProxy(
  target: string,
  replace: (seen: SeenByProxy) => Replacement | undefined,
): Promise<{ url: string; seen: SeenByProxy[]; close(): Promise<void> }> {
  const seen: SeenByProxy[] = [];
  const origin = new URL(target).origin;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (['host', 'connection', 'content-length'].includes(name) || value === undefined) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const body = Buffer.concat(chunks);
      const upstream = await fetch(origin + (req.url ?? '/'), {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await upstream.text();
      const entry: SeenByProxy = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        upstreamStatus: upstream.status,
        upstreamHeaders: upstream.headers,
        upstreamBody: text,
      };
      seen.push(entry);
      const swap = replace(entry);
      if (swap) {
        res.writeHead(swap.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(swap.body));
        return;
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name))
          out[name] = value;
      });
      res.writeHead(upstream.status, out);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${new URL(target).pathname}`,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
