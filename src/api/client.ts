import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Logger } from '../core/ports/index.js';
import { keyId } from '../core/video-api/catalog-cache.js';
import { type CallOptions, type VideoApi, VideoApiError } from '../core/video-api/video-api.js';
import {
  type ApiErrorDetails,
  ConnectionError,
  errorFromResponse,
  RateLimitedError,
  TimeoutError,
} from './errors.js';
import {
  type ClientTuning,
  DEFAULTS,
  type DriftEvent,
  type InvalidResponseEvent,
  type ResponseEvent,
  type VideoApiClientOptions,
} from './options.js';
import { type Lane, type RateBudget, RateBudgetRegistry } from './rate-budget.js';
import type { ApiRequest, Query, Requester } from './request.js';
import { AccountsResource } from './resources/accounts.js';
import { AnalyticsResource } from './resources/analytics.js';
import { AssetsResource } from './resources/assets.js';
import { CreditsResource } from './resources/credits.js';
import { MeResource } from './resources/me.js';
import { OptionsResource } from './resources/options.js';
import { PostsResource } from './resources/posts.js';
import { RendersResource } from './resources/renders.js';
import { SeriesResource } from './resources/series.js';
import { VideosResource } from './resources/videos.js';
import { VoicesResource } from './resources/voices.js';
import { type AttemptFailure, parseRetryAfter, retryDelay } from './retry.js';
import { buildPath, type Endpoint, type Route } from './routes.js';
import { type SendResult, send } from './transport.js';
import { ErrorBodyWire, readTolerantly } from './wire/common.js';

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id'] as const;

/** The video API over HTTP for one team key: resource classes over one `request()`. */
export class VideoApiClient implements VideoApi, Requester {
  readonly me = new MeResource(this);
  readonly credits = new CreditsResource(this);
  readonly videos = new VideosResource(this);
  readonly renders = new RendersResource(this);
  readonly series = new SeriesResource(this);
  readonly posts = new PostsResource(this);
  readonly accounts = new AccountsResource(this);
  readonly voices = new VoicesResource(this);
  readonly options = new OptionsResource(this);
  readonly assets = new AssetsResource(this);
  readonly analytics = new AnalyticsResource(this);
  /** This key's rate budget (shared with every client of the key built from the same registry). */
  readonly budget: RateBudget;

  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #tuning: ClientTuning;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #logger: Logger | undefined;
  readonly #onResponse: ((event: ResponseEvent) => void) | undefined;
  readonly #onDrift: ((event: DriftEvent) => void) | undefined;
  readonly #onInvalid: ((event: InvalidResponseEvent) => void) | undefined;
  readonly #loggedFields: Set<string>;

  constructor(options: VideoApiClientOptions) {
    // Neither message quotes the value: the key is secret, and a URL may carry credentials.
    if (!/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError('apiKey must be a non-empty string of visible ASCII characters');
    }
    if (!URL.canParse(options.baseUrl))
      throw new TypeError('baseUrl must be an absolute URL ending in /api/v1');
    this.#apiKey = options.apiKey;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    const {
      baseUrl,
      apiKey,
      dispatcher,
      budgets,
      logger,
      onResponse,
      onDrift,
      onInvalid,
      loggedFields,
      ...tuning
    } = options;
    this.#tuning = { ...DEFAULTS, ...definedOnly(tuning) };
    this.#dispatcher = dispatcher;
    this.#logger = logger?.child({ component: 'video-api', keyId: keyId(apiKey) });
    this.#onResponse = onResponse;
    this.#onDrift = onDrift;
    this.#onInvalid = onInvalid;
    this.#loggedFields = loggedFields ?? new Set();
    this.budget = (budgets ?? new RateBudgetRegistry({ clock: this.#tuning.clock })).forKey(apiKey);
  }

  /**
   * Sends one call with everything around it: rate budget, auth, timeout, retries (see `retryDelay`),
   * error mapping, and validation of the success body against `req.schema`.
   */
  async request<R extends Route, S extends z.ZodType>(
    req: ApiRequest<R, S>,
    call: CallOptions = {},
  ): Promise<z.output<S>> {
    if (req.idempotencyKey === '') throw new TypeError('idempotencyKey must not be empty');
    const path = buildPath(req.route, (req.params ?? {}) as Parameters<typeof buildPath<R>>[1]);
    const endpoint: Endpoint = `${req.method} ${req.route}`;
    const lane: Lane = call.priority ?? 'interactive';
    const where = { method: req.method, path };
    const { clock } = this.#tuning;
    for (let attempt = 1; ; attempt++) {
      await this.#takeBudget(where, { endpoint, lane, signal: call.signal });
      const started = clock.now();
      const result = await send({
        url: this.#baseUrl + path + queryString(req.query),
        method: req.method,
        headers: this.#headers(req),
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        dispatcher: this.#dispatcher,
        timeoutMs: this.#tuning.timeoutMs,
        clock: this.#tuning.timeoutClock ?? clock,
        signal: call.signal,
      });
      const durationMs = clock.now() - started;
      const outcome = this.#interpret(result, where);
      this.#report({
        method: req.method,
        route: req.route,
        status: result.kind === 'response' ? result.status : 0,
        durationMs,
        attempt,
        ...(outcome.error ? { errorType: outcome.error.type } : {}),
      });
      if (!outcome.error) return this.#parse(req, outcome.json, outcome.details);
      const failure = outcome.failure;
      const delayMs = retryDelay({
        method: req.method,
        idempotent: req.idempotencyKey !== undefined,
        attempt,
        failure,
        options: this.#tuning,
        random: this.#tuning.random,
      });
      if (failure.kind === 'status' && failure.status === 429) {
        // Every caller of this key waits too, not just this retry.
        this.budget.noteRateLimited(endpoint, failure.retryAfterMs ?? delayMs ?? this.#tuning.backoffBaseMs);
      }
      if (delayMs === undefined) throw outcome.error;
      this.#logger?.debug(
        { method: req.method, route: req.route, attempt, delayMs, errorType: outcome.error.type },
        'video api retry',
      );
      await clock.sleep(delayMs, call.signal);
    }
  }

  /** Waits for room in the key's budget, or fails at once when the wait would exceed the cap. */
  async #takeBudget(
    where: ApiErrorDetails,
    { endpoint, lane, signal }: { endpoint: Endpoint; lane: Lane; signal: AbortSignal | undefined },
  ) {
    const waitMs = this.budget.delayFor(endpoint, lane);
    if (waitMs > this.#tuning.maxRateLimitWaitMs) {
      const retryAfter = Math.ceil(waitMs / 1000);
      throw new RateLimitedError(
        `${where.method} ${where.path}: the key's rate budget for ${endpoint} is used up; retry in ${retryAfter}s`,
        { ...where, retryAfter },
      );
    }
    if (waitMs > 0) this.#logger?.debug({ endpoint, lane, waitMs }, 'video api waiting for rate budget');
    await this.budget.acquire(endpoint, lane, signal);
  }

  #headers(req: { body?: unknown; idempotencyKey?: string }): Record<string, string> {
    return {
      authorization: `Bearer ${this.#apiKey}`,
      accept: 'application/json',
      'user-agent': this.#tuning.userAgent,
      ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(req.idempotencyKey === undefined ? {} : { 'idempotency-key': req.idempotencyKey }),
    };
  }

  /** One attempt's result as either a JSON success body or a typed error plus what the retry policy needs. */
  #interpret(
    result: SendResult,
    where: ApiErrorDetails,
  ):
    | { error?: undefined; json: unknown; details: ApiErrorDetails }
    | { error: VideoApiError; failure: AttemptFailure } {
    const prefix = `${where.method} ${where.path}`;
    if (result.kind === 'timeout') {
      const error = new TimeoutError(`${prefix}: no response within ${this.#tuning.timeoutMs} ms`, where);
      return { error, failure: { kind: 'timeout' } };
    }
    if (result.kind === 'too-large') {
      const mb = Math.round(result.limit / (1024 * 1024));
      const error = new VideoApiError(
        'invalid_response',
        `${prefix}: the response is larger than ${mb} MB; not read`,
        { ...where, status: result.status },
      );
      return { error, failure: { kind: 'unreadable' } };
    }
    if (result.kind === 'connection') {
      const detail = this.#redact(`${result.code}: ${result.detail}`);
      return {
        error: new ConnectionError(`${prefix}: connection failed (${detail})`, where),
        failure: { kind: 'connection' },
      };
    }
    const requestId = REQUEST_ID_HEADERS.map((name) => header(result.headers, name)).find(Boolean);
    const details: ApiErrorDetails = { ...where, ...(requestId ? { requestId } : {}), status: result.status };
    const json = parseJson(result.text);
    if (result.status >= 200 && result.status < 300) return { json, details };
    const retryAfterMs = parseRetryAfter(header(result.headers, 'retry-after'), this.#tuning.clock.now());
    const body = ErrorBodyWire.safeParse(json).data?.error;
    const error = errorFromResponse({
      status: result.status,
      type: body?.type,
      message: body?.message === undefined ? undefined : this.#redact(body.message),
      details: {
        ...details,
        ...(retryAfterMs === undefined ? {} : { retryAfter: Math.ceil(retryAfterMs / 1000) }),
      },
    });
    const failure: AttemptFailure = {
      kind: 'status',
      status: result.status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
    return { error, failure };
  }

  /**
   * Reads a success body once, here, tolerantly (DESIGN §6): drift is counted and the call goes on; only a
   * field the operation needs, missing or unusable, is `invalid_response` naming the endpoint and field.
   */
  #parse<S extends z.ZodType>(
    req: { method: ApiRequest<Route, S>['method']; route: Route; schema: S },
    json: unknown,
    details: ApiErrorDetails,
  ): z.output<S> {
    const endpoint: Endpoint = `${req.method} ${req.route}`;
    const read = readTolerantly(req.schema, json);
    if (read.ok) {
      for (const [field, count] of read.drift) {
        this.#hook(this.#onDrift, { endpoint, field, count }, 'onDrift');
        if (this.#firstTime(endpoint, field)) {
          this.#logger?.info({ endpoint, field }, 'video api response drift: field dropped or coerced');
        }
      }
      return read.data;
    }
    for (const field of read.fields) {
      this.#hook(this.#onInvalid, { endpoint, field }, 'onInvalid');
      if (this.#firstTime(endpoint, field)) {
        // Names only: values may be anything, secrets included.
        this.#logger?.warn(
          { endpoint, field, ...this.#shapeOf(json) },
          'video api response unusable: a needed field is missing or of another type',
        );
      }
    }
    const named = read.fields.slice(0, 3).join(', ');
    throw new VideoApiError(
      'invalid_response',
      this.#redact(`${endpoint}: the response has no usable ${named}, which this operation needs`),
      details,
    );
  }

  /** Whether `endpoint field` is logged for the first time (then remembered). */
  #firstTime(endpoint: Endpoint, field: string): boolean {
    const key = `${endpoint} ${field}`;
    if (this.#loggedFields.has(key)) return false;
    this.#loggedFields.add(key);
    return true;
  }

  /** The body's top-level keys and `data`'s keys (or kind), for a log line: never a value. */
  #shapeOf(json: unknown): { keys: string[] | string; dataKeys?: string[] | string } {
    const keysOf = (value: unknown): string[] | string =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.keys(value)
            .slice(0, 40)
            .map((key) => this.#redact(key.slice(0, 64)))
        : Array.isArray(value)
          ? 'array'
          : value === null
            ? 'null'
            : typeof value;
    const keys = keysOf(json);
    if (typeof json !== 'object' || json === null || !('data' in json)) return { keys };
    return { keys, dataKeys: keysOf((json as { data: unknown }).data) };
  }

  /** A metrics hook must never fail the call it observes. */
  #hook<E>(hook: ((event: E) => void) | undefined, event: E, name: string): void {
    try {
      hook?.(event);
    } catch (error) {
      this.#logger?.warn({ err: error }, `video api ${name} hook threw`);
    }
  }

  #report(event: ResponseEvent): void {
    this.#logger?.debug(event, 'video api response');
    this.#hook(this.#onResponse, event, 'onResponse');
  }

  /** Keys never reach an error message, even when a server or transport echoes one. */
  #redact(text: string): string {
    // Too short to be a real secret, and replacing it would mangle the text.
    if (this.#apiKey.length < 8) return text;
    return text.split(this.#apiKey).join('[redacted]');
  }
}

/** Drops `undefined` options so they do not override defaults. */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
