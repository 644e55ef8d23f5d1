import type { IncomingHttpHeaders } from 'node:http';
import { authenticate, keyPrefix, requireScope } from './auth.js';
import type { Engine } from './engine.js';
import { ApiError, internalError, notFound } from './errors.js';
import { parseJsonBody, type WireResponse } from './http-io.js';
import { IdempotencyStore } from './idempotency.js';
import { RateLimiter } from './rate-limiter.js';
import { type Route, Router } from './router.js';
import { accountRoutes } from './routes/account.js';
import { analyticsRoutes } from './routes/analytics.js';
import { catalogRoutes } from './routes/catalog.js';
import { postRoutes } from './routes/posts.js';
import { seriesRoutes } from './routes/series.js';
import { videoJobRoutes } from './routes/video-jobs.js';
import { videoRoutes } from './routes/videos.js';
import { API_PREFIX } from './views.js';
import { MINUTE } from './vocabulary.js';

export const ALL_ROUTES: readonly Route[] = [
  ...accountRoutes,
  ...videoRoutes,
  ...videoJobRoutes,
  ...seriesRoutes,
  ...postRoutes,
  ...catalogRoutes,
  ...analyticsRoutes,
];

/** Spec §8: 300 requests per 60 s per key, on top of any per-endpoint limit. */
const DEFAULT_LIMIT = { max: 300, windowMs: MINUTE };

export interface ApiRequest {
  method: string;
  /** path below /api/v1, e.g. /videos/abc */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  origin: string;
  requestId: string;
}

/**
 * The request pipeline of every /api/v1 call, in the order a real gateway applies it:
 * route (404/405) → key (401) → scope (403) → rate limit (429) → injected 5xx → JSON body →
 * idempotent replay (or 409) → the handler (400/402/403/404/409 or success).
 */
export class Dispatcher {
  readonly #router: Router;
  readonly #rateLimiter = new RateLimiter();
  readonly #idempotency = new IdempotencyStore();

  constructor(private readonly engine: Engine) {
    this.#router = new Router(ALL_ROUTES.map((route) => engine.profile.wrapRoute(route)));
  }

  process(req: ApiRequest): WireResponse {
    const log = this.engine.logger.child({
      requestId: req.requestId,
      method: req.method,
      path: API_PREFIX + req.path,
    });
    // Logs name the caller by key prefix only, never by the key.
    const caller: { keyPrefix?: string } = {};
    try {
      const response = this.#run(req, caller);
      log.debug({ status: response.status, ...caller }, 'request');
      return response;
    } catch (error) {
      if (error instanceof ApiError) {
        log.info({ status: error.status, errorType: error.type, ...caller }, 'request refused');
        return this.engine.profile.errorResponse(error, req.requestId);
      }
      log.error({ err: error, ...caller }, 'simulator handler crashed');
      return this.engine.profile.errorResponse(internalError(), req.requestId);
    }
  }

  #run(req: ApiRequest, caller: { keyPrefix?: string }): WireResponse {
    const { engine } = this;
    engine.settle();
    const now = engine.now();
    const match = this.#router.match(req.method, req.path);
    if (match.kind === 'not_found')
      throw notFound(`No such endpoint: ${req.method} ${API_PREFIX}${req.path}`);
    if (match.kind === 'method_not_allowed') {
      throw new ApiError(
        'invalid_input',
        `method: ${req.method} is not allowed on ${API_PREFIX}${req.path}; allowed: ${match.allowed.join(', ')}`,
        { status: 405, headers: { Allow: match.allowed.join(', ') } },
      );
    }
    const { route, params } = match;
    const key = authenticate(engine.store, req.headers);
    caller.keyPrefix = keyPrefix(key.key);
    requireScope(key, route.scope);
    if (engine.knobs.rateLimits) this.#rateLimiter.take(now, this.#buckets(key.key, route));
    if (engine.rng.failures.chance(engine.knobs.serverErrorRate)) {
      throw internalError('Simulated server failure (serverErrorRate); retry with backoff');
    }

    const body = parseJsonBody(req.rawBody);
    const idemKey = route.idempotent
      ? IdempotencyStore.validateKey(req.headers['idempotency-key'])
      : undefined;
    const fingerprint = IdempotencyStore.fingerprint(req.method, req.path, body ?? {});
    const idempotent = idemKey === undefined ? undefined : { apiKey: key.key, idemKey, fingerprint };
    if (idempotent) {
      const stored = this.#idempotency.lookup(idempotent, now);
      if (stored)
        return { status: stored.status, headers: { 'Idempotent-Replayed': 'true' }, body: stored.body };
    }

    const team = engine.store.team(key.teamId);
    const reply = route.handle({
      engine,
      team,
      key,
      params,
      query: req.query,
      body,
      now,
      origin: req.origin,
    });
    const json = JSON.stringify(
      engine.profile.successEnvelope(
        { success: true, data: reply.data, ...(reply.pagination ? { pagination: reply.pagination } : {}) },
        req.requestId,
      ),
    );
    if (idempotent && reply.status < 300) {
      this.#idempotency.store(idempotent, { status: reply.status, body: json }, now);
    }
    return { status: reply.status, headers: {}, body: json };
  }

  /** The key's default bucket plus the endpoint's own; windows shrink with speed so speed 1 is real time. */
  #buckets(apiKey: string, route: Route) {
    const speed = this.engine.knobs.speed;
    const scale = (l: { max: number; windowMs: number }) => ({ max: l.max, windowMs: l.windowMs / speed });
    const buckets = [{ name: `${apiKey}|*`, limit: scale(DEFAULT_LIMIT) }];
    if (route.limit)
      buckets.push({ name: `${apiKey}|${route.method} ${route.pattern}`, limit: scale(route.limit) });
    return buckets;
  }
}
