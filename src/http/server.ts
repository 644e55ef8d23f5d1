/**
 * The one HTTP server on `PORT`: `/healthz`, `/metrics`, and whatever the adapters mount (the playground,
 * `POST /slack/events`, `POST /discord/interactions`). Routing is by exact path or path prefix.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock, Logger } from '../core/ports/index.js';
import { systemClock } from '../core/time/system-clock.js';
import { AckGate } from './ack-gate.js';
import { MAX_CHAT_BODY_BYTES, readBounded } from './bounded-body.js';

/** Longest a chat request may take to arrive whole (headers and body). */
const CHAT_REQUEST_TIMEOUT_MS = 10_000;
/**
 * Chat requests a burst brings arrive a few milliseconds apart (one connection each; 1–5 ms here, some 20 ms on a
 * busy machine): work waits until none has come for this long, so that it runs after the burst's acknowledgements
 * rather than between them. People's own commands come seconds apart; one waits this much longer for its answer.
 */
const CHAT_QUIET_MS = 20;

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface HttpServer {
  /**
   * Mounts a handler for a path (`/slack/events`) or a prefix (`/playground/` ends with '/'). An
   * `interactive` route's requests are chat requests: read whole and bounded first, then counted in `acks`
   * until answered.
   */
  mount(path: string, handler: Handler, options?: { interactive?: boolean }): void;
  /** Chat requests not answered yet: adapters start their work once these are acknowledged. */
  readonly acks: AckGate;
  listen(port: number, host: string): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
  readonly server: Server;
}

/** Host names that mean "this machine" in a Host header. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** The Host header's name without port or IPv6 brackets. */
export const hostName = (req: IncomingMessage): string =>
  (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');

export const isLoopbackHost = (host: string): boolean => LOOPBACK_HOSTS.has(host) || /^127\./.test(host);

/** Which replica answers `/healthz`, on which store, and its part in the Discord gateway. */
export interface ReplicaHealth {
  replica: string;
  store: 'sqlite' | 'postgres';
  /** holder: this replica holds the gateway session; standby: another does; none: no gateway (not configured). */
  gateway: 'holder' | 'standby' | 'none';
}

export interface HttpServerOptions {
  logger: Logger;
  /** Times the acknowledgement gate's longest wait (default the system clock). */
  clock?: Clock;
  /** true: 200; 'starting' (listening, chat platforms still connecting) or false: 503. */
  health: () => boolean | 'starting';
  /** Added to `/healthz`'s body; a standby replica is healthy. */
  about?: () => ReplicaHealth;
  metrics: () => Promise<{ contentType: string; body: string }>;
  /**
   * The interface the server listens on (default loopback). On loopback, `/healthz` and `/metrics` answer only
   * requests addressed to a loopback name (a page on another site cannot reach them through DNS rebinding).
   * With a `metricsToken`, `/metrics` needs `Authorization: Bearer <metricsToken>` whatever the address;
   * without one, it is refused beyond loopback.
   */
  host?: string;
  metricsToken?: string;
}

type Route = { path: string; handler: Handler; interactive: boolean };
type Fail = (res: ServerResponse, err: unknown) => void;

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const routes: Route[] = [];
  const acks = new AckGate(options.clock ?? systemClock, { quietMs: CHAT_QUIET_MS });
  const log = options.logger.child({ component: 'http' });
  const fail: Fail = (res, err) => {
    log.error({ err }, 'http handler failed');
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('internal error');
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    if (path === '/healthz' || path === '/metrics') {
      serveOperational(options, { req, res, path, fail });
      return;
    }
    const route = routeFor(routes, path);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    if (route.interactive) {
      chatRequest(acks, route.handler)(req, res).catch((err: unknown) => fail(res, err));
      return;
    }
    Promise.resolve()
      .then(() => route.handler(req, res))
      .catch((err: unknown) => fail(res, err));
  });
  limitSlowClients(server);

  return {
    server,
    acks,
    mount(path, handler, mountOptions = {}) {
      routes.push({ path, handler, interactive: mountOptions.interactive === true });
    },
    listen: (port, host) => listen(server, port, host),
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}

/** `/healthz` and `/metrics`, once `refusal` lets the request through. */
function serveOperational(
  options: HttpServerOptions,
  { req, res, path, fail }: { req: IncomingMessage; res: ServerResponse; path: string; fail: Fail },
) {
  const refused = refusal(options, req, path);
  if (refused) {
    res.writeHead(refused[0], { 'content-type': 'text/plain' });
    res.end(refused[1]);
    return;
  }
  if (path === '/healthz') {
    const health = options.health();
    const ok = health === true;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    const body = { ok, ...(health === 'starting' ? { status: 'starting' } : {}), ...options.about?.() };
    res.end(JSON.stringify(body));
    return;
  }
  options
    .metrics()
    .then(({ contentType, body }) => {
      res.writeHead(200, { 'content-type': contentType });
      res.end(body);
    })
    .catch((err: unknown) => fail(res, err));
}

/** Why an operational endpoint refuses this request (status and words), or undefined. */
function refusal(
  options: HttpServerOptions,
  req: IncomingMessage,
  path: string,
): [number, string] | undefined {
  const onLoopback = isLoopbackHost(options.host ?? '127.0.0.1');
  if (onLoopback && !isLoopbackHost(hostName(req))) return [421, 'Use 127.0.0.1 or localhost.'];
  if (path !== '/metrics') return undefined;
  // A set token is required whatever the bind address: a local proxy may rewrite Host to a loopback name.
  if (!options.metricsToken) {
    return onLoopback ? undefined : [403, 'Set METRICS_TOKEN to read /metrics from beyond this machine.'];
  }
  const given = req.headers.authorization ?? '';
  return safeEqual(given, `Bearer ${options.metricsToken}`) ? undefined : [401, 'Bearer token required.'];
}

/** Longest match first, so `/` can be the playground while `/slack/events` stays Slack's. */
function routeFor(routes: readonly Route[], path: string): Route | undefined {
  return routes
    .filter((r) => (r.path.endsWith('/') ? path.startsWith(r.path) : path === r.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/**
 * A chat request (Slack events, Discord interactions): its body is read here, bounded, before any framework
 * sees it (413 beyond), and it counts in `acks` only once whole — a slow client that sent one byte holds
 * up nobody's commands. The body is handed on as `rawBody` (Bolt and the Discord endpoint read it there).
 */
const chatRequest =
  (acks: AckGate, handler: Handler) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBounded(req, MAX_CHAT_BODY_BYTES);
    if (body === undefined) {
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' });
      res.end(`request body larger than ${MAX_CHAT_BODY_BYTES} bytes`);
      req.destroy();
      return;
    }
    Object.assign(req, { rawBody: body });
    const answered = acks.arrived();
    res.once('finish', answered);
    res.once('close', answered);
    await handler(req, res);
  };

/** A client that opens a connection and trickles bytes is cut off: chat platforms send whole requests at once. */
function limitSlowClients(server: Server) {
  server.headersTimeout = CHAT_REQUEST_TIMEOUT_MS;
  server.requestTimeout = CHAT_REQUEST_TIMEOUT_MS;
}

function listen(server: Server, port: number, host: string): Promise<{ url: string; port: number }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolve({ url: `http://${host}:${address.port}`, port: address.port });
    });
  });
}

/** Compares a secret without leaking how much of it matched through timing. */
function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
