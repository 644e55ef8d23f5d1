/**
 * A real HTTP proxy on 127.0.0.1 between the bot's client and the simulator: it records every call (with
 * the harness's virtual time) and can answer chosen routes with a body the client cannot use, the way a
 * drifted real service would. The client still parses real HTTP responses, so what a test sees is what the
 * bot would do in production.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/core/ports/index.js';

export interface ProxiedCall {
  at: number;
  method: string;
  /** Path below `/api/v1`, without the query: `/videos/abc/status`. */
  path: string;
  /** The query string without `?` (`startDate=2026-11-23&endDate=2026-11-28`), empty when none. */
  query?: string;
  /** The request's `Idempotency-Key` header, when it sent one. */
  idempotencyKey?: string;
}

export interface ApiProxy {
  /** Base URL ending in `/api/v1`, for the client. */
  url: string;
  calls: ProxiedCall[];
  /** Answers matching calls with `200 { success: true, data: { drifted: true } }` until `heal()`. */
  breakMatching(match: (call: ProxiedCall) => boolean): void;
  heal(): void;
  close(): Promise<void>;
}

const PREFIX = '/api/v1';

export async function startApiProxy(target: string, clock: Clock): Promise<ApiProxy> {
  const upstream = new URL(target);
  const calls: ProxiedCall[] = [];
  let broken: ((call: ProxiedCall) => boolean) | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const full = req.url ?? '/';
    const path = full.split('?')[0]?.replace(PREFIX, '') ?? '/';
    const key = req.headers['idempotency-key'];
    const call: ProxiedCall = {
      at: clock.now(),
      method: req.method ?? 'GET',
      path,
      query: full.split('?')[1] ?? '',
      ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
    };
    calls.push(call);
    if (broken?.(call)) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: { drifted: true }, requestId: 'req_proxy' }));
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: full,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${PREFIX}`,
    calls,
    breakMatching(match) {
      broken = match;
    },
    heal() {
      broken = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
