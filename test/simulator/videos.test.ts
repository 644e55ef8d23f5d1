/** The simulator's video records: listing them, and GET, PATCH and DELETE of one. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completedVideo, createVideo, type Harness, KEY_B, SCRIPT, SECOND, startHarness } from './harness.js';
import type { VideoDetail, VideoListItem, VideoPatched } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const detail = async (id: string) => (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;

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
