import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completedVideo,
  createVideo,
  type Harness,
  KEY_B,
  MINUTE,
  renderedVideo,
  SCRIPT,
  SECOND,
  startHarness,
} from './harness.js';
import type {
  Render,
  RenderStarted,
  VideoCreated,
  VideoDetail,
  VideoListItem,
  VideoPatched,
  VideoStatus,
} from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const status = async (id: string) => (await h.api<VideoStatus>('GET', `/videos/${id}/status`)).json.data;
const detail = async (id: string) => (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;

describe('POST /videos', () => {
  it('creates a processing video, charges the model cost and answers 201', async () => {
    const res = await h.api<VideoCreated>('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_aria_en', model: 'motion_lite', name: 'Moon' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Moon',
      model: 'motion_lite',
      status: 'processing',
      creditsUsed: 50,
      statusUrl: `/api/v1/videos/${res.json.data.id}/status`,
    });
    expect(h.run.sim.balance('Team A')).toBe(450);
  });

  it.each([
    ['storyboard', 20],
    ['motion_lite', 50],
    ['motion_pro', 100],
  ])('%s costs %i credits', async (model, credits) => {
    const id = await createVideo(h, { model });
    expect(h.run.sim.chargesFor(id).map((c) => c.credits)).toEqual([-credits]);
  });

  it('defaults to storyboard', async () => {
    const res = await h.api<VideoCreated>('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_aria_en' },
    });
    expect(res.json.data.model).toBe('storyboard');
    expect(res.json.data.creditsUsed).toBe(20);
  });

  it('accepts the team’s custom voice', async () => {
    const voices = await h.api<{ id: string; isCustom: boolean }[]>('GET', '/voices');
    const custom = voices.json.data.find((v) => v.isCustom);
    expect(custom).toBeDefined();
    expect((await h.api('POST', '/videos', { body: { script: SCRIPT, voiceId: custom?.id } })).status).toBe(
      201,
    );
  });
});

describe('generation in simulated time', () => {
  it('storyboard: processing with rising percentCompleted, then completed at ~90 s', async () => {
    const id = await createVideo(h);
    const first = await status(id);
    expect(first).toMatchObject({
      id,
      status: 'processing',
      readyForEditing: false,
      errorMessages: [],
      renderedVideoUrl: null,
    });
    const seen: number[] = [first.percentCompleted];
    for (let i = 0; i < 8; i += 1) {
      h.advance(10 * SECOND);
      const s = await status(id);
      expect(s.status).toBe('processing');
      seen.push(s.percentCompleted);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThan(seen[0]!);
    expect(seen.at(-1)).toBeLessThan(100);
    h.advance(10 * SECOND);
    expect(await status(id)).toMatchObject({
      status: 'completed',
      percentCompleted: 100,
      readyForEditing: true,
    });
  });

  it.each([
    ['motion_lite', 150],
    ['motion_pro', 240],
  ])('%s takes about %i s', async (model, seconds) => {
    const id = await createVideo(h, { model });
    h.advance((seconds - 5) * SECOND);
    expect((await status(id)).status).toBe('processing');
    h.advance(10 * SECOND);
    expect((await status(id)).status).toBe('completed');
  });

  it('speed divides durations', async () => {
    h.run.sim.setKnobs({ speed: 60 });
    const id = await createVideo(h);
    h.advance(2 * SECOND);
    expect((await status(id)).status).toBe('completed');
  });

  it('fails with errorMessages (HTTP 200) per the failure-rate knob, with no refund', async () => {
    h.run.sim.setKnobs({ generationFailureRate: 1 });
    const id = await createVideo(h);
    h.advance(2 * MINUTE);
    const res = await h.api<VideoStatus>('GET', `/videos/${id}/status`);
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe('failed');
    expect(res.json.data.errorMessages.length).toBeGreaterThan(0);
    expect(res.json.data.percentCompleted).toBeLessThan(100);
    expect(res.json.data.readyForEditing).toBe(false);
    expect(h.run.sim.balance('Team A')).toBe(480);
    expect((await detail(id)).thumbnails.status).toBe('idle');
  });

  it('captions: free, 201, completes in about 60 s', async () => {
    const res = await h.api<{ id: string; status: string; statusUrl: string }>('POST', '/videos/captions', {
      body: { videoUrl: 'https://media.example/clips/interview.mp4', language: 'en' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.any(String),
      status: 'processing',
      statusUrl: `/api/v1/videos/${res.json.data.id}/status`,
    });
    expect(h.run.sim.balance('Team A')).toBe(500);
    h.advance(61 * SECOND);
    expect((await status(res.json.data.id)).status).toBe('completed');
    expect((await detail(res.json.data.id)).name).toBe('interview.mp4');
  });
});

describe('thumbnails', () => {
  it('idle while generating, then queued → generating → ready with three variants, best selected by ai', async () => {
    const id = await createVideo(h);
    expect((await detail(id)).thumbnails).toMatchObject({ status: 'idle', variants: [] });
    h.advance(90 * SECOND);
    expect((await detail(id)).thumbnails.status).toBe('queued');
    h.advance(4 * SECOND);
    expect((await detail(id)).thumbnails.status).toBe('generating');
    h.advance(15 * SECOND);
    const video = await detail(id);
    const t = video.thumbnails;
    expect(t.status).toBe('ready');
    expect(t.generation).toBe(1);
    expect(t.aspect).toBe('9:16');
    expect(t.variants).toHaveLength(3);
    for (const v of t.variants) {
      expect(v).toEqual({
        id: expect.any(String),
        url: expect.stringMatching(/\/media\/thumb\/[0-9a-f]{24}\/\d+\.svg$/),
        hookText: expect.any(String),
        source: 'ai',
        score: expect.any(Number),
        grade: expect.any(String),
      });
    }
    const best = [...t.variants].sort((a, b) => b.score - a.score)[0]!;
    expect(t.selectedVariantId).toBe(best.id);
    expect(t.selectedBy).toBe('ai');
    expect(video.thumbnailUrl).toBe(best.url);
  });

  it('serves the thumbnail and b-roll URLs as SVG images without a key', async () => {
    const id = await completedVideo(h);
    const video = await detail(id);
    const thumb = await fetch(video.thumbnails.variants[0]!.url);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await thumb.text();
    expect(svg).toContain('<svg');
    expect(svg).toContain('linearGradient');
    const fresh = await createVideo(h);
    const list = await h.api<VideoListItem[]>('GET', '/videos');
    const broll = list.json.data.find((v) => v.id === fresh)!.thumbnailUrl;
    expect(broll).toMatch(/\/media\/broll\//);
    expect((await fetch(broll)).status).toBe(200);
    expect((await fetch(broll.replace(fresh, 'f'.repeat(24)))).status).toBe(404);
  });

  it('a user pick sets selectedBy user and survives automatic regeneration', async () => {
    const id = await completedVideo(h);
    const before = (await detail(id)).thumbnails;
    const pick = before.variants.find((v) => v.id !== before.selectedVariantId)!;
    const res = await h.api<{
      id: string;
      thumbnailUrl: string;
      thumbnails: { selectedBy: string; selectedVariantId: string; variants: string[]; status: string };
    }>('POST', `/videos/${id}/thumbnail`, { body: { variantId: pick.id } });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      id,
      thumbnailUrl: pick.url,
      thumbnails: {
        status: 'ready',
        selectedVariantId: pick.id,
        selectedBy: 'user',
        variants: before.variants.map((v) => v.url),
      },
    });
    h.run.sim.regenerateThumbnails(id);
    h.advance(MINUTE);
    const after = (await detail(id)).thumbnails;
    expect(after.generation).toBe(2);
    expect(after.selectedBy).toBe('user');
    expect(after.selectedVariantId).toBe(pick.id);
    expect(after.variants.map((v) => v.id)).toContain(pick.id);
    expect(after.variants).toHaveLength(3);
  });

  it('an ai pick is replaced by regeneration', async () => {
    const id = await completedVideo(h);
    const before = (await detail(id)).thumbnails;
    h.run.sim.regenerateThumbnails(id);
    h.advance(MINUTE);
    const after = (await detail(id)).thumbnails;
    expect(after.selectedBy).toBe('ai');
    expect(after.selectedVariantId).not.toBe(before.selectedVariantId);
  });

  it('rejects a variant that does not exist', async () => {
    const id = await completedVideo(h);
    const res = await h.api('POST', `/videos/${id}/thumbnail`, { body: { variantId: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('variantId');
  });

  it('failed (all variants lost) leaves the video completed and falls back to the b-roll frame', async () => {
    h.run.sim.setKnobs({ thumbnailFailureRate: 1 });
    const id = await completedVideo(h);
    const video = await detail(id);
    expect(video.status).toBe('completed');
    expect(video.thumbnails.status).toBe('failed');
    expect(video.thumbnails.variants).toEqual([]);
    expect(video.thumbnailUrl).toMatch(/\/media\/broll\//);
  });

  it('partial when one or two variants survive', async () => {
    h.run.sim.setKnobs({ thumbnailFailureRate: 0.5 });
    const seen = new Map<string, number[]>();
    for (let i = 0; i < 12; i += 1) {
      const id = await createVideo(h);
      h.advance(3 * MINUTE);
      const t = (await detail(id)).thumbnails;
      seen.set(t.status, [...(seen.get(t.status) ?? []), t.variants.length]);
    }
    expect(seen.get('partial')?.length).toBeGreaterThan(0);
    for (const n of seen.get('partial') ?? []) expect([1, 2]).toContain(n);
    for (const n of seen.get('ready') ?? []) expect(n).toBe(3);
  });
});

describe('renders', () => {
  it('requires generation completed (invalid_input naming the status)', async () => {
    const id = await createVideo(h);
    const res = await h.api('POST', `/videos/${id}/render`, { body: {} });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('invalid_input');
    expect(res.json.error.message).toContain('processing');
  });

  it('202, in-progress with rising overallProgress, then done with an .mp4 url in ~45 s', async () => {
    const id = await completedVideo(h);
    const start = await h.api<RenderStarted>('POST', `/videos/${id}/render`, { body: { codec: 'vp8' } });
    expect(start.status).toBe(202);
    const { renderId, statusUrl } = start.json.data;
    expect(renderId).toMatch(/^[0-9a-f]{24}$/);
    expect(statusUrl).toBe(`/api/v1/renders/${renderId}`);
    const get = async () => (await h.api<Render>('GET', `/renders/${renderId}`)).json.data;
    const r0 = await get();
    expect(r0).toMatchObject({ renderId, status: 'in-progress' });
    expect(r0.url).toBeUndefined();
    h.advance(20 * SECOND);
    const r1 = await get();
    expect(r1.overallProgress).toBeGreaterThan(r0.overallProgress);
    expect(r1.overallProgress).toBeLessThan(1);
    h.advance(30 * SECOND);
    const done = await get();
    expect(done).toMatchObject({ status: 'done', overallProgress: 1, url: expect.stringMatching(/\.mp4$/) });
    expect((await status(id)).renderedVideoUrl).toBe(done.url);
    expect((await detail(id)).renderedVideoUrl).toBe(done.url);
    expect((await fetch(done.url!)).status).toBe(200);
  });

  it('fails as status error (HTTP 200) per the knob', async () => {
    h.run.sim.setKnobs({ renderFailureRate: 1 });
    const id = await completedVideo(h);
    const start = await h.api<RenderStarted>('POST', `/videos/${id}/render`, { body: {} });
    h.advance(MINUTE);
    const res = await h.api<Render>('GET', `/renders/${start.json.data.renderId}`);
    expect(res.status).toBe(200);
    expect(res.json.data.status).toBe('error');
    expect(res.json.data.url).toBeUndefined();
    expect((await status(id)).renderedVideoUrl).toBeNull();
  });

  it('renders are free', async () => {
    await renderedVideo(h);
    expect(h.run.sim.balance('Team A')).toBe(480);
  });
});

describe('GET /videos', () => {
  it('lists newest first with list-item fields only and pagination', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(await createVideo(h, { name: `Video ${i}` }));
      h.advance(SECOND);
    }
    const res = await h.api<VideoListItem[]>('GET', '/videos');
    expect(res.json.data.map((v) => v.id)).toEqual([...ids].reverse());
    expect(res.json.pagination).toEqual({ page: 1, limit: 20, total: 3 });
    expect(Object.keys(res.json.data[0]!).sort()).toEqual(
      ['createdAt', 'id', 'model', 'name', 'platform', 'renderedVideoUrl', 'thumbnailUrl'].sort(),
    );
    const page2 = await h.api<VideoListItem[]>('GET', '/videos?page=2&limit=2');
    expect(page2.json.data.map((v) => v.id)).toEqual([ids[0]]);
    expect(page2.json.pagination).toEqual({ page: 2, limit: 2, total: 3 });
  });

  it('uses the effective thumbnail, falling back to a b-roll frame', async () => {
    const done = await completedVideo(h);
    const fresh = await createVideo(h);
    const list = (await h.api<VideoListItem[]>('GET', '/videos')).json.data;
    const selected = (await detail(done)).thumbnailUrl;
    expect(list.find((v) => v.id === done)?.thumbnailUrl).toBe(selected);
    expect(selected).toMatch(/\/media\/thumb\//);
    expect(list.find((v) => v.id === fresh)?.thumbnailUrl).toMatch(/\/media\/broll\//);
  });

  it('archived=true lists only archived videos, otherwise they are hidden', async () => {
    const kept = await createVideo(h);
    const archived = await createVideo(h);
    h.run.sim.archiveVideo(archived);
    const active = await h.api<VideoListItem[]>('GET', '/videos');
    expect(active.json.data.map((v) => v.id)).toEqual([kept]);
    const onlyArchived = await h.api<VideoListItem[]>('GET', '/videos?archived=true');
    expect(onlyArchived.json.data.map((v) => v.id)).toEqual([archived]);
    expect((await h.api('GET', '/videos?archived=maybe')).status).toBe(400);
  });

  it('shows only the caller’s team', async () => {
    await createVideo(h, {}, KEY_B);
    expect((await h.api<VideoListItem[]>('GET', '/videos')).json.data).toEqual([]);
  });
});

describe('GET, PATCH and DELETE /videos/{id}', () => {
  it('GET returns the full video', async () => {
    const id = await createVideo(h, { model: 'motion_pro', name: 'Full', style: 'anime' });
    const video = await detail(id);
    expect(video).toMatchObject({
      id,
      name: 'Full',
      model: 'motion_pro',
      script: SCRIPT,
      voiceId: 'voice_aria_en',
      status: 'processing',
      renderedVideoUrl: null,
      thumbnailUrl: expect.any(String),
      thumbnails: { status: 'idle', variants: [] },
      createdAt: new Date(h.clock.now()).toISOString(),
    });
  });

  it('PATCH stores name and blocks and answers with variants as URL strings', async () => {
    const id = await completedVideo(h);
    const res = await h.api<VideoPatched>('PATCH', `/videos/${id}`, {
      body: {
        name: 'Renamed',
        youtubePost: { title: 'YT title', description: 'desc' },
        tiktokPost: { title: 'tt' },
      },
    });
    expect(res.status).toBe(200);
    const t = (await detail(id)).thumbnails;
    expect(res.json.data).toEqual({
      id,
      name: 'Renamed',
      youtubePost: { title: 'YT title', description: 'desc', privacyStatus: 'public' },
      tiktokPost: { title: 'tt' },
      thumbnailUrl: expect.any(String),
      thumbnails: {
        status: 'ready',
        selectedVariantId: t.selectedVariantId,
        selectedBy: 'ai',
        variants: t.variants.map((v) => v.url),
      },
    });
    const video = await detail(id);
    expect(video.name).toBe('Renamed');
    expect(video.youtubePost).toEqual({ title: 'YT title', description: 'desc', privacyStatus: 'public' });
    // Only sent blocks change.
    await h.api('PATCH', `/videos/${id}`, { body: { xPost: { text: 'hello' } } });
    const again = await detail(id);
    expect(again.youtubePost?.title).toBe('YT title');
    expect(again.xPost).toEqual({ text: 'hello' });
  });

  it('DELETE removes the video without a refund; it is then not found', async () => {
    const id = await createVideo(h);
    const res = await h.api('DELETE', `/videos/${id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ deleted: true });
    expect((await h.api('GET', `/videos/${id}`)).status).toBe(404);
    expect(h.run.sim.balance('Team A')).toBe(480);
    expect((await h.api('DELETE', `/videos/${id}`)).status).toBe(404);
  });
});
