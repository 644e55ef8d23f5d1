import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, parseCli, USAGE } from '../../src/simulator/cli-options.js';
import { Simulator } from '../../src/simulator/index.js';
import {
  createVideo,
  type Harness,
  KEY_A,
  KEY_B,
  MINUTE,
  OTHER_ID,
  renderedVideo,
  SCRIPT,
  SECOND,
  startHarness,
  teamA,
} from './harness.js';

const HEX_ID = /^[0-9a-f]{24}$/;
type Json = Record<string, unknown>;

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ profile: 'real', rateLimits: false });
});
afterEach(() => h.close());

const data = async (method: string, path: string, body?: unknown) => {
  const res = await h.api<Json>(method, path, body === undefined ? {} : { body });
  expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
  return res.json.data;
};
const status = (id: string) => data('GET', `/videos/${id}/status`);

describe('envelope, ids, errors', () => {
  it('carries a top-level requestId on success and error envelopes; pagination has extra fields', async () => {
    const ok = await h.api('GET', '/me');
    expect(ok.json).toMatchObject({ success: true, requestId: expect.any(String) });
    const list = await h.api('GET', '/videos');
    expect(list.json.pagination).toMatchObject({ page: 1, limit: 20, total: 0, pages: 0 });
    const missing = await h.api('GET', '/videos/not-an-id');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      success: false,
      error: { type: 'not_found', message: expect.any(String) },
      requestId: expect.any(String),
    });
    expect((await h.api('GET', `/videos/${OTHER_ID}`)).status).toBe(404);
  });

  it('hands out 24-hex ids for videos, renders, series, episodes, posts and assets', async () => {
    const video = await renderedVideo(h);
    expect(video).toMatch(HEX_ID);
    const render = await data('POST', `/videos/${video}/render`, {});
    expect(render.renderId).toMatch(HEX_ID);
    const series = await data('POST', '/series', { name: 'S', source: 'ai_story' });
    expect(series.id).toMatch(HEX_ID);
    const episodes = (await data('GET', `/series/${series.id}/episodes`)) as unknown as Json[];
    expect(episodes[0]!.id).toMatch(HEX_ID);
    await data('PATCH', `/videos/${video}`, { xPost: { text: 'hi' } });
    const when = new Date(h.clock.now() + 60 * MINUTE).toISOString();
    const task = await data('POST', '/posts/schedule', {
      videoId: video,
      platforms: ['x'],
      scheduledTime: when,
    });
    expect(task.taskId).toMatch(HEX_ID);
    const asset = await data('POST', '/assets', { url: 'https://cdn.test/a.png' });
    expect(asset.id).toMatch(HEX_ID);
  });

  it('answers 429 without Retry-After (the real service documents no rate-limit headers)', async () => {
    const limited = await startHarness({ profile: 'real', teams: [teamA({ credits: 10_000 })] });
    try {
      let last = await limited.api('POST', '/videos', { body: { script: SCRIPT, voiceId: 'voice_aria_en' } });
      for (let i = 0; i < 10; i += 1)
        last = await limited.api('POST', '/videos', { body: { script: SCRIPT, voiceId: 'voice_aria_en' } });
      expect(last.status).toBe(429);
      expect(last.json.error.type).toBe('rate_limited');
      expect(last.headers.get('retry-after')).toBeNull();
    } finally {
      await limited.close();
    }
  });
});

describe('GET /me, /accounts, /voices, /analytics', () => {
  it('GET /me has no team.id, auth.keyPrefix or auth.legacy', async () => {
    const me = (await data('GET', '/me')) as {
      team: Json;
      plan: string;
      auth: Json;
    };
    expect(me.team).toMatchObject({ name: 'Team A', credits: 500 });
    expect(me.team).not.toHaveProperty('id');
    expect(me.auth).toMatchObject({
      via: expect.any(String),
      scopes: expect.arrayContaining(['videos:read']),
    });
    expect(me.auth).not.toHaveProperty('keyPrefix');
    expect(me.auth).not.toHaveProperty('legacy');
    expect(me.plan).toBe('pro');
  });

  it('GET /accounts: older { id, channelName } for youtube and x, newer for the rest; the id posts', async () => {
    const accounts = (await data('GET', '/accounts')) as Record<string, Json[]>;
    expect(accounts.youtube![0]).toMatchObject({ id: 'acc_a_youtube', channelName: 'A on youtube' });
    expect(accounts.youtube![0]).not.toHaveProperty('authId');
    expect(accounts.x![0]).toMatchObject({ id: 'acc_a_x', channelName: 'A on x' });
    expect(accounts.tiktok![0]).toMatchObject({
      authId: 'acc_a_tiktok',
      label: 'A on tiktok',
      isDefault: true,
    });
    const video = await renderedVideo(h);
    const posted = await data('POST', '/posts', {
      videoId: video,
      platform: 'youtube',
      authId: accounts.youtube![0]!.id,
    });
    expect(posted.postUrl).toEqual(expect.any(String));
    expect(h.run.sim.publishedPosts()[0]).toMatchObject({ authId: 'acc_a_youtube' });
  });

  it('GET /voices mixes the full and the short shape with opaque ids that POST /videos accepts unchanged', async () => {
    const voices = (await data('GET', '/voices')) as unknown as Json[];
    const short = voices.filter((v) => !('labels' in v));
    const full = voices.filter((v) => 'labels' in v);
    expect(short.length).toBeGreaterThan(0);
    expect(full.length).toBeGreaterThan(0);
    for (const v of short) expect(v).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    for (const v of voices) expect(v.id).toMatch(/^[a-z_]+:[A-Za-z0-9]{20}$/);
    expect(voices.some((v) => v.isCustom === true)).toBe(true);
    const voiceId = String(voices[1]!.id);
    const created = await h.api<Json>('POST', '/videos', { body: { script: SCRIPT, voiceId } });
    expect(created.status).toBe(201);
    const detail = await data('GET', `/videos/${String(created.json.data.id)}`);
    expect(detail.voiceId).toBe(voiceId);
    // Plain ids of the simulator stay accepted.
    expect(await createVideo(h)).toMatch(HEX_ID);
  });

  it('GET /analytics answers the older shape only: totals{posts, views, likes}, platforms{posts, views}', async () => {
    const video = await renderedVideo(h);
    await data('POST', '/posts', { videoId: video, platform: 'youtube' });
    h.advance(24 * 60 * MINUTE);
    const analytics = await data('GET', '/analytics');
    expect(Object.keys(analytics).sort()).toEqual(['platforms', 'totals']);
    const totals = analytics.totals as Json;
    expect(Object.keys(totals).sort()).toEqual(['likes', 'posts', 'views']);
    expect(totals.posts).toBe(1);
    expect(totals.views).toBeGreaterThan(0);
    const platforms = analytics.platforms as Record<string, Json>;
    expect(platforms.youtube).toEqual({ posts: 1, views: totals.views });
  });
});

describe('videos', () => {
  it('list items: platform "tts", some without thumbnailUrl, extra fields', async () => {
    for (let i = 0; i < 4; i += 1) await createVideo(h);
    h.advance(5 * MINUTE);
    const items = (await data('GET', '/videos')) as unknown as Json[];
    expect(items).toHaveLength(4);
    for (const item of items) {
      expect(item).toMatchObject({
        id: expect.stringMatching(HEX_ID),
        name: expect.any(String),
        platform: 'tts',
      });
      expect(
        Object.keys(item).some(
          (k) =>
            !['id', 'name', 'platform', 'model', 'renderedVideoUrl', 'thumbnailUrl', 'createdAt'].includes(k),
        ),
      ).toBe(true);
    }
    expect(items.filter((i) => 'thumbnailUrl' in i).length).toBeGreaterThan(0);
    expect(items.filter((i) => !('thumbnailUrl' in i)).length).toBeGreaterThan(0);
  });

  it('detail: platform "tts", generation and score as strings, createdAt as a number, extra fields at every level', async () => {
    const id = await createVideo(h);
    h.advance(5 * MINUTE);
    const video = await data('GET', `/videos/${id}`);
    expect(video).toMatchObject({
      id,
      platform: 'tts',
      status: 'completed',
      createdAt: h.clock.now() - 5 * MINUTE,
    });
    expect(video).toHaveProperty('__v');
    const thumbs = video.thumbnails as Json & { variants: Json[] };
    expect(thumbs.generation).toBe('1');
    expect(thumbs).toHaveProperty('engine');
    expect(thumbs.variants).toHaveLength(3);
    for (const v of thumbs.variants) {
      expect(v.score).toMatch(/^\d+$/);
      expect(v).toHaveProperty('width');
    }
  });

  it('status while processing: preview renderedVideoUrl, odd readyForEditing, warnings that are not failures, odd events', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push(await createVideo(h));
    h.advance(60 * SECOND);
    const processing = await Promise.all(ids.map(status));
    for (const s of processing) {
      expect(s.status).toBe('processing');
      expect(s.renderedVideoUrl).toEqual(expect.stringContaining('/media/preview/'));
      expect(['false', 0]).toContain(s.readyForEditing);
      expect(Array.isArray(s.events)).toBe(true);
      expect((s.events as unknown[]).some((e) => typeof e === 'string')).toBe(true);
    }
    expect((await fetch(String(processing[0]!.renderedVideoUrl))).status).toBe(200);
    const warned = processing.filter((s) => (s.errorMessages as string[]).length > 0);
    expect(warned.length).toBeGreaterThan(0);
    for (const s of warned)
      expect((s.errorMessages as string[])[0]).toMatch(/retried|re-synthesized|regenerated/);
    h.advance(60 * SECOND);
    for (const s of warned) {
      const done = await status(String(s.id));
      expect(done.status).toBe('completed');
      expect(done.percentCompleted).toBe(100);
      expect(['true', 1]).toContain(done.readyForEditing);
      expect(done.renderedVideoUrl).toBeNull();
    }
  });

  it.each([
    ['storyboard', 90],
    ['motion_lite', 150],
    ['motion_pro', 240],
  ] as const)('%s: progress stalls and jumps, and completes at the nominal %i s', async (model, seconds) => {
    const start = h.clock.now();
    const id = await createVideo(h, { model });
    const readings: number[] = [];
    for (let t = 3; t < seconds; t += 3) {
      h.advance(3 * SECOND);
      const s = await status(id);
      expect(s.status).toBe('processing');
      readings.push(Number(s.percentCompleted));
    }
    h.clock.set(start + seconds * SECOND - 1);
    expect((await status(id)).status).toBe('processing');
    h.advance(1);
    const done = await status(id);
    expect(done).toMatchObject({ status: 'completed', percentCompleted: 100 });

    const steps = readings.slice(1).map((r, i) => r - readings[i]!);
    expect(steps.every((d) => d >= 0)).toBe(true);
    // a plateau: at least two equal consecutive readings (in fact many), and at least one jump of 20+ points
    expect(steps.filter((d) => d === 0).length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...steps)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...readings)).toBeLessThan(100);
  });

  it('thumbnails stay generating 20–40 s after completion (spec profile: 12 s)', async () => {
    const id = await createVideo(h);
    h.advance(90 * SECOND + 3 * SECOND + 19 * SECOND);
    const thumbs = async () => ((await data('GET', `/videos/${id}`)).thumbnails as Json).status;
    expect(await thumbs()).toBe('generating');
    h.advance(25 * SECOND);
    expect(await thumbs()).toBe('ready');
  });
});

describe('series', () => {
  it('GET answers postingDays as numbers, destinationAccounts per platform, duration as a string', async () => {
    const created = await data('POST', '/series', {
      name: 'Dark Tales',
      source: 'ai_story',
      postingDays: ['monday', 'friday'],
      destinationAccounts: ['acc_a_youtube'],
      duration: 90,
    });
    const series = await data('GET', `/series/${String(created.id)}`);
    expect(series).toMatchObject({
      postingDays: [1, 5],
      destinationAccounts: { youtube: ['acc_a_youtube'] },
      duration: '90',
    });
  });

  it('POST/PATCH accept numbers 0–6, per-platform accounts, a numeric string duration and platformPostTimes', async () => {
    const voices = (await data('GET', '/voices')) as unknown as Json[];
    const created = await data('POST', '/series', {
      name: 'Dark Tales',
      source: 'ai_story',
      voice: voices[0]!.id,
      postingDays: [1, 3],
      destinationAccounts: { youtube: ['acc_a_youtube'], x: ['acc_a_x'] },
      duration: '60',
      platformPostTimes: { youtube: '09:05' },
    });
    const id = String(created.id);
    const series = await data('GET', `/series/${id}`);
    expect(series).toMatchObject({
      voice: voices[0]!.id,
      postingDays: [1, 3],
      destinationAccounts: { youtube: ['acc_a_youtube'], x: ['acc_a_x'] },
      duration: '60',
      autoPostTime: '09:05',
      platformPostTimes: { youtube: '09:05' },
    });
    // Monday 2026-01-05 08:00 UTC: the first episode is for 09:05 the same day.
    const episodes = (await data('GET', `/series/${id}/episodes`)) as unknown as Json[];
    expect(episodes[0]!.scheduledTime).toBe('2026-01-05T09:05:00.000Z');

    const patched = await data('PATCH', `/series/${id}`, { postingDays: [0, 'saturday'], duration: 30 });
    expect(patched).toMatchObject({ postingDays: [0, 6], duration: '30' });
    expect(await data('GET', `/series/${id}`)).toMatchObject({ postingDays: [0, 6], duration: '30' });
  });

  it('refuses bad values of the real forms with a message naming the field', async () => {
    const bad = async (body: Json, field: string) => {
      const res = await h.api('POST', '/series', { body: { name: 'S', source: 'ai_story', ...body } });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toContain(field);
    };
    await bad({ postingDays: [7] }, 'postingDays[0]');
    await bad({ destinationAccounts: { youtube: ['acc_a_x'] } }, 'destinationAccounts.youtube[0]');
    await bad({ duration: '45' }, 'duration');
    await bad({ platformPostTimes: { youtube: '9am' } }, 'platformPostTimes.youtube');
  });
});

describe('payment_failed (knob paymentFailureRate)', () => {
  it('answers 402 payment_failed and charges or creates nothing; 0 (default) never fails', async () => {
    h.run.sim.setKnobs({ paymentFailureRate: 1 });
    const res = await h.api('POST', '/videos', { body: { script: SCRIPT, voiceId: 'voice_aria_en' } });
    expect(res.status).toBe(402);
    expect(res.json.error.type).toBe('payment_failed');
    expect(h.run.sim.balance(KEY_A)).toBe(500);
    expect(h.run.sim.ledger(KEY_A)).toHaveLength(1);
    expect((await data('GET', '/videos')) as unknown as unknown[]).toHaveLength(0);
    h.run.sim.setKnobs({ paymentFailureRate: 0 });
    for (let i = 0; i < 5; i += 1) await createVideo(h);
    expect(h.run.sim.balance(KEY_A)).toBe(400);
  });

  it('insufficient credits stay insufficient_credits', async () => {
    const res = await h.api('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_aria_en', model: 'motion_pro' },
      key: KEY_B,
    });
    expect(res.status).toBe(201);
    const again = await h.api('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_aria_en', model: 'motion_pro' },
      key: KEY_B,
    });
    expect(again.status).toBe(402);
    expect(again.json.error.type).toBe('insufficient_credits');
  });

  it('works in the spec profile too (off by default)', async () => {
    const spec = await startHarness({ paymentFailureRate: 1 });
    try {
      const res = await spec.api('POST', '/videos', { body: { script: SCRIPT, voiceId: 'voice_aria_en' } });
      expect(res.json.error.type).toBe('payment_failed');
      expect(spec.run.sim.balance(KEY_A)).toBe(500);
    } finally {
      await spec.close();
    }
  });
});

describe('choosing the profile', () => {
  it('Simulator takes profile (default spec)', () => {
    expect(new Simulator().profile).toBe('spec');
    expect(new Simulator({ profile: 'real' }).profile).toBe('real');
  });

  it('the same seed gives the same real-profile answers', async () => {
    const other = await startHarness({ profile: 'real', rateLimits: false });
    try {
      const run = async (x: Harness) => {
        const id = await createVideo(x, { model: 'motion_lite' });
        x.advance(70 * SECOND);
        const body = JSON.stringify((await x.api('GET', `/videos/${id}/status`)).json.data);
        return body.replaceAll(x.url.replace('/api/v1', ''), '');
      };
      expect(await run(h)).toBe(await run(other));
    } finally {
      await other.close();
    }
  });

  it('CLI: --profile real or SIM_PROFILE=real; --payment-failure-rate; --help lists them', () => {
    expect(parseCli(['--profile', 'real'], {}).options).toEqual({ profile: 'real' });
    expect(parseCli([], { SIM_PROFILE: 'real' }).options.profile).toBe('real');
    expect(parseCli(['--profile', 'spec'], { SIM_PROFILE: 'real' }).options.profile).toBe('spec');
    expect(parseCli(['--payment-failure-rate', '0.25'], {}).options.paymentFailureRate).toBe(0.25);
    expect(() => parseCli(['--profile', 'fake'], {})).toThrow(CliError);
    expect(() => parseCli(['--payment-failure-rate', '2'], {})).toThrow(CliError);
    expect(USAGE).toContain('--profile spec|real');
    expect(USAGE).toContain('--payment-failure-rate');
  });
});
