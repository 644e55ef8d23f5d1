import type { Engine } from './engine.js';
import type { KeyRec, TeamRec } from './records.js';
import type { Scope } from './vocabulary.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a handler sees: the caller's team and key, path params, query and parsed JSON body. */
export interface RouteContext {
  engine: Engine;
  team: TeamRec;
  key: KeyRec;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  now: number;
  /** origin media URLs are built from, e.g. http://127.0.0.1:4010 */
  origin: string;
}

export interface Reply {
  status: number;
  data: unknown;
  pagination?: { page: number; limit: number; total: number };
}

/** A §8 per-endpoint limit (the default 300/60 s applies to every route on top of it). */
export interface EndpointLimit {
  max: number;
  windowMs: number;
}

export interface Route {
  method: Method;
  /** path below /api/v1 with `{name}` parameters, e.g. `/videos/{id}/render` */
  pattern: string;
  /** null: any valid key (GET /me) */
  scope: Scope | null;
  idempotent?: boolean;
  limit?: EndpointLimit;
  handle(ctx: RouteContext): Reply;
}

interface CompiledPattern {
  pattern: string;
  segments: string[];
  literals: number;
  routes: Route[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allowed: Method[] }
  | { kind: 'not_found' };

/** Matches a path to a route; a known path with the wrong method is reported as such (405, not 404). */
export class Router {
  #patterns: CompiledPattern[] = [];

  constructor(routes: readonly Route[]) {
    const byPattern = new Map<string, CompiledPattern>();
    for (const route of routes) {
      let compiled = byPattern.get(route.pattern);
      if (!compiled) {
        const segments = route.pattern.split('/').filter(Boolean);
        compiled = {
          pattern: route.pattern,
          segments,
          literals: segments.filter((s) => !s.startsWith('{')).length,
          routes: [],
        };
        byPattern.set(route.pattern, compiled);
      }
      compiled.routes.push(route);
    }
    // Most literal first, so `/videos/captions` wins over `/videos/{id}`.
    this.#patterns = [...byPattern.values()].sort((a, b) => b.literals - a.literals);
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').filter(Boolean);
    for (const compiled of this.#patterns) {
      const params = matchSegments(compiled.segments, parts);
      if (!params) continue;
      const route = compiled.routes.find((r) => r.method === method);
      if (route) return { kind: 'found', route, params };
      return { kind: 'method_not_allowed', allowed: compiled.routes.map((r) => r.method) };
    }
    return { kind: 'not_found' };
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith('{')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return undefined;
      }
      params[segment.slice(1, -1)] = decoded;
    } else if (segment !== part) {
      return undefined;
    }
  }
  return params;
}
