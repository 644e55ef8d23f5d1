/**
 * Through the real client: a required field removed or unusable is `invalid_response` naming the endpoint and the
 * field, reported once to `onInvalid`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InvalidResponseEvent, type VideoApiClient, VideoApiError } from '../../src/api/index.js';
import { ANALYTICS_OLD, CREDITS, ME, STATUS, VIDEO } from './fixtures.js';
import { harness, ok } from './harness.js';
import { getAt, OF_TYPE, setAt, typeOf } from './response-mutations.js';
import {
  CREATED_CAPTION,
  CREATED_VIDEO,
  type Json,
  MODELS_CATALOG,
  PAGE,
  RENDER,
  RENDER_STARTED,
  SERIES_CREATED,
  SERIES_NEWER,
  TABLE,
} from './wire-examples.js';

interface Endpoint {
  method: string;
  /** As the mock server sees it (after /api/v1), query included. */
  path: string;
  /** Template, as in the error message and metrics. */
  route: string;
  body: Json;
  required: string[];
  paged?: boolean;
  call: (client: VideoApiClient) => Promise<unknown>;
}

const idem = { idempotencyKey: 'k-1' };
const ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/me',
    route: '/me',
    body: ME,
    required: TABLE.MeWire?.[0]?.required ?? [],
    call: (c) => c.me.get(),
  },
  {
    method: 'GET',
    path: '/credits',
    route: '/credits',
    body: CREDITS,
    required: ['balance'],
    paged: true,
    call: (c) => c.credits.get(),
  },
  {
    method: 'POST',
    path: '/videos',
    route: '/videos',
    body: CREATED_VIDEO,
    required: ['id'],
    call: (c) => c.videos.create({ script: 'A script long enough.', voiceId: 'v' }, idem),
  },
  {
    method: 'POST',
    path: '/videos/captions',
    route: '/videos/captions',
    body: CREATED_CAPTION,
    required: ['id'],
    call: (c) => c.videos.caption({ videoUrl: 'https://cdn.test/v.mp4' }, idem),
  },
  {
    method: 'GET',
    path: '/videos/vid_1',
    route: '/videos/:id',
    body: VIDEO as unknown as Json,
    required: ['id'],
    call: (c) => c.videos.get('vid_1'),
  },
  {
    method: 'GET',
    path: '/videos/vid_1/status',
    route: '/videos/:id/status',
    body: STATUS as unknown as Json,
    required: ['status'],
    call: (c) => c.videos.status('vid_1'),
  },
  {
    method: 'POST',
    path: '/videos/vid_1/render',
    route: '/videos/:id/render',
    body: RENDER_STARTED,
    required: ['renderId'],
    call: (c) => c.videos.render('vid_1', {}, idem),
  },
  {
    method: 'GET',
    path: '/renders/r_1',
    route: '/renders/:id',
    body: RENDER,
    required: ['status'],
    call: (c) => c.renders.get('r_1'),
  },
  {
    method: 'POST',
    path: '/series',
    route: '/series',
    body: SERIES_CREATED,
    required: ['id'],
    call: (c) => c.series.create({ name: 'Daily facts', source: 'ai_topics' }, idem),
  },
  {
    method: 'GET',
    path: '/series/ser_1',
    route: '/series/:id',
    body: SERIES_NEWER,
    required: ['id'],
    call: (c) => c.series.get('ser_1'),
  },
  {
    method: 'POST',
    path: '/series/ser_1/generate',
    route: '/series/:id/generate',
    body: { projectId: 'vid_9', statusUrl: '/api/v1/videos/vid_9/status' },
    required: ['projectId'],
    call: (c) => c.series.generate('ser_1', idem),
  },
  {
    method: 'POST',
    path: '/assets',
    route: '/assets',
    body: { id: 'as_1', url: 'https://cdn.test/a.mp4', name: 'a' },
    required: ['id'],
    call: (c) => c.assets.create({ url: 'https://cdn.test/a.mp4' }, idem),
  },
  {
    method: 'GET',
    path: '/options?kind=models',
    route: '/options',
    body: MODELS_CATALOG,
    required: ['items'],
    call: (c) => c.options.get('models'),
  },
  {
    method: 'GET',
    path: '/analytics',
    route: '/analytics',
    body: ANALYTICS_OLD,
    required: ['totals', 'totals.views'],
    call: (c) => c.analytics.get(),
  },
];

/** Values a required field cannot be read from, for its kind (removed, null, or another JSON type). */
function unusableFor(example: unknown): fc.Arbitrary<Json | undefined> {
  const gone = fc.constantFrom<Json | undefined>(undefined, null);
  const kind = typeOf(example);
  if (kind === 'array') return fc.oneof(gone, fc.boolean(), OF_TYPE.object, fc.string({ maxLength: 5 }));
  if (kind === 'object') return fc.oneof(gone, fc.boolean(), OF_TYPE.array, fc.string({ maxLength: 5 }));
  // Leaves: an id accepts a number and a number a numeric string, so neither stands for "unusable".
  return fc.oneof(gone, fc.boolean(), OF_TYPE.array, OF_TYPE.object);
}

const requiredCases = ENDPOINTS.flatMap((endpoint) =>
  endpoint.required.map(
    (field) => [`${endpoint.method} ${endpoint.route}: ${field}`, endpoint, field] as const,
  ),
);

describe('a required field missing or unusable, through the client', () => {
  it('every endpoint here has its required fields listed', () => {
    expect(ENDPOINTS.every((e) => e.required.length > 0)).toBe(true);
  });

  it.each(requiredCases)('%s → invalid_response naming it', async (_label, endpoint, field) => {
    const path = field.split('.');
    await fc.assert(
      fc.asyncProperty(unusableFor(getAt(endpoint.body, path)), async (value) => {
        const invalid: InvalidResponseEvent[] = [];
        const h = harness({ onInvalid: (e) => invalid.push(e), maxAttempts: 1 });
        const data = setAt(endpoint.body, path, value);
        h.reply(endpoint.method, endpoint.path, 200, endpoint.paged ? ok(data, PAGE) : ok(data));
        const error = await h.clock.run(endpoint.call(h.client)).catch((e: unknown) => e);
        const name = `data.${field}`;
        expect(error).toBeInstanceOf(VideoApiError);
        expect(error).toMatchObject({ type: 'invalid_response', details: { status: 200 } });
        expect((error as Error).message).toContain(`${endpoint.method} ${endpoint.route}: `);
        expect((error as Error).message).toContain(name);
        expect(invalid).toEqual([{ endpoint: `${endpoint.method} ${endpoint.route}`, field: name }]);
        await h.agent.close();
      }),
      { numRuns: 6 },
    );
  });
});
