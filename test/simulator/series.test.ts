import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, type Harness, HOUR, KEY_B, startHarness, T0, teamA } from './harness.js';
import type { CalendarEntry, Episode, SeriesCreated, SeriesItem, VideoDetail } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const at = (ms: number) => new Date(ms).toISOString();

async function createSeries(body: Record<string, unknown> = {}): Promise<string> {
  const res = await h.api<SeriesCreated>('POST', '/series', {
    body: { name: 'Dark Tales', source: 'ai_story', ...body },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id;
}

const episodes = async (id: string, query = '') => {
  const res = await h.api<Episode[]>('GET', `/series/${id}/episodes${query}`);
  expect(res.status).toBe(200);
  return res.json.data;
};

describe('series CRUD', () => {
  it('POST answers 201 with id, name, source, niche, createdAt and charges nothing itself', async () => {
    const res = await h.api<SeriesCreated>('POST', '/series', {
      body: { name: 'Facts', source: 'wikipedia', niche: 'history', duration: 30, brollModel: 'motion_lite' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Facts',
      source: 'wikipedia',
      niche: 'history',
      createdAt: at(T0),
    });
    // Only the first episode's cost (motion_lite 50) is charged.
    expect(h.run.sim.balance('Team A')).toBe(450);
  });

  it('GET list, GET one (configuration with defaults), PATCH only sent fields, DELETE', async () => {
    const id = await createSeries({
      niche: 'scary_stories',
      autoPostTime: '18:30',
      timezone: 'Europe/Paris',
    });
    const list = await h.api<SeriesItem[]>('GET', '/series');
    expect(list.json.data).toEqual([
      { id, name: 'Dark Tales', source: 'ai_story', niche: 'scary_stories', paused: false },
    ]);
    const one = await h.api<Record<string, unknown>>('GET', `/series/${id}`);
    expect(one.json.data).toMatchObject({
      id,
      name: 'Dark Tales',
      source: 'ai_story',
      niche: 'scary_stories',
      voice: expect.any(String),
      autoPostTime: '18:30',
      timezone: 'Europe/Paris',
      paused: false,
    });
    const patched = await h.api<Record<string, unknown>>('PATCH', `/series/${id}`, {
      body: { paused: true, tone: 'eerie' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toEqual({ id, name: 'Dark Tales', paused: true, tone: 'eerie' });
    const after = await h.api<Record<string, unknown>>('GET', `/series/${id}`);
    expect(after.json.data).toMatchObject({ paused: true, tone: 'eerie', autoPostTime: '18:30' });
    const del = await h.api('DELETE', `/series/${id}`);
    expect(del.json.data).toEqual({ deleted: true });
    expect((await h.api('GET', `/series/${id}`)).status).toBe(404);
    expect((await h.api<SeriesItem[]>('GET', '/series')).json.data).toEqual([]);
  });

  it('another team cannot see or change it', async () => {
    const id = await createSeries();
    expect((await h.api('GET', `/series/${id}`, { key: KEY_B })).status).toBe(404);
    expect((await h.api('PATCH', `/series/${id}`, { key: KEY_B, body: { paused: true } })).status).toBe(404);
    expect((await h.api('POST', `/series/${id}/generate`, { key: KEY_B })).status).toBe(404);
  });
});

describe('episodes on the cadence', () => {
  it('the first episode starts generating right after creation and is charged', async () => {
    const id = await createSeries({ brollModel: 'motion_pro', autoPostTime: '09:00' });
    const [first, ...rest] = await episodes(id);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      projectId: expect.any(String),
      status: 'generating',
      scheduledTime: at(Date.UTC(2026, 0, 5, 9, 0)),
    });
    expect(h.run.sim.chargesFor(first!.projectId).map((c) => c.credits)).toEqual([-100]);
    const video = await h.api<VideoDetail>('GET', `/videos/${first!.projectId}`);
    expect(video.json.data.model).toBe('motion_pro');
  });

  it('posts each episode at autoPostTime and generates one per posting day; newest first', async () => {
    const id = await createSeries({ autoPostTime: '09:00', postingDays: ['Monday', 'wednesday'] });
    h.clock.set(Date.UTC(2026, 0, 5, 9, 0));
    let list = await episodes(id);
    expect(list.map((e) => e.status)).toEqual(['generating', 'posted']);
    expect(list.map((e) => e.scheduledTime)).toEqual([
      at(Date.UTC(2026, 0, 7, 9, 0)),
      at(Date.UTC(2026, 0, 5, 9, 0)),
    ]);

    h.clock.set(Date.UTC(2026, 0, 6, 12, 0)); // Tuesday: not a posting day
    list = await episodes(id);
    expect(list).toHaveLength(2);
    expect(list[0]?.status).toBe('scheduled');

    h.clock.set(Date.UTC(2026, 0, 12, 10, 0)); // the next Monday
    list = await episodes(id);
    expect(list.map((e) => e.scheduledTime)).toEqual(
      [
        Date.UTC(2026, 0, 14, 9),
        Date.UTC(2026, 0, 12, 9),
        Date.UTC(2026, 0, 7, 9),
        Date.UTC(2026, 0, 5, 9),
      ].map(at),
    );
    expect(list.slice(1).every((e) => e.status === 'posted')).toBe(true);
    expect(h.run.sim.publishedPosts().map((p) => p.platform)).toEqual(['youtube', 'youtube', 'youtube']);
    expect(h.run.sim.balance('Team A')).toBe(500 - 4 * 20);

    const page = await h.api<Episode[]>('GET', `/series/${id}/episodes?page=2&limit=3`);
    expect(page.json.data).toHaveLength(1);
    expect(page.json.pagination).toEqual({ page: 2, limit: 3, total: 4 });
  });

  it('honours the series time zone', async () => {
    const id = await createSeries({ autoPostTime: '09:00', timezone: 'America/New_York' });
    const [first] = await episodes(id);
    expect(first?.scheduledTime).toBe(at(Date.UTC(2026, 0, 5, 14, 0)));
  });

  it('episodes appear in the calendar for the destination platform', async () => {
    const id = await createSeries({ destination: 'tiktok', autoPostTime: '09:00' });
    h.clock.set(Date.UTC(2026, 0, 5, 10, 0));
    const entries = await h.api<CalendarEntry[]>('GET', '/calendar?startDate=2026-01-05&endDate=2026-01-06');
    const [first] = await episodes(id, '?page=1&limit=100').then((l) => l.slice(-1));
    expect(entries.json.data).toEqual([
      expect.objectContaining({ projectId: first?.projectId, platform: 'tiktok', status: 'posted' }),
      expect.objectContaining({
        platform: 'tiktok',
        status: 'scheduled',
        scheduledTime: at(Date.UTC(2026, 0, 6, 9)),
      }),
    ]);
  });

  it('paused stops generation; resuming starts again at the next slot', async () => {
    const id = await createSeries({ autoPostTime: '09:00' });
    await h.api('PATCH', `/series/${id}`, { body: { paused: true } });
    h.clock.set(T0 + 4 * DAY);
    const list = await episodes(id);
    expect(list).toHaveLength(1); // the one generated at creation, still posted at its slot
    expect(list[0]?.status).toBe('posted');
    await h.api('PATCH', `/series/${id}`, { body: { paused: false } });
    h.clock.set(T0 + 5 * DAY);
    expect((await episodes(id)).length).toBe(2);
  });

  it('DELETE stops future generation and keeps generated videos', async () => {
    const id = await createSeries();
    const [first] = await episodes(id);
    await h.api('DELETE', `/series/${id}`);
    h.clock.set(T0 + 3 * DAY);
    expect((await h.api('GET', `/videos/${first?.projectId}`)).status).toBe(200);
    expect(h.run.sim.balance('Team A')).toBe(480);
  });

  it('changing the cadence reschedules the following episodes', async () => {
    const id = await createSeries({ autoPostTime: '09:00' });
    await h.api('PATCH', `/series/${id}`, { body: { autoPostTime: '20:00' } });
    h.clock.set(Date.UTC(2026, 0, 5, 21, 0));
    const list = await episodes(id);
    expect(list[0]?.scheduledTime).toBe(at(Date.UTC(2026, 0, 6, 20, 0)));
  });
});

describe('POST /series/{id}/generate', () => {
  it('generates the next episode now, charges it and returns projectId and statusUrl', async () => {
    const id = await createSeries({ brollModel: 'motion_lite' });
    const res = await h.api<{ projectId: string; statusUrl: string }>('POST', `/series/${id}/generate`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      projectId: expect.any(String),
      statusUrl: `/api/v1/videos/${res.json.data.projectId}/status`,
    });
    expect(h.run.sim.balance('Team A')).toBe(400);
    const list = await episodes(id);
    expect(list.map((e) => e.projectId)).toContain(res.json.data.projectId);
    // It queues behind the first episode's slot.
    expect(list[0]?.scheduledTime).toBe(at(Date.UTC(2026, 0, 6, 9)));
  });

  it('402 when the team cannot pay: nothing created or charged', async () => {
    await h.close();
    h = await startHarness({ teams: [teamA({ credits: 120 })] });
    const id = await createSeries({ brollModel: 'motion_pro' });
    expect(h.run.sim.balance('Team A')).toBe(20);
    const before = h.run.sim.ledger('Team A');
    const res = await h.api('POST', `/series/${id}/generate`);
    expect(res.status).toBe(402);
    expect(res.json.error.type).toBe('insufficient_credits');
    expect(h.run.sim.ledger('Team A')).toEqual(before);
    expect(await episodes(id)).toHaveLength(1);
  });
});

describe('automatic episodes when the team cannot pay', () => {
  it('are skipped, charging and creating nothing, and resume once credits arrive', async () => {
    await h.close();
    h = await startHarness({ teams: [teamA({ credits: 30 })] });
    const id = await createSeries({ autoPostTime: '09:00' });
    expect(h.run.sim.balance('Team A')).toBe(10);
    h.clock.set(T0 + 2 * DAY + HOUR);
    expect(await episodes(id)).toHaveLength(1);
    expect(h.run.sim.skippedEpisodes()).toEqual([
      { seriesId: id, at: at(Date.UTC(2026, 0, 5, 9)), reason: 'insufficient_credits' },
      { seriesId: id, at: at(Date.UTC(2026, 0, 6, 9)), reason: 'insufficient_credits' },
      { seriesId: id, at: at(Date.UTC(2026, 0, 7, 9)), reason: 'insufficient_credits' },
    ]);
    expect(h.run.sim.balance('Team A')).toBe(10);
    h.run.sim.grantCredits('Team A', 100);
    h.clock.set(Date.UTC(2026, 0, 8, 9, 0)); // the next slot
    expect(await episodes(id)).toHaveLength(2);
  });

  it('are skipped at the plan cap too', async () => {
    await h.close();
    h = await startHarness({ teams: [teamA({ projectCap: 1 })] });
    const id = await createSeries({ autoPostTime: '09:00' });
    h.clock.set(T0 + DAY);
    expect(await episodes(id)).toHaveLength(1);
    expect(h.run.sim.skippedEpisodes()[0]?.reason).toBe('usage_limit_reached');
    const manual = await h.api('POST', `/series/${id}/generate`);
    expect(manual.status).toBe(403);
    expect(manual.json.error.type).toBe('usage_limit_reached');
  });
});
