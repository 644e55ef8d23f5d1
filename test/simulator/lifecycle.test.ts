import { expect, it } from 'vitest';
import { HOUR, SCRIPT, SECOND, startHarness } from './harness.js';
import type {
  Analytics,
  CalendarEntry,
  Render,
  RenderStarted,
  VideoCreated,
  VideoDetail,
  VideoStatus,
} from './wire.js';

/** The whole documented lifecycle, polled the way a client would, at speed 10. */
it('create → generate → thumbnails → pick → metadata → render → schedule → posted → calendar → analytics', async () => {
  const h = await startHarness({ speed: 10 });
  try {
    const created = await h.api<VideoCreated>('POST', '/videos', {
      body: { script: SCRIPT, voiceId: 'voice_marcus_en', model: 'motion_lite' },
      headers: { 'idempotency-key': 'lifecycle-create' },
    });
    const id = created.json.data.id;

    let status: VideoStatus;
    let polls = 0;
    do {
      h.advance(2 * SECOND);
      status = (await h.api<VideoStatus>('GET', `/videos/${id}/status`)).json.data;
      polls += 1;
    } while (status.status === 'processing');
    expect(status.status).toBe('completed');
    expect(polls).toBeGreaterThan(3); // 150 s / speed 10 = 15 s

    h.advance(5 * SECOND);
    const video = (await h.api<VideoDetail>('GET', `/videos/${id}`)).json.data;
    expect(video.thumbnails.status).toBe('ready');
    const pick = video.thumbnails.variants[2]!;
    await h.api('POST', `/videos/${id}/thumbnail`, { body: { variantId: pick.id } });
    await h.api('PATCH', `/videos/${id}`, {
      body: { youtubePost: { title: 'What they never saw', privacyStatus: 'unlisted' } },
    });

    const render = await h.api<RenderStarted>('POST', `/videos/${id}/render`, { body: { codec: 'h264' } });
    h.advance(5 * SECOND);
    const done = (await h.api<Render>('GET', `/renders/${render.json.data.renderId}`)).json.data;
    expect(done.status).toBe('done');

    const when = h.clock.now() + HOUR;
    const scheduled = await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['youtube'], scheduledTime: new Date(when).toISOString() },
    });
    expect(scheduled.status).toBe(201);
    h.clock.set(when + SECOND);
    const day = new Date(when).toISOString().slice(0, 10);
    const entries = (await h.api<CalendarEntry[]>('GET', `/calendar?startDate=${day}&endDate=${day}`)).json
      .data;
    expect(entries).toEqual([
      expect.objectContaining({ projectId: id, platform: 'youtube', status: 'posted' }),
    ]);

    h.advance(HOUR);
    const analytics = (await h.api<Analytics>('GET', '/analytics?platform=youtube')).json.data;
    expect(analytics.topPosts[0]).toMatchObject({ title: 'What they never saw', platform: 'youtube' });
    expect(analytics.totals.totalViews).toBeGreaterThan(0);
    expect(h.run.sim.balance('Team A')).toBe(450);
  } finally {
    await h.close();
  }
});
