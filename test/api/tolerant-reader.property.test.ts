/**
 * The tolerant reader, as properties (DESIGN §6). For every response schema exported from src/api/wire,
 * next to documented example responses (video-api.md, both shapes where two exist):
 * (a) unknown fields at every level, the envelope included, change nothing the bot needs;
 * (b) an optional field of any other JSON type, and (c) an optional field removed, still parse, with the
 *     same required fields;
 * and through the real client: a required field removed or unusable is `invalid_response` naming the
 * endpoint and the field, reported once to `onInvalid`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { type InvalidResponseEvent, type VideoApiClient, VideoApiError } from '../../src/api/index.js';
import * as account from '../../src/api/wire/account.js';
import * as analytics from '../../src/api/wire/analytics.js';
import * as asset from '../../src/api/wire/asset.js';
import * as catalog from '../../src/api/wire/catalog.js';
import * as common from '../../src/api/wire/common.js';
import * as credits from '../../src/api/wire/credits.js';
import * as postBlocks from '../../src/api/wire/post-blocks.js';
import * as posts from '../../src/api/wire/posts.js';
import * as series from '../../src/api/wire/series.js';
import * as thumbnails from '../../src/api/wire/thumbnails.js';
import * as video from '../../src/api/wire/video.js';
import {
  ACCOUNTS_NEW,
  ACCOUNTS_OLD,
  ANALYTICS_NEW,
  ANALYTICS_OLD,
  CREDITS,
  ME,
  SERIES_CONFIG,
  STATUS,
  VARIANTS,
  VIDEO,
  VIDEO_LIST_ITEM,
  VOICE_FULL,
  VOICE_SHORT,
} from './fixtures.js';
import { harness, ok } from './harness.js';

const MODULES = {
  account,
  analytics,
  asset,
  catalog,
  common,
  credits,
  postBlocks,
  posts,
  series,
  thumbnails,
  video,
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** How an example is wrapped: in `{ success, data }`, in a paginated envelope, or not at all. */
type Wrap = 'data' | 'paged' | 'none';

interface Example {
  /** The `data` of a documented response (or the whole body when `wrap` is `none`). */
  body: Json;
  /** Dotted paths (in `body`) whose removal fails the schema: what the operation cannot do without. */
  required: string[];
  wrap?: Wrap;
  /** A required field reported under another name (either of two ids missing names the newer one). */
  reportedAs?: Record<string, string>;
}

const PAGE = { page: 1, limit: 20, total: 2 };
const BLOCKS = {
  youtubePost: VIDEO.youtubePost,
  tiktokPost: VIDEO.tiktokPost,
  instagramPost: VIDEO.instagramPost,
  xPost: VIDEO.xPost,
  facebookPost: VIDEO.facebookPost,
  linkedinPost: VIDEO.linkedinPost,
  threadsPost: VIDEO.threadsPost,
};
const CREATED_VIDEO = {
  id: 'vid_2',
  name: 'Launch',
  model: 'storyboard',
  status: 'processing',
  creditsUsed: 20,
  statusUrl: '/api/v1/videos/vid_2/status',
};
const CREATED_CAPTION = { id: 'vid_3', status: 'processing', statusUrl: '/api/v1/videos/vid_3/status' };
const RENDER_STARTED = { renderId: 'r_1', statusUrl: '/api/v1/renders/r_1' };
const RENDER = { renderId: 'r_1', status: 'done', overallProgress: 1, url: 'https://cdn.test/r_1.mp4' };
const SERIES_CREATED = {
  id: 'ser_1',
  name: 'Daily facts',
  source: 'ai_topics',
  niche: 'science',
  createdAt: '2026-02-01T10:00:00Z',
};
const SERIES_NEWER = {
  ...SERIES_CONFIG,
  duration: '60',
  postingDays: [1, 3],
  destinationAccounts: { youtube: ['acc_yt_1'] },
  platformPostTimes: { youtube: '09:30' },
};
const EPISODE = { id: 'ep_1', projectId: 'vid_9', status: 'posted', scheduledTime: '2026-02-02T09:30:00Z' };
const CALENDAR_ENTRY = {
  id: 'cal_1',
  projectId: 'vid_1',
  platform: 'youtube',
  status: 'scheduled',
  scheduledTime: '2026-03-01T09:00:00Z',
};
const MODELS_CATALOG = {
  kind: 'models',
  items: [
    { value: 'storyboard', name: 'Storyboard', credits: 20 },
    { value: 'motion_lite', name: 'Motion lite', credits: 50 },
  ],
};
const THUMBNAILS_STRINGS = {
  status: 'ready',
  selectedVariantId: 'v2',
  selectedBy: 'user',
  variants: VARIANTS.map((v) => v.url),
};

/** Every response schema exported from src/api/wire, with documented examples. */
const TABLE: Record<string, Example[]> = {
  MeWire: [{ body: ME, required: ['team', 'team.name', 'team.credits'] }],
  AccountEntryWire: [
    { body: ACCOUNTS_NEW.youtube[0] as Json, required: ['authId'] },
    { body: ACCOUNTS_OLD.youtube[0] as Json, required: ['id'], reportedAs: { id: 'authId' } },
  ],
  AccountsWire: [
    { body: ACCOUNTS_NEW, required: [] },
    { body: ACCOUNTS_OLD, required: [] },
  ],
  AnalyticsWire: [
    { body: ANALYTICS_NEW, required: [] },
    { body: ANALYTICS_OLD, required: ['totals', 'totals.views'] },
  ],
  AssetWire: [{ body: { id: 'as_1', url: 'https://cdn.test/a.mp4', name: 'a' }, required: ['id'] }],
  VoiceWire: [
    { body: VOICE_FULL, required: ['id'] },
    { body: VOICE_SHORT, required: ['id'] },
  ],
  OptionItemWire: [
    { body: MODELS_CATALOG.items[0] as Json, required: [] },
    { body: 'storyboard', required: [] },
  ],
  OptionCatalogWire: [{ body: MODELS_CATALOG, required: ['items'] }],
  OptionKindsWire: [
    { body: ['sources', 'models'], required: [] },
    { body: { kinds: ['sources', 'models'] }, required: [] },
  ],
  PageWire: [{ body: PAGE, required: ['total'], wrap: 'none' }],
  ErrorBodyWire: [
    {
      body: { success: false, error: { type: 'payment_failed', message: 'Payment failed' } },
      required: ['error'],
      wrap: 'none',
    },
  ],
  DeletedWire: [{ body: { deleted: true }, required: [] }],
  LedgerEntryWire: [{ body: CREDITS.history[0] as Json, required: ['credits', 'type', 'createdAt'] }],
  CreditsWire: [{ body: CREDITS, required: ['balance'], wrap: 'paged' }],
  PostBlocksWire: [{ body: BLOCKS, required: [] }],
  PublishedWire: [
    { body: { platform: 'youtube', videoId: 'vid_1', postUrl: 'https://youtu.be/x' }, required: [] },
  ],
  ScheduledWire: [
    {
      body: { taskId: 't_1', platforms: ['youtube', 'x'], scheduledTime: '2026-03-01T09:00:00Z' },
      required: [],
    },
  ],
  CancelledWire: [{ body: { cancelled: true }, required: [] }],
  CalendarEntryWire: [
    { body: CALENDAR_ENTRY, required: ['id', 'projectId', 'platform', 'status', 'scheduledTime'] },
  ],
  SeriesSummaryWire: [
    { body: SERIES_CREATED, required: ['id'] },
    { body: { id: 's', name: 'S', source: 'x', niche: null, paused: true }, required: ['id'] },
  ],
  SeriesWire: [
    { body: SERIES_CONFIG, required: ['id'] },
    { body: SERIES_NEWER, required: ['id'] },
  ],
  EpisodeWire: [{ body: EPISODE, required: ['id', 'status'] }],
  GeneratedEpisodeWire: [
    { body: { projectId: 'vid_9', statusUrl: '/api/v1/videos/vid_9/status' }, required: ['projectId'] },
  ],
  VariantWire: [
    { body: VARIANTS[0] as Json, required: ['id', 'url'] },
    { body: VARIANTS[0]?.url as Json, required: [] },
  ],
  ThumbnailsWire: [
    { body: VIDEO.thumbnails, required: ['status'] },
    { body: THUMBNAILS_STRINGS, required: ['status'] },
  ],
  VideoListItemWire: [{ body: VIDEO_LIST_ITEM, required: ['id'] }],
  VideoWire: [{ body: VIDEO as unknown as Json, required: ['id'] }],
  CreatedVideoWire: [{ body: CREATED_VIDEO, required: ['id'] }],
  CreatedCaptionWire: [{ body: CREATED_CAPTION, required: ['id'] }],
  PatchedVideoWire: [
    {
      body: {
        id: 'vid_1',
        name: 'N',
        ...BLOCKS,
        thumbnailUrl: VARIANTS[1]?.url ?? '',
        thumbnails: THUMBNAILS_STRINGS,
      },
      required: [],
    },
  ],
  ThumbnailSelectionWire: [
    {
      body: { id: 'vid_1', thumbnailUrl: VARIANTS[1]?.url ?? '', thumbnails: THUMBNAILS_STRINGS },
      required: [],
    },
  ],
  VideoStatusWire: [
    { body: STATUS as unknown as Json, required: ['status'] },
    {
      body: { id: 'vid_1', status: 'failed', percentCompleted: 60, errorMessages: ['voice unavailable'] },
      required: ['status'],
    },
  ],
  RenderStartedWire: [{ body: RENDER_STARTED, required: ['renderId'] }],
  RenderWire: [{ body: RENDER, required: ['status'] }],
};

const wireSchemas = (): [string, z.ZodType][] =>
  Object.values(MODULES).flatMap((module) =>
    Object.entries(module).filter((entry): entry is [string, z.ZodType] => entry[0].endsWith('Wire')),
  );

// ---------------------------------------------------------------------------------------------------------
// JSON paths and values

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every object property in `value`, nested ones and those inside list items included. */
function fieldPaths(value: Json, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => fieldPaths(item, [...prefix, i]));
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, field]) => [
    [...prefix, key],
    ...fieldPaths(field, [...prefix, key]),
  ]);
}

const dotted = (path: Path): string => path.join('.');

function getAt(value: unknown, path: Path): unknown {
  let node = value;
  for (const key of path) node = (node as Record<string | number, unknown> | undefined)?.[key];
  return node;
}

/** A copy of `value` with the field at `path` set to `replacement`, or removed when it is `undefined`. */
function setAt(value: Json, path: Path, replacement: Json | undefined): Json {
  const copy = structuredClone(value);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1] as string | number;
  if (replacement === undefined) delete parent[key];
  else parent[key] = replacement;
  return copy;
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const typeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);

const small = fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>;
const OF_TYPE: Record<JsonType, fc.Arbitrary<Json>> = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  string: fc.string({ maxLength: 12 }),
  array: fc.array(small, { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), small, { maxKeys: 3 }) as fc.Arbitrary<Json>,
};
const TYPES = Object.keys(OF_TYPE) as JsonType[];

/** Keys no schema reads: a prefix keeps a random name from landing on a real field. */
const unknownKey = fc.string({ minLength: 1, maxLength: 10 }).map((s) => `u_${s}`);

/** `value` with up to two unknown fields added to every object in it. */
function withUnknownFields(value: Json): fc.Arbitrary<Json> {
  if (Array.isArray(value)) return fc.tuple(...value.map(withUnknownFields)) as fc.Arbitrary<Json>;
  if (!isObject(value)) return fc.constant(value);
  const fields = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUnknownFields(v)]));
  return fc
    .tuple(
      fc.record(fields),
      fc.dictionary(unknownKey, fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
}

function wrapped(body: Json, wrap: Wrap = 'data'): Json {
  if (wrap === 'none') return body;
  return wrap === 'paged' ? { success: true, data: body, pagination: PAGE } : { success: true, data: body };
}

function schemaFor(schema: z.ZodType, wrap: Wrap = 'data'): z.ZodType {
  if (wrap === 'none') return schema;
  return wrap === 'paged' ? common.pagedEnvelope(schema) : common.envelope(schema);
}

/** The path of a field of `body` inside the whole response. */
const inResponse = (path: Path, wrap: Wrap = 'data'): Path => (wrap === 'none' ? path : ['data', ...path]);

/**
 * Parses a whole response as the client does, and checks the required fields came through: the same
 * value for a leaf, present for a part (whose optional contents may have been changed on purpose).
 */
function expectReadWithRequired(name: string, example: Example, response: Json): void {
  const read = common.readTolerantly(schemaFor(TABLE_SCHEMAS[name] as z.ZodType, example.wrap), response);
  if (!read.ok) throw new Error(`${name}: not read (${read.fields.join(', ')})`);
  const original = wrapped(example.body, example.wrap);
  for (const field of example.required) {
    const path = inResponse(field.split('.'), example.wrap);
    const expected = getAt(original, path);
    if (typeof expected === 'object' && expected !== null)
      expect(getAt(read.data, path), `${name} ${field}`).toBeDefined();
    else expect(getAt(read.data, path), `${name} ${field}`).toEqual(expected);
  }
}

const TABLE_SCHEMAS: Record<string, z.ZodType> = Object.fromEntries(wireSchemas());

const cases = Object.entries(TABLE).flatMap(([name, examples]) =>
  examples.map((example, i) => [`${name} #${i + 1}`, name, example] as const),
);

const optionalPaths = (example: Example): Path[] =>
  fieldPaths(example.body).filter((path) => !example.required.includes(dotted(path)));

// ---------------------------------------------------------------------------------------------------------

describe('the table covers every response schema', () => {
  it('each *Wire exported from src/api/wire has documented examples here, and no other entry', () => {
    const exported = wireSchemas().map(([name]) => name);
    expect(exported.length).toBeGreaterThan(0);
    expect([...exported].sort()).toEqual(Object.keys(TABLE).sort());
  });

  it.each(cases)('%s: the example itself is read', (_label, name, example) => {
    expectReadWithRequired(name, example, wrapped(example.body, example.wrap));
  });

  it.each(cases)('%s: each listed required field is required', (_label, name, example) => {
    const schema = schemaFor(TABLE_SCHEMAS[name] as z.ZodType, example.wrap);
    for (const field of example.required) {
      const path = inResponse(field.split('.'), example.wrap);
      const read = common.readTolerantly(schema, setAt(wrapped(example.body, example.wrap), path, undefined));
      expect(read.ok, `${name} without ${field}`).toBe(false);
      const reported = inResponse((example.reportedAs?.[field] ?? field).split('.'), example.wrap);
      if (!read.ok) expect(read.fields).toContain(common.fieldPath(reported));
    }
  });
});

describe('(a) unknown fields at every level, the envelope included', () => {
  it.each(cases)('%s', (_label, name, example) => {
    fc.assert(
      fc.property(withUnknownFields(wrapped(example.body, example.wrap)), (response) => {
        expectReadWithRequired(name, example, response);
      }),
      { numRuns: 40 },
    );
  });
});

describe('(b) an optional field of every other JSON type', () => {
  it.each(cases)('%s', (_label, name, example) => {
    for (const path of optionalPaths(example)) {
      const current = typeOf(getAt(example.body, path));
      for (const type of TYPES.filter((t) => t !== current)) {
        fc.assert(
          fc.property(OF_TYPE[type], (value) => {
            const body = setAt(example.body, path, value);
            expectReadWithRequired(name, example, wrapped(body, example.wrap));
          }),
          { numRuns: type === 'null' ? 1 : 4 },
        );
      }
    }
  });
});

describe('(c) an optional field removed', () => {
  it.each(cases)('%s', (_label, name, example) => {
    for (const path of optionalPaths(example)) {
      expectReadWithRequired(name, example, wrapped(setAt(example.body, path, undefined), example.wrap));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Through the real client: what users get when a needed field is missing or unusable.

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
