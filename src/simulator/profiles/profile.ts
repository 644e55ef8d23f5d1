/**
 * A profile decides what the simulator serves on the wire. `spec` serves video-api.md as written; `real`
 * (real.ts) serves what the real product's published references show. A profile is a layer around the
 * routes and the envelope: the records, jobs and rules underneath are the same for both.
 */
import type { Engine } from '../engine.js';
import type { ApiError } from '../errors.js';
import { errorResponse, type WireResponse } from '../http-io.js';
import type { MediaResponse } from '../media.js';
import type { SimulatorProfile } from '../options.js';
import type { Route } from '../router.js';

export interface SuccessEnvelope {
  success: true;
  data: unknown;
  pagination?: { page: number; limit: number; total: number };
}

export interface ApiProfile {
  readonly name: SimulatorProfile;
  /** The route as this profile serves it: inputs normalized before the handler, views transformed after. */
  wrapRoute(route: Route): Route;
  /** The success envelope as sent (the same object when nothing changes). */
  successEnvelope(envelope: SuccessEnvelope, requestId: string): object;
  /** An error response as sent. */
  errorResponse(error: ApiError, requestId: string): WireResponse;
  /** How long (nominal ms at speed 1) thumbnails stay `generating` after the queued step. */
  thumbnailGeneratingMs(engine: Engine, nominalMs: number): number;
  /** Media only this profile hands out (undefined: the common media paths). */
  media(engine: Engine, path: string): MediaResponse | undefined;
}

/** video-api.md as written: everything passes through unchanged. */
export const specProfile: ApiProfile = {
  name: 'spec',
  wrapRoute: (route) => route,
  successEnvelope: (envelope) => envelope,
  errorResponse: (error) => errorResponse(error),
  thumbnailGeneratingMs: (_engine, nominalMs) => nominalMs,
  media: () => undefined,
};
