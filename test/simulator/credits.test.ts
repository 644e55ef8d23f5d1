import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createVideo,
  DAY,
  type Harness,
  HOUR,
  KEY_A,
  KEY_B,
  renderedVideo,
  SCRIPT,
  startHarness,
  teamA,
  teamB,
} from './harness.js';
import type { Credits, VideoCreated, VideoListItem } from './wire.js';

let h: Harness;
afterEach(() => h.close());

const body = (extra: Record<string, unknown> = {}) => ({
  script: SCRIPT,
  voiceId: 'voice_aria_en',
  ...extra,
});

describe('credit ledger', () => {
  beforeEach(async () => {
    h = await startHarness({ rateLimits: false });
  });

  it('GET /credits shows the balance and history, spends negative with type spending, newest first', async () => {
    const id = await createVideo(h, { model: 'motion_lite', name: 'Ledger test' });
    const res = await h.api<Credits>('GET', '/credits');
    expect(res.status).toBe(200);
    expect(res.json.data.balance).toBe(450);
    expect(res.json.pagination).toEqual({ page: 1, limit: 20, total: 2 });
    const [spend, grant] = res.json.data.history;
    expect(spend).toEqual({
      id: expect.any(String),
      credits: -50,
      type: 'spending',
      description: expect.stringContaining('Ledger test'),
      createdAt: expect.any(String),
    });
    expect(grant?.credits).toBe(500);
    expect(h.run.sim.chargesFor(id)).toHaveLength(1);
    const me = await h.api<{ team: { credits: number } }>('GET', '/me');
    expect(me.json.data.team.credits).toBe(450);
  });

  it('paginates the history', async () => {
    for (let i = 0; i < 3; i += 1) await createVideo(h);
    const res = await h.api<Credits>('GET', '/credits?page=2&limit=3');
    expect(res.json.data.history).toHaveLength(1);
    expect(res.json.data.history[0]?.type).toBe('subscription_grant');
    expect(res.json.pagination).toEqual({ page: 2, limit: 3, total: 4 });
  });

  it('rendering, publishing, captioning cost nothing', async () => {
    const id = await renderedVideo(h);
    await h.api('POST', '/posts', { body: { videoId: id, platform: 'youtube' } });
    await h.api('POST', '/videos/captions', { body: { audioUrl: 'https://a.test/pod.mp3' } });
    expect(h.run.sim.balance(KEY_A)).toBe(480);
  });
});

describe('402 insufficient_credits', () => {
  beforeEach(async () => {
    h = await startHarness({ teams: [teamA({ credits: 60 }), teamB()] });
  });

  it('refuses a video the team cannot pay for, creating and charging nothing', async () => {
    const before = h.run.sim.ledger('Team A');
    const res = await h.api('POST', '/videos', { body: body({ model: 'motion_pro' }) });
    expect(res.status).toBe(402);
    expect(res.json.error.type).toBe('insufficient_credits');
    expect(res.json.error.message).toMatch(/100/);
    expect(h.run.sim.ledger('Team A')).toEqual(before);
    expect((await h.api<VideoListItem[]>('GET', '/videos')).json.data).toEqual([]);
    expect((await h.api<Credits>('GET', '/credits')).json.data.balance).toBe(60);
  });

  it('succeeds once the balance changes', async () => {
    expect((await h.api('POST', '/videos', { body: body({ model: 'motion_pro' }) })).status).toBe(402);
    h.run.sim.grantCredits('Team A', 100);
    expect((await h.api('POST', '/videos', { body: body({ model: 'motion_pro' }) })).status).toBe(201);
    expect(h.run.sim.balance('Team A')).toBe(60);
  });

  it('charges down to exactly zero', async () => {
    expect((await h.api('POST', '/videos', { body: body({ model: 'motion_lite' }) })).status).toBe(201);
    expect((await h.api('POST', '/videos', { body: body({ model: 'storyboard' }) })).status).toBe(402);
    expect(h.run.sim.balance('Team A')).toBe(10);
  });
});

describe('403 usage_limit_reached (plan cap)', () => {
  beforeEach(async () => {
    h = await startHarness({ teams: [teamA({ projectCap: 2 }), teamB()] });
  });

  it('refuses a new project at the cap, charging nothing; deleting frees a slot', async () => {
    const first = await createVideo(h);
    await h.api('POST', '/videos/captions', { body: { videoUrl: 'https://v.test/a.mp4' } });
    const res = await h.api('POST', '/videos', { body: body() });
    expect(res.status).toBe(403);
    expect(res.json.error.type).toBe('usage_limit_reached');
    expect(h.run.sim.balance('Team A')).toBe(480);
    const captions = await h.api('POST', '/videos/captions', { body: { videoUrl: 'https://v.test/b.mp4' } });
    expect(captions.status).toBe(403);
    await h.api('DELETE', `/videos/${first}`);
    expect((await h.api('POST', '/videos', { body: body() })).status).toBe(201);
  });
});

describe('idempotency', () => {
  beforeEach(async () => {
    h = await startHarness({ rateLimits: false });
  });

  it('replays the stored response (status included) without re-running or charging twice', async () => {
    const headers = { 'idempotency-key': 'create-1' };
    const first = await h.api<VideoCreated>('POST', '/videos', { body: body(), headers });
    h.advance(HOUR);
    const second = await h.api<VideoCreated>('POST', '/videos', { body: body(), headers });
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(h.run.sim.chargesFor(first.json.data.id)).toHaveLength(1);
    expect(h.run.sim.balance('Team A')).toBe(480);
    expect((await h.api<VideoListItem[]>('GET', '/videos')).json.data).toHaveLength(1);
  });

  it('treats the same JSON with keys in another order as the same body', async () => {
    const headers = { 'idempotency-key': 'order' };
    await h.api('POST', '/videos', {
      raw: JSON.stringify({ script: SCRIPT, voiceId: 'voice_aria_en' }),
      headers,
    });
    const again = await h.api('POST', '/videos', {
      raw: JSON.stringify({ voiceId: 'voice_aria_en', script: SCRIPT }),
      headers,
    });
    expect(again.status).toBe(201);
    expect(h.run.sim.balance('Team A')).toBe(480);
  });

  it('409 conflict for the same key with a different body, nothing charged', async () => {
    const headers = { 'idempotency-key': 'create-2' };
    await h.api('POST', '/videos', { body: body(), headers });
    const res = await h.api('POST', '/videos', { body: body({ model: 'motion_pro' }), headers });
    expect(res.status).toBe(409);
    expect(res.json.error.type).toBe('conflict');
    expect(h.run.sim.balance('Team A')).toBe(480);
  });

  it('409 for the same key on another endpoint', async () => {
    const headers = { 'idempotency-key': 'shared' };
    await h.api('POST', '/videos', { body: body(), headers });
    const res = await h.api('POST', '/assets', { body: { url: 'https://a.test/x.png' }, headers });
    expect(res.status).toBe(409);
  });

  it('keys are scoped per API key: another team’s identical key runs its own operation', async () => {
    const headers = { 'idempotency-key': 'same-key' };
    const a = await h.api<VideoCreated>('POST', '/videos', { body: body(), headers });
    const b = await h.api<VideoCreated>('POST', '/videos', { body: body(), headers, key: KEY_B });
    expect(b.status).toBe(201);
    expect(b.json.data.id).not.toBe(a.json.data.id);
    expect(h.run.sim.balance(KEY_B)).toBe(80);
  });

  it('expires after 24 hours: the same key then runs again', async () => {
    const headers = { 'idempotency-key': 'day-old' };
    await h.api('POST', '/videos', { body: body(), headers });
    h.advance(DAY + 1);
    const res = await h.api('POST', '/videos', { body: body(), headers });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(h.run.sim.balance('Team A')).toBe(460);
  });

  it('does not store failures: a retry after 402 runs again', async () => {
    await h.close();
    h = await startHarness({ teams: [teamA({ credits: 10 })] });
    const headers = { 'idempotency-key': 'broke' };
    expect((await h.api('POST', '/videos', { body: body(), headers })).status).toBe(402);
    h.run.sim.grantCredits('Team A', 50);
    expect((await h.api('POST', '/videos', { body: body(), headers })).status).toBe(201);
  });

  it('covers render, posts, schedule, series, generate, captions and assets', async () => {
    const video = await renderedVideo(h);
    await h.api('PATCH', `/videos/${video}`, { body: { xPost: { text: 'hi' } } });
    const calls: [string, unknown][] = [
      [`/videos/${video}/render`, {}],
      ['/posts', { videoId: video, platform: 'x' }],
      [
        '/posts/schedule',
        { videoId: video, platforms: ['x'], scheduledTime: new Date(h.clock.now() + DAY).toISOString() },
      ],
      ['/series', { name: 'S', source: 'ai_story' }],
      ['/videos/captions', { videoUrl: 'https://v.test/c.mp4' }],
      ['/assets', { url: 'https://a.test/i.png' }],
    ];
    for (const [path, payload] of calls) {
      const headers = { 'idempotency-key': `k-${path}` };
      const first = await h.api('POST', path, { body: payload, headers });
      const second = await h.api('POST', path, { body: payload, headers });
      expect(first.status, path).toBeLessThan(300);
      expect(second.status, path).toBe(first.status);
      expect(second.json, path).toEqual(first.json);
      expect(second.headers.get('idempotent-replayed'), path).toBe('true');
    }
    const series = await h.api<{ id: string }[]>('GET', '/series');
    expect(series.json.data).toHaveLength(1);
    const balance = h.run.sim.balance('Team A');
    const headers = { 'idempotency-key': 'gen' };
    const g1 = await h.api('POST', `/series/${series.json.data[0]?.id}/generate`, { headers });
    const g2 = await h.api('POST', `/series/${series.json.data[0]?.id}/generate`, { headers });
    expect(g2.json).toEqual(g1.json);
    expect(h.run.sim.balance('Team A')).toBe(balance - 20);
    expect(h.run.sim.publishedPosts()).toHaveLength(1);
  });
});
