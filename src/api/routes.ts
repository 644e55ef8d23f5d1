import { NotFoundError } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Every path of the API (spec §4), as a template. Templates, never raw ids, go to logs and metrics. */
export type Route =
  | '/me'
  | '/credits'
  | '/videos'
  | '/videos/captions'
  | '/videos/:id'
  | '/videos/:id/thumbnail'
  | '/videos/:id/status'
  | '/videos/:id/render'
  | '/renders/:id'
  | '/series'
  | '/series/:id'
  | '/series/:id/generate'
  | '/series/:id/episodes'
  | '/posts'
  | '/posts/schedule'
  | '/posts/:id'
  | '/calendar'
  | '/accounts'
  | '/voices'
  | '/options'
  | '/assets'
  | '/analytics';

/** `METHOD /route`, the unit the service's per-endpoint rate limits apply to. */
export type Endpoint = `${HttpMethod} ${Route}`;

/** The `:name` parameters of a route template. */
export type RouteParams<R extends string> = R extends `${string}:${infer P}/${infer Rest}`
  ? P | RouteParams<`/${Rest}`>
  : R extends `${string}:${infer P}`
    ? P
    : never;

/**
 * Fills a route template. The one place path parameters are encoded: ids are opaque, so each is
 * percent-encoded as a single segment; an empty or dot-segment id (which a URL parser would collapse
 * into another path) is refused as not found, the way the service answers a malformed id.
 */
export function buildPath<R extends Route>(route: R, params: Record<RouteParams<R>, string>): string {
  const values = params as Record<string, string>;
  return route.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
      throw new NotFoundError(`${route}: "${name}" must be a non-empty id`, { path: route });
    }
    return encodeURIComponent(value);
  });
}
