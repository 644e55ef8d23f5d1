import { z } from 'zod';
import type { EndpointLimit, Method, Reply, Route, RouteContext } from '../router.js';
import { parseInput, queryObject } from '../validation.js';
import type { Scope } from '../vocabulary.js';

const NOTHING = z.strictObject({});
type Nothing = typeof NOTHING;

export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType> {
  method: Method;
  pattern: string;
  scope: Scope | null;
  idempotent?: boolean;
  limit?: EndpointLimit;
  /** accepted query parameters; any other parameter is a 400 naming it */
  query?: Q;
  /** accepted JSON body (POST/PATCH); omitted: the body must be empty or `{}` */
  body?: B;
  handle(ctx: RouteContext, input: { query: z.output<Q>; body: z.output<B> }): Reply;
}

/** Builds a route whose query and body are validated (400 invalid_input naming the field) before it runs. */
export function defineRoute<Q extends z.ZodType = Nothing, B extends z.ZodType = Nothing>(
  spec: RouteSpec<Q, B>,
): Route {
  const querySchema: z.ZodType = spec.query ?? NOTHING;
  const bodySchema: z.ZodType = spec.body ?? NOTHING;
  const takesBody = spec.method === 'POST' || spec.method === 'PATCH';
  return {
    method: spec.method,
    pattern: spec.pattern,
    scope: spec.scope,
    ...(spec.idempotent === undefined ? {} : { idempotent: spec.idempotent }),
    ...(spec.limit === undefined ? {} : { limit: spec.limit }),
    handle(ctx) {
      // The casts only restore the generic types the schemas were declared with.
      const query = parseInput(querySchema, queryObject(ctx.query)) as z.output<Q>;
      const body = (takesBody ? parseInput(bodySchema, ctx.body ?? {}) : {}) as z.output<B>;
      return spec.handle(ctx, { query, body });
    },
  };
}

export const ok = (data: unknown, status = 200): Reply => ({ status, data });
