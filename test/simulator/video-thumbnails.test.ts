/** The simulator's thumbnails of a generated video. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completedVideo, createVideo, type Harness, MINUTE, SECOND, startHarness } from './harness.js';
import type { VideoDetail, VideoListItem } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const detail = async (id: string) => (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;

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
