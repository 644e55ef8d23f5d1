import type { z } from 'zod';
import type { IdempotentCallOptions } from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import type { Route, RouteParams } from '../routes.js';
import { envelope } from '../wire/common.js';

/** The routes without path parameters. */
type PlainRoute = { [R in Route]: [RouteParams<R>] extends [never] ? R : never }[Route];

/**
 * A POST that creates or charges: `body` is sent under the caller's Idempotency-Key (the same on every
 * retry, so a retry or a double click acts once), and the answer's `data` comes back as `schema` reads it.
 */
export async function idempotentPost<S extends z.ZodType>(
  client: Requester,
  { route, body, schema }: { route: PlainRoute; body: unknown; schema: S },
  o: IdempotentCallOptions,
): Promise<z.output<S>> {
  // zod cannot name the output of an envelope around a schema it does not know yet: it is `{ data }`.
  const answer = (await client.request(
    { method: 'POST', route, body, idempotencyKey: o.idempotencyKey, schema: envelope(schema) },
    o,
  )) as { data: z.output<S> };
  return answer.data;
}
