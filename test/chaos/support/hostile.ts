/**
 * A hostile network in front of the simulator: a small HTTP proxy on 127.0.0.1 that, at random, answers
 * 5xx before the simulator sees the request, loses the response AFTER the simulator acted (502 instead of
 * the real answer: the case idempotency keys exist for), adds latency spikes, and answers everything with
 * 429 + Retry-After during periodic bursts. Knobs can change while it runs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { seededRandom } from '../../../bench/lib/stats.js';

export interface HostileKnobs {
  /** Share of requests answered 500 before reaching the simulator. */
  serverErrorRate: number;
  /** Share of requests whose answer is replaced by a 502 after the simulator handled them. */
  lostResponseRate: number;
  /** Share of requests delayed by `spikeMs` (real ms). */
  spikeRate: number;
  spikeMs: number;
  /** Every `burstEveryMs` (real), for `burstMs`, every request gets 429 with `Retry-After: burstRetryAfterS`. */
  burstEveryMs: number;
  burstMs: number;
  burstRetryAfterS: number;
}

export const CALM: HostileKnobs = {
  serverErrorRate: 0,
  lostResponseRate: 0,
  spikeRate: 0,
  spikeMs: 0,
  burstEveryMs: 0,
  burstMs: 0,
  burstRetryAfterS: 1,
};

export interface HostileProxy {
  /** Base URL ending in /api/v1. */
  url: string;
  knobs: HostileKnobs;
  counts: { requests: number; injected500: number; lost: number; spikes: number; burst429: number };
  close(): Promise<void>;
}

const errorBody = (type: string, message: string) => JSON.stringify({ error: { type, message } });

export async function startHostileProxy(
  targetUrl: string,
  knobs: Partial<HostileKnobs>,
  seed = 1,
): Promise<HostileProxy> {
  const target = new URL(targetUrl);
  const random = seededRandom(seed);
  // Bursts are timed from the first request, not from the proxy's start: a bot slow to start (a loaded
  // machine) must still meet the first burst, or a run can slip between the windows and test nothing.
  let started: number | undefined;
  const counts = { requests: 0, injected500: 0, lost: 0, spikes: 0, burst429: 0 };
  const state: HostileProxy = {
    url: '',
    knobs: { ...CALM, ...knobs },
    counts,
    close: async () => {},
  };

  const inBurst = () => {
    const k = state.knobs;
    started ??= Date.now();
    return k.burstEveryMs > 0 && (Date.now() - started) % k.burstEveryMs < k.burstMs;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    counts.requests++;
    const k = state.knobs;
    if (inBurst()) {
      counts.burst429++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(k.burstRetryAfterS) });
      res.end(errorBody('rate_limited', 'Rate limit exceeded (burst)'));
      return;
    }
    if (random() < k.spikeRate) {
      counts.spikes++;
      await new Promise((r) => setTimeout(r, k.spikeMs));
    }
    if (random() < k.serverErrorRate) {
      counts.injected500++;
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(errorBody('internal_error', 'Injected failure'));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
    }
    const upstream = await request(new URL(req.url ?? '/', target.origin), {
      method: (req.method ?? 'GET') as 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const text = await upstream.body.text();
    if (random() < k.lostResponseRate) {
      // The simulator acted; the caller never learns it.
      counts.lost++;
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(errorBody('internal_error', 'Bad gateway (response lost)'));
      return;
    }
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (
        typeof value === 'string' &&
        !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)
      ) {
        out[name] = value;
      }
    }
    res.writeHead(upstream.statusCode, out);
    res.end(text);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}
