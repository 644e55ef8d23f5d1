/** Error types about who calls and what the team may do: unauthorized, forbidden_scope, 402, usage limit. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ForbiddenScopeError,
  InsufficientCreditsError,
  UnauthorizedError,
  UsageLimitReachedError,
  type VideoApiClient,
} from '../../src/api/index.js';
import { describeApiError } from '../../src/core/video-api/api-errors.js';
import { SCOPES } from '../../src/core/video-api/video-api.js';
import {
  CAPPED_KEY,
  type Contract,
  caught,
  completedVideo,
  DEMO_KEY,
  expectApiError,
  NOSCOPE_KEY,
  POOR_KEY,
  READONLY_KEY,
  SCRIPT,
  startContract,
} from './support.js';

let c: Contract;
beforeEach(async () => {
  c = await startContract();
});
afterEach(async () => {
  await c.close();
});

const idem = { idempotencyKey: 'errors-access' };
const ID = '0123456789abcdef01234567';

describe('unauthorized (401)', () => {
  it('both header forms authenticate; missing, malformed, unknown and revoked keys do not (raw fetch)', async () => {
    expect((await c.raw('GET', '/me')).status).toBe(200);
    const viaHeader = await c.raw('GET', '/me', { key: null, headers: { 'x-api-key': DEMO_KEY } });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.json.data).toMatchObject({ team: { name: 'Demo Team' } });

    const refused: [string, Parameters<Contract['raw']>[2]][] = [
      ['no key', { key: null }],
      ['unknown bearer', { key: 'fl_live_unknown_key_000000000000000' }],
      ['unknown X-API-Key', { key: null, headers: { 'x-api-key': 'fl_live_unknown_key_000000000000000' } }],
      ['not Bearer', { key: null, headers: { authorization: `Token ${DEMO_KEY}` } }],
      ['empty X-API-Key', { key: null, headers: { 'x-api-key': ' ' } }],
    ];
    c.run.sim.addKey(DEMO_KEY, 'fl_live_contract_revoked_00000000000');
    c.run.sim.revokeKey('fl_live_contract_revoked_00000000000');
    refused.push(
      ['revoked bearer', { key: 'fl_live_contract_revoked_00000000000' }],
      ['revoked X-API-Key', { key: null, headers: { 'x-api-key': 'fl_live_contract_revoked_00000000000' } }],
    );
    for (const [name, options] of refused) {
      const res = await c.raw('GET', '/videos', options);
      expect({ name, status: res.status }).toEqual({ name, status: 401 });
      expect(res.json).toEqual({
        success: false,
        error: { type: 'unauthorized', message: expect.any(String) },
      });
      expect(res.json.error?.message).not.toContain('fl_live_');
    }
  });

  it('through the client: UnauthorizedError, not retried, the key never in the message', async () => {
    const bad = 'fl_live_contract_wrong_key_000000000000';
    const attempts = c.events.length;
    const error = await caught(c.client(bad).videos.list());
    expectApiError(error, UnauthorizedError, 'unauthorized', 401);
    expect(c.events.length - attempts).toBe(1);
    expect(error.message).not.toContain(bad);

    const key = 'fl_live_contract_soon_revoked_00000000';
    c.run.sim.addKey(DEMO_KEY, key);
    const api = c.client(key);
    expect((await api.me.get()).team.name).toBe('Demo Team');
    c.run.sim.revokeKey(key);
    expectApiError(await caught(api.me.get()), UnauthorizedError, 'unauthorized', 401);
  });
});

/** Every client method with the scope its endpoint needs (spec §4). GET /me needs none. */
const SCOPED_CALLS: [string, string, (api: VideoApiClient) => Promise<unknown>][] = [
  ['credits.get', 'credits:read', (a) => a.credits.get()],
  [
    'videos.create',
    'videos:write',
    (a) => a.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, idem),
  ],
  [
    'videos.caption',
    'videos:write',
    (a) => a.videos.caption({ videoUrl: 'https://cdn.example.com/v.mp4' }, idem),
  ],
  ['videos.list', 'videos:read', (a) => a.videos.list()],
  ['videos.get', 'videos:read', (a) => a.videos.get(ID)],
  ['videos.update', 'videos:write', (a) => a.videos.update(ID, { name: 'n' })],
  ['videos.delete', 'videos:write', (a) => a.videos.delete(ID)],
  ['videos.selectThumbnail', 'videos:write', (a) => a.videos.selectThumbnail(ID, 'v')],
  ['videos.status', 'videos:read', (a) => a.videos.status(ID)],
  ['videos.render', 'videos:write', (a) => a.videos.render(ID, {}, idem)],
  ['renders.get', 'videos:read', (a) => a.renders.get(ID)],
  ['series.create', 'series:write', (a) => a.series.create({ name: 'S', source: 'ai_story' }, idem)],
  ['series.list', 'series:read', (a) => a.series.list()],
  ['series.get', 'series:read', (a) => a.series.get(ID)],
  ['series.update', 'series:write', (a) => a.series.update(ID, { paused: true })],
  ['series.delete', 'series:write', (a) => a.series.delete(ID)],
  ['series.generate', 'series:write', (a) => a.series.generate(ID, idem)],
  ['series.episodes', 'series:read', (a) => a.series.episodes(ID)],
  ['posts.publish', 'posts:write', (a) => a.posts.publish({ videoId: ID, platform: 'x' }, idem)],
  [
    'posts.schedule',
    'posts:write',
    (a) => a.posts.schedule({ videoId: ID, platforms: ['x'], scheduledTime: '2027-01-01T00:00:00Z' }, idem),
  ],
  ['posts.cancel', 'posts:write', (a) => a.posts.cancel(ID)],
  [
    'posts.calendar',
    'posts:read',
    (a) => a.posts.calendar({ startDate: '2026-01-01', endDate: '2026-01-31' }),
  ],
  ['accounts.list', 'accounts:read', (a) => a.accounts.list()],
  ['voices.list', 'catalog:read', (a) => a.voices.list()],
  ['options.get', 'catalog:read', (a) => a.options.get('models')],
  ['options.kinds', 'catalog:read', (a) => a.options.kinds()],
  ['assets.create', 'assets:write', (a) => a.assets.create({ url: 'https://cdn.example.com/a.png' }, idem)],
  ['analytics.get', 'analytics:read', (a) => a.analytics.get()],
];

describe('forbidden_scope (403)', () => {
  it('a key with no scope: GET /me answers and lists none', async () => {
    const me = await c.client(NOSCOPE_KEY).me.get();
    expect(me.auth.scopes).toEqual([]);
    expect(me.team.name).toBe('Demo Team');
  });

  it.each(SCOPED_CALLS)('%s needs %s', async (_name, scope, call) => {
    const attempts = c.events.length;
    const error = await caught(call(c.client(NOSCOPE_KEY)));
    expectApiError(error, ForbiddenScopeError, 'forbidden_scope', 403);
    expect(error.message).toContain(scope);
    expect(c.events.length - attempts).toBe(1);
    // The core names the missing scope from the endpoint, without parsing the message.
    expect(describeApiError(error)).toContain(`\`${scope}\``);
  });

  it('the table covers every client method and every scope', () => {
    const api = c.client();
    const resources = [
      'credits',
      'videos',
      'renders',
      'series',
      'posts',
      'accounts',
      'voices',
      'options',
      'assets',
    ];
    const methods = [...resources, 'analytics'].flatMap((r) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(api[r as keyof VideoApiClient]))
        .filter((m) => m !== 'constructor')
        .map((m) => `${r}.${m}`),
    );
    expect(SCOPED_CALLS.map(([name]) => name).sort()).toEqual(methods.sort());
    expect(new Set(SCOPED_CALLS.map(([, scope]) => scope))).toEqual(new Set(SCOPES));
  });

  it('a read-only key reads but cannot write', async () => {
    const api = c.client(READONLY_KEY);
    expect((await api.videos.list()).items).toEqual([]);
    const error = await caught(api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, idem));
    expectApiError(error, ForbiddenScopeError, 'forbidden_scope', 403);
    expect(error.message).toContain('videos:write');
    expect(c.run.sim.ledger(DEMO_KEY).filter((e) => e.type === 'spending')).toEqual([]);
  });
});

describe('insufficient_credits (402): nothing charged or created, not retried', () => {
  it('POST /videos over the balance', async () => {
    const api = c.client(POOR_KEY);
    const ledger = c.run.sim.ledger(POOR_KEY);
    const attempts = c.events.length;
    const error = await caught(
      api.videos.create(
        { script: SCRIPT, voiceId: 'voice_aria_en', model: 'motion_lite' },
        { idempotencyKey: 'p1' },
      ),
    );
    expectApiError(error, InsufficientCreditsError, 'insufficient_credits', 402);
    expect(c.events.length - attempts).toBe(1);
    expect(c.run.sim.ledger(POOR_KEY)).toEqual(ledger);
    expect(c.run.sim.balance(POOR_KEY)).toBe(30);
    expect((await api.videos.list()).pagination.total).toBe(0);
    expect(describeApiError(error, { cost: 50, balance: 30 })).toContain('costs 50');
    // A refusal is not stored for replay: the same key goes through once the team can pay.
    const ok = await api.videos.create(
      { script: SCRIPT, voiceId: 'voice_aria_en', model: 'storyboard' },
      { idempotencyKey: 'p2' },
    );
    expect(ok.creditsUsed).toBe(20);
    expect(c.run.sim.balance(POOR_KEY)).toBe(10);
  });

  it('POST /series/{id}/generate when the team cannot pay for the episode', async () => {
    const api = c.client(POOR_KEY);
    const { id } = await api.series.create({ name: 'Cheap', source: 'ai_story' }, { idempotencyKey: 's1' });
    expect(c.run.sim.balance(POOR_KEY)).toBe(10);
    const ledger = c.run.sim.ledger(POOR_KEY);
    const error = await caught(api.series.generate(id, { idempotencyKey: 'g1' }));
    expectApiError(error, InsufficientCreditsError, 'insufficient_credits', 402);
    expect(c.run.sim.ledger(POOR_KEY)).toEqual(ledger);
    expect((await api.series.episodes(id)).pagination.total).toBe(1);
    expect((await api.videos.list()).pagination.total).toBe(1);
  });
});

describe('usage_limit_reached (403): the plan cap on video projects', () => {
  it('the second project is refused, charged nothing; deleting one frees the slot', async () => {
    const api = c.client(CAPPED_KEY);
    const first = await completedVideo(c, api);
    const ledger = c.run.sim.ledger(CAPPED_KEY);
    const attempts = c.events.length;
    const error = await caught(
      api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, { idempotencyKey: 'c2' }),
    );
    expectApiError(error, UsageLimitReachedError, 'usage_limit_reached', 403);
    expect(c.events.length - attempts).toBe(1);
    expect(c.run.sim.ledger(CAPPED_KEY)).toEqual(ledger);
    const caption = await caught(
      api.videos.caption({ videoUrl: 'https://cdn.example.com/v.mp4' }, { idempotencyKey: 'c3' }),
    );
    expectApiError(caption, UsageLimitReachedError, 'usage_limit_reached', 403);
    expect((await api.videos.list()).items.map((v) => v.id)).toEqual([first.id]);

    await api.videos.delete(first.id);
    const again = await api.videos.create(
      { script: SCRIPT, voiceId: 'voice_aria_en' },
      { idempotencyKey: 'c4' },
    );
    expect(again.id).not.toBe(first.id);
  });
});
