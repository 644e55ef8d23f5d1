import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createVideo,
  type Harness,
  KEY_A,
  KEY_A_READONLY,
  KEY_B,
  OTHER_ID,
  startHarness,
} from './harness.js';
import type { Me } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

const ALL_SCOPES = [
  'credits:read',
  'videos:read',
  'videos:write',
  'series:read',
  'series:write',
  'posts:read',
  'posts:write',
  'accounts:read',
  'catalog:read',
  'assets:write',
  'analytics:read',
];

describe('authentication (401 unauthorized)', () => {
  it.each([
    ['no key at all', {}],
    ['a Bearer header without a key', { authorization: 'Bearer ' }],
    ['another auth scheme', { authorization: `Basic ${KEY_A}` }],
    ['an unknown Bearer key', { authorization: 'Bearer fl_live_nope' }],
    ['an unknown X-API-Key', { 'x-api-key': 'fl_live_nope' }],
    ['an empty X-API-Key', { 'x-api-key': '' }],
  ])('rejects %s', async (_label, headers) => {
    const res = await h.api('GET', '/me', { key: null, headers });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      success: false,
      error: { type: 'unauthorized', message: expect.any(String) },
    });
    expect(res.json.error.message).not.toContain('fl_live_nope');
  });

  it('accepts the key as Authorization: Bearer and as X-API-Key', async () => {
    const bearer = await h.api<Me>('GET', '/me', {
      key: null,
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    const header = await h.api<Me>('GET', '/me', { key: null, headers: { 'x-api-key': KEY_A } });
    expect(bearer.status).toBe(200);
    expect(header.status).toBe(200);
    expect(header.json.data).toEqual(bearer.json.data);
  });

  it('rejects a revoked key', async () => {
    h.run.sim.revokeKey(KEY_A);
    expect((await h.api('GET', '/me')).status).toBe(401);
  });
});

describe('GET /me', () => {
  it('reports the seeded team, credits, plan and the key scopes', async () => {
    const res = await h.api<Me>('GET', '/me');
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(res.json.data).toEqual({
      team: { id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'Team A', credits: 500 },
      plan: 'pro',
      auth: { via: 'api_key', keyPrefix: KEY_A.slice(0, 12), scopes: ALL_SCOPES, legacy: false },
    });
  });

  it('needs no scope and shows a restricted key its own scopes', async () => {
    const res = await h.api<Me>('GET', '/me', { key: KEY_A_READONLY });
    expect(res.status).toBe(200);
    expect(res.json.data.auth.scopes).toEqual(['videos:read']);
    expect(res.json.data.team.name).toBe('Team A');
  });
});

describe('scopes (403 forbidden_scope)', () => {
  it.each([
    ['POST', '/videos', 'videos:write'],
    ['GET', '/credits', 'credits:read'],
    ['GET', '/series', 'series:read'],
    ['POST', '/series', 'series:write'],
    ['GET', '/calendar?startDate=2026-01-01&endDate=2026-01-31', 'posts:read'],
    ['POST', '/posts', 'posts:write'],
    ['GET', '/accounts', 'accounts:read'],
    ['GET', '/voices', 'catalog:read'],
    ['POST', '/assets', 'assets:write'],
    ['GET', '/analytics', 'analytics:read'],
  ])('%s %s names the missing scope %s', async (method, path, scope) => {
    const res = await h.api(method, path, { key: KEY_A_READONLY, body: {} });
    expect(res.status).toBe(403);
    expect(res.json.error.type).toBe('forbidden_scope');
    expect(res.json.error.message).toContain(scope);
  });

  it('lets the key do what its scope allows', async () => {
    expect((await h.api('GET', '/videos', { key: KEY_A_READONLY })).status).toBe(200);
  });
});

describe('404 not_found', () => {
  it('for unknown paths, inside and outside /api/v1', async () => {
    for (const path of ['/nope', '/videos/abc/def/ghi']) {
      const res = await h.api('GET', path);
      expect(res.status).toBe(404);
      expect(res.json.error.type).toBe('not_found');
    }
    const outside = await fetch(h.url.replace('/api/v1', '/elsewhere'));
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { error: { type: string } }).error.type).toBe('not_found');
  });

  it('for malformed ids, unknown ids and another team’s resources, on every id route', async () => {
    const own = await createVideo(h);
    const theirs = await createVideo(h, {}, KEY_B);
    for (const id of ['abc', 'ZZZZZZZZZZZZZZZZZZZZZZZZ', `${own}0`, OTHER_ID, theirs]) {
      for (const [method, path] of [
        ['GET', `/videos/${id}`],
        ['GET', `/videos/${id}/status`],
        ['PATCH', `/videos/${id}`],
        ['DELETE', `/videos/${id}`],
        ['POST', `/videos/${id}/thumbnail`],
        ['POST', `/videos/${id}/render`],
        ['GET', `/renders/${id}`],
        ['GET', `/series/${id}`],
        ['GET', `/series/${id}/episodes`],
        ['DELETE', `/posts/${id}`],
      ] as const) {
        const body = path.endsWith('/thumbnail') ? { variantId: 'x' } : {};
        const res = await h.api(method, path, { body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.json.error.type).toBe('not_found');
      }
    }
    // The owner still sees it.
    expect((await h.api('GET', `/videos/${theirs}`, { key: KEY_B })).status).toBe(200);
  });

  it('for another team’s video referenced in a body', async () => {
    const theirs = await createVideo(h, {}, KEY_B);
    const res = await h.api('POST', '/posts', { body: { videoId: theirs, platform: 'youtube' } });
    expect(res.status).toBe(404);
  });
});

describe('405 for a wrong method on a known path', () => {
  it.each([
    ['DELETE', '/videos', 'GET, POST'],
    ['PUT', '/me', 'GET'],
    ['GET', '/videos/captions', 'POST'],
    ['POST', '/calendar', 'GET'],
    ['GET', '/posts/schedule', 'POST'],
  ])('%s %s', async (method, path, allowed) => {
    const res = await h.api(method, path);
    expect(res.status).toBe(405);
    expect(res.json.error.type).toBe('invalid_input');
    expect(res.json.error.message).toContain(method);
    expect(res.headers.get('allow')?.split(', ').sort().join(', ')).toBe(allowed);
  });
});

describe('5xx knob', () => {
  it('answers 500 internal_error at the configured rate and changes nothing', async () => {
    h.run.sim.setKnobs({ serverErrorRate: 1 });
    const res = await h.api('POST', '/videos', {
      body: { script: 'x'.repeat(20), voiceId: 'voice_aria_en' },
    });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({
      success: false,
      error: { type: 'internal_error', message: expect.any(String) },
    });
    h.run.sim.setKnobs({ serverErrorRate: 0 });
    expect(h.run.sim.balance(KEY_A)).toBe(500);
    expect((await h.api<unknown[]>('GET', '/videos')).json.data).toEqual([]);
  });

  it('hits roughly the configured share of requests', async () => {
    h.run.sim.setKnobs({ serverErrorRate: 0.5 });
    let failures = 0;
    for (let i = 0; i < 60; i += 1) if ((await h.api('GET', '/me')).status === 500) failures += 1;
    expect(failures).toBeGreaterThan(15);
    expect(failures).toBeLessThan(45);
  });
});

describe('infrastructure endpoints', () => {
  it('GET /healthz answers 200 without a key', async () => {
    const res = await fetch(h.url.replace('/api/v1', '/healthz'));
    expect(res.status).toBe(200);
  });

  it('adds a request id and JSON content type to API responses', async () => {
    const res = await h.api('GET', '/me');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
