import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Contract,
  DAY,
  DEMO_KEY,
  GENERATION_MS,
  HOUR,
  MINUTE,
  RENDER_MS,
  startContract,
  T0,
} from './support.js';

let c: Contract;
beforeEach(async () => {
  c = await startContract();
});
afterEach(async () => {
  await c.close();
});

const MONDAY_9 = Date.UTC(2026, 0, 5, 9, 0, 0);
const WEDNESDAY_9 = Date.UTC(2026, 0, 7, 9, 0, 0);

const spends = () => c.run.sim.ledger(DEMO_KEY).filter((e) => e.type === 'spending');

describe('series CRUD', () => {
  it('create → list → get → patch → delete, mapped both ways', async () => {
    const api = c.client();
    const created = await api.series.create(
      {
        name: 'Deep Sea Facts',
        source: 'ai_story',
        niche: 'science',
        voice: 'voice_oliver_en',
        duration: 30,
        postingDays: ['monday', 'wednesday'],
        autoPostTime: '09:00',
        timezone: 'UTC',
        brollModel: 'storyboard',
        destination: 'youtube',
        destinationAccounts: ['acc_demo_youtube'],
        hashtags: '#ocean',
        youtubePrivacyStatus: 'unlisted',
        thumbnailSettings: { style: 'bold' },
      },
      c.idem('series'),
    );
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Deep Sea Facts',
      source: 'ai_story',
      niche: 'science',
      createdAt: new Date(T0).toISOString(),
    });

    expect(await api.series.list()).toEqual([
      { id: created.id, name: 'Deep Sea Facts', source: 'ai_story', niche: 'science', paused: false },
    ]);

    const series = await api.series.get(created.id);
    expect(series).toEqual({
      id: created.id,
      name: 'Deep Sea Facts',
      source: 'ai_story',
      niche: 'science',
      paused: false,
      createdAt: new Date(T0).toISOString(),
      voice: 'voice_oliver_en',
      duration: 30,
      postingDays: ['monday', 'wednesday'],
      autoPostTime: '09:00',
      timezone: 'UTC',
      brollModel: 'storyboard',
      destination: 'youtube',
      destinationAccounts: ['acc_demo_youtube'],
      hashtags: '#ocean',
      youtubePrivacyStatus: 'unlisted',
      generateThumbnails: true,
      // Read back for `series show`, as sent.
      thumbnailSettings: { style: 'bold' },
    });

    const patched = await api.series.update(created.id, { paused: true, autoPostTime: '18:30' });
    expect(patched).toMatchObject({
      id: created.id,
      name: 'Deep Sea Facts',
      paused: true,
      autoPostTime: '18:30',
    });
    const after = await api.series.get(created.id);
    expect(after).toMatchObject({
      paused: true,
      autoPostTime: '18:30',
      voice: 'voice_oliver_en',
      duration: 30,
    });
    expect((await api.series.list())[0]?.paused).toBe(true);

    expect(await api.series.delete(created.id)).toEqual({ deleted: true });
    await expect(api.series.get(created.id)).rejects.toMatchObject({ type: 'not_found' });
    expect(await api.series.list()).toEqual([]);
  });

  it('defaults the simulator applies are readable through the client', async () => {
    const api = c.client();
    const { id } = await api.series.create({ name: 'Minimal', source: 'reddit' }, c.idem('series'));
    const series = await api.series.get(id);
    expect(series).toMatchObject({
      name: 'Minimal',
      source: 'reddit',
      paused: false,
      autoPostTime: expect.stringMatching(/^\d{2}:\d{2}$/),
      timezone: expect.any(String),
      brollModel: 'storyboard',
      destination: 'youtube',
    });
    expect(series.niche).toBeUndefined();
  });
});

describe('series episodes', () => {
  it('first episode at creation (charged), posted at its slot; generate charges again; deletion keeps videos', async () => {
    const api = c.client();
    const spent = spends().length;
    const { id } = await api.series.create(
      {
        name: 'Deep Sea Facts',
        source: 'ai_story',
        niche: 'science',
        postingDays: ['monday', 'wednesday'],
        autoPostTime: '09:00',
        timezone: 'UTC',
      },
      c.idem('series'),
    );
    // No credits at creation itself; the first episode is charged as a storyboard video.
    expect(spends()).toHaveLength(spent + 1);
    expect(spends().at(-1)?.credits).toBe(-20);

    let episodes = await api.series.episodes(id);
    expect(episodes.pagination).toEqual({ page: 1, limit: 20, total: 1 });
    const first = episodes.items[0];
    expect(first).toEqual({
      id: expect.any(String),
      projectId: expect.any(String),
      status: 'generating',
      scheduledTime: new Date(MONDAY_9).toISOString(),
    });
    const video = await api.videos.get(first?.projectId ?? '');
    expect(video.name).toContain('Deep Sea Facts');

    c.advance(GENERATION_MS + RENDER_MS + MINUTE);
    episodes = await api.series.episodes(id);
    expect(episodes.items[0]?.status).toBe('scheduled');

    c.advance(MONDAY_9 + MINUTE - c.clock.now());
    episodes = await api.series.episodes(id);
    const posted = episodes.items.find((e) => e.id === first?.id);
    expect(posted?.status).toBe('posted');
    // At the slot the next episode was generated for the next posting day.
    expect(episodes.items[0]?.scheduledTime).toBe(new Date(WEDNESDAY_9).toISOString());
    expect(episodes.pagination.total).toBe(2);
    const calendar = await api.posts.calendar({ startDate: '2026-01-05', endDate: '2026-01-05' });
    expect(calendar).toEqual([
      {
        id: expect.any(String),
        projectId: first?.projectId,
        platform: 'youtube',
        status: 'posted',
        scheduledTime: new Date(MONDAY_9).toISOString(),
      },
    ]);
    expect(c.run.sim.publishedPosts().map((p) => p.videoId)).toEqual([first?.projectId]);

    const before = spends().length;
    const generated = await api.series.generate(id, c.idem('generate'));
    expect(generated).toEqual({ projectId: expect.any(String) });
    expect(spends()).toHaveLength(before + 1);
    expect(c.run.sim.chargesFor(generated.projectId)).toHaveLength(1);

    const newest = await api.series.episodes(id, { limit: 1 });
    expect(newest.pagination).toEqual({ page: 1, limit: 1, total: 3 });
    expect(newest.items[0]?.projectId).toBe(generated.projectId);
    const oldest = await api.series.episodes(id, { page: 3, limit: 1 });
    expect(oldest.items[0]?.id).toBe(first?.id);

    await api.series.delete(id);
    expect((await api.videos.get(generated.projectId)).id).toBe(generated.projectId);
    expect((await api.videos.get(first?.projectId ?? '')).id).toBe(first?.projectId);
  });

  it('paused stops automatic generation; resuming restarts it', async () => {
    const api = c.client();
    const { id } = await api.series.create({ name: 'Daily', source: 'ai_story' }, c.idem('series'));
    await api.series.update(id, { paused: true });
    c.advance(3 * DAY);
    const paused = await api.series.episodes(id);
    // Only the episode generated at creation; it was still posted at its slot.
    expect(paused.pagination.total).toBe(1);
    expect(paused.items[0]?.status).toBe('posted');
    const charged = spends().length;
    await api.series.update(id, { paused: false });
    c.advance(DAY + HOUR);
    expect((await api.series.episodes(id)).pagination.total).toBeGreaterThan(1);
    expect(spends().length).toBeGreaterThan(charged);
  });
});
