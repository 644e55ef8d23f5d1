/**
 * The `real` profile: what the real product's published references show instead of the seed's newer
 * shapes. Inputs are normalized before the common handlers run (real-inputs.ts), their views transformed
 * after (real-views.ts, real-progress.ts, real-voices.ts); the envelope carries a `requestId`, errors carry
 * no `Retry-After`, thumbnails take longer, and a preview URL is served while a video generates.
 */
import type { ApiError } from '../errors.js';
import type { WireResponse } from '../http-io.js';
import { demoClip } from '../media.js';
import type { Route } from '../router.js';
import { SECOND } from '../vocabulary.js';
import type { ApiProfile } from './profile.js';
import { REAL_INPUTS } from './real-inputs.js';
import { decorate, REAL_VIEWS } from './real-views.js';

/** The real service documents no rate-limit headers. */
const DROPPED_ERROR_HEADERS = new Set(['retry-after']);

const PREVIEW = /^\/media\/preview\/([0-9a-f]{24})\.mp4$/;

function wrapRoute(route: Route): Route {
  const key = `${route.method} ${route.pattern}`;
  const view = REAL_VIEWS[key] ?? decorate;
  const input = REAL_INPUTS[key];
  return {
    ...route,
    handle(ctx) {
      const prepared = input?.(ctx.body, ctx);
      const reply = route.handle(prepared ? { ...ctx, body: prepared.body } : ctx);
      prepared?.after?.(reply);
      return { ...reply, data: view(reply.data, ctx) };
    },
  };
}

function errorResponse(error: ApiError, requestId: string): WireResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(error.headers)) {
    if (!DROPPED_ERROR_HEADERS.has(name.toLowerCase())) headers[name] = value;
  }
  return {
    status: error.status,
    headers,
    body: JSON.stringify({
      success: false,
      error: { type: error.type, message: error.message, statusCode: error.status },
      requestId,
    }),
  };
}

export const realProfile: ApiProfile = {
  name: 'real',
  wrapRoute,
  successEnvelope: (envelope, requestId) => ({
    ...envelope,
    ...(envelope.pagination
      ? {
          pagination: {
            ...envelope.pagination,
            pages: Math.ceil(envelope.pagination.total / envelope.pagination.limit),
          },
        }
      : {}),
    requestId,
  }),
  errorResponse,
  // Thumbnails stay `generating` for 20–40 s (spec profile: 12 s).
  thumbnailGeneratingMs: (engine) => engine.rng.noise.int(20, 40) * SECOND,
  media(engine, path) {
    const preview = PREVIEW.exec(path);
    if (!preview) return undefined;
    if (engine.store.videos.has(preview[1]!)) return demoClip();
    return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'Not found\n' };
  },
};
