import type { z } from 'zod';
import type { CallOptions } from '../core/video-api/video-api.js';
import type { HttpMethod, Route, RouteParams } from './routes.js';

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** One endpoint call as a resource describes it; `request()` does everything else. */
export type ApiRequest<R extends Route, S extends z.ZodType> = {
  method: HttpMethod;
  route: R;
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as `Idempotency-Key`, the same on every retry; makes a POST safe to retry. */
  idempotencyKey?: string;
  /** Schema of the whole success body (`envelope(...)` or `pagedEnvelope(...)`). */
  schema: S;
} & ([RouteParams<R>] extends [never] ? { params?: undefined } : { params: Record<RouteParams<R>, string> });

/** What resource classes need from the client. */
export interface Requester {
  request<R extends Route, S extends z.ZodType>(
    req: ApiRequest<R, S>,
    call?: CallOptions,
  ): Promise<z.output<S>>;
}
