import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completedVideo,
  createVideo,
  DAY,
  type Harness,
  HOUR,
  KEY_B,
  MINUTE,
  renderedVideo,
  SECOND,
  startHarness,
  T0,
  teamA,
} from './harness.js';
import type { CalendarEntry, Published, Render, Scheduled, VideoStatus } from './wire.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ rateLimits: false });
});
afterEach(() => h.close());

const at = (ms: number) => new Date(ms).toISOString();
const calendar = async (query: string) => {
  const res = await h.api<CalendarEntry[]>('GET', `/calendar?${query}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data;
};

describe('POST /posts (publish now)', () => {
  it('publishes a rendered video and returns the post URL', async () => {
    const id = await renderedVideo(h);
    const res = await h.api<Published>('POST', '/posts', {
      body: { videoId: id, platform: 'youtube', title: 'Now!' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({
      platform: 'youtube',
      videoId: id,
      postUrl: expect.stringMatching(/^https:\/\//),
    });
    expect(h.run.sim.publishedPosts()).toEqual([
      expect.objectContaining({
        videoId: id,
        platform: 'youtube',
        title: 'Now!',
        authId: 'acc_a_youtube',
        at: at(h.clock.now()),
      }),
    ]);
  });

  it('falls back to the stored metadata for the title', async () => {
    const id = await renderedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { instagramPost: { caption: 'Stored caption' } } });
    await h.api('POST', '/posts', { body: { videoId: id, platform: 'instagram' } });
    expect(h.run.sim.publishedPosts()[0]?.title).toBe('Stored caption');
  });

  it('requires a rendered video (invalid_input)', async () => {
    const id = await completedVideo(h);
    const res = await h.api('POST', '/posts', { body: { videoId: id, platform: 'youtube' } });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('invalid_input');
    expect(res.json.error.message).toMatch(/render/);
    expect(h.run.sim.publishedPosts()).toEqual([]);
  });

  it('accepts an explicit videoUrl instead of a render', async () => {
    const id = await completedVideo(h);
    const res = await h.api('POST', '/posts', {
      body: { videoId: id, platform: 'tiktok', videoUrl: 'https://cdn.test/v.mp4' },
    });
    expect(res.status).toBe(200);
  });

  it('requires a connected account for the platform, and a known authId', async () => {
    await h.close();
    h = await startHarness({
      teams: [
        teamA({
          accounts: {
            youtube: [
              { authId: 'yt1', label: 'Main' },
              { authId: 'yt2', label: 'Second' },
            ],
          },
        }),
      ],
    });
    const id = await renderedVideo(h);
    const none = await h.api('POST', '/posts', { body: { videoId: id, platform: 'tiktok' } });
    expect(none.status).toBe(400);
    expect(none.json.error.message).toContain('tiktok');
    expect(none.json.error.message).toMatch(/connect/);
    const wrong = await h.api('POST', '/posts', {
      body: { videoId: id, platform: 'youtube', authId: 'yt9' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toContain('authId');
    const chosen = await h.api('POST', '/posts', {
      body: { videoId: id, platform: 'youtube', authId: 'yt2' },
    });
    expect(chosen.status).toBe(200);
    const fallback = await h.api('POST', '/posts', { body: { videoId: id, platform: 'youtube' } });
    expect(fallback.status).toBe(200);
    expect(h.run.sim.publishedPosts().map((p) => p.authId)).toEqual(['yt2', 'yt1']);
  });
});

describe('POST /posts/schedule', () => {
  it('requires each listed platform’s metadata on the video, naming the platform', async () => {
    const id = await completedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { youtubePost: { title: 'T' } } });
    const res = await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['youtube', 'tiktok'], scheduledTime: at(T0 + DAY) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe('invalid_input');
    expect(res.json.error.message).toContain('tiktok');
    expect(res.json.error.message).not.toContain('youtube (');
    expect(await calendar('startDate=2026-01-01&endDate=2026-12-31')).toEqual([]);
  });

  it('requires a time in the future', async () => {
    const id = await completedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { xPost: { text: 'hi' } } });
    const res = await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['x'], scheduledTime: at(h.clock.now() - MINUTE) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('scheduledTime');
  });

  it('renders first, posts at the scheduled time, and shows it all in the calendar', async () => {
    const id = await completedVideo(h);
    await h.api('PATCH', `/videos/${id}`, {
      body: { youtubePost: { title: 'Launch' }, xPost: { text: 'Launch on X' } },
    });
    const when = Date.UTC(2026, 0, 6, 18, 0);
    const res = await h.api<Scheduled>('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['youtube', 'x'], scheduledTime: '2026-01-06T19:00:00+01:00' },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({
      taskId: expect.any(String),
      platforms: ['youtube', 'x'],
      scheduledTime: at(when),
    });

    // Rendering started at once, for free.
    h.advance(MINUTE);
    const rendered = await h.api<VideoStatus>('GET', `/videos/${id}/status`);
    expect(rendered.json.data.renderedVideoUrl).toMatch(/\.mp4$/);

    const scheduled = await calendar('startDate=2026-01-06&endDate=2026-01-06');
    expect(scheduled).toEqual([
      {
        id: expect.any(String),
        projectId: id,
        platform: 'youtube',
        status: 'scheduled',
        scheduledTime: at(when),
      },
      { id: expect.any(String), projectId: id, platform: 'x', status: 'scheduled', scheduledTime: at(when) },
    ]);
    expect(h.run.sim.publishedPosts()).toEqual([]);

    h.clock.set(when - SECOND);
    expect((await calendar('startDate=2026-01-06&endDate=2026-01-06&status=scheduled')).length).toBe(2);
    h.clock.set(when);
    const posted = await calendar('startDate=2026-01-06&endDate=2026-01-06');
    expect(posted.map((e) => e.status)).toEqual(['posted', 'posted']);
    expect(h.run.sim.publishedPosts().map((p) => [p.platform, p.title, p.at])).toEqual([
      ['youtube', 'Launch', at(when)],
      ['x', 'Launch on X', at(when)],
    ]);
  });

  it('a post whose render is still running goes out when the render is done', async () => {
    const id = await completedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { threadsPost: { text: 'soon' } } });
    await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['threads'], scheduledTime: at(h.clock.now() + 10 * SECOND) },
    });
    h.advance(20 * SECOND);
    expect((await calendar('startDate=2026-01-05&endDate=2026-01-05'))[0]?.status).toBe('scheduled');
    h.advance(MINUTE);
    expect((await calendar('startDate=2026-01-05&endDate=2026-01-05'))[0]?.status).toBe('posted');
  });

  it('a post fails at its time per the post-failure knob', async () => {
    h.run.sim.setKnobs({ postFailureRate: 1 });
    const id = await renderedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { facebookPost: { description: 'fb' } } });
    await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['facebook'], scheduledTime: at(h.clock.now() + HOUR) },
    });
    h.advance(2 * HOUR);
    const entries = await calendar('startDate=2026-01-05&endDate=2026-01-05&status=failed');
    expect(entries).toHaveLength(1);
    expect(h.run.sim.publishedPosts()).toEqual([]);
  });

  it('a post fails when the render fails', async () => {
    h.run.sim.setKnobs({ renderFailureRate: 1 });
    const id = await completedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { xPost: { text: 'x' } } });
    await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['x'], scheduledTime: at(h.clock.now() + HOUR) },
    });
    h.advance(2 * HOUR);
    expect((await calendar('startDate=2026-01-05&endDate=2026-01-05'))[0]?.status).toBe('failed');
  });
});

describe('DELETE /posts/{videoId}', () => {
  it('cancels what is still scheduled, then answers 409 conflict', async () => {
    const id = await renderedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { xPost: { text: 'x' } } });
    await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['x'], scheduledTime: at(h.clock.now() + HOUR) },
    });
    const res = await h.api('DELETE', `/posts/${id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ cancelled: true });
    expect(await calendar('startDate=2026-01-05&endDate=2026-01-06')).toEqual([]);
    h.advance(2 * HOUR);
    expect(h.run.sim.publishedPosts()).toEqual([]);
    const again = await h.api('DELETE', `/posts/${id}`);
    expect(again.status).toBe(409);
    expect(again.json.error.type).toBe('conflict');
  });

  it('409 once the post has gone out (posts already sent are unaffected)', async () => {
    const id = await renderedVideo(h);
    await h.api('PATCH', `/videos/${id}`, { body: { xPost: { text: 'x' } } });
    await h.api('POST', '/posts/schedule', {
      body: { videoId: id, platforms: ['x'], scheduledTime: at(h.clock.now() + HOUR) },
    });
    h.advance(2 * HOUR);
    const res = await h.api('DELETE', `/posts/${id}`);
    expect(res.status).toBe(409);
    expect((await calendar('startDate=2026-01-05&endDate=2026-01-05&status=posted')).length).toBe(1);
  });

  it('409 for a video that was never scheduled', async () => {
    const id = await createVideo(h);
    expect((await h.api('DELETE', `/posts/${id}`)).status).toBe(409);
  });
});

describe('GET /calendar filters', () => {
  beforeEach(async () => {
    const id = await renderedVideo(h);
    await h.api('PATCH', `/videos/${id}`, {
      body: { youtubePost: { title: 'y' }, tiktokPost: { title: 't' } },
    });
    for (const [day, platforms] of [
      [6, ['youtube']],
      [7, ['tiktok']],
      [9, ['youtube', 'tiktok']],
    ] as const) {
      await h.api('POST', '/posts/schedule', {
        body: { videoId: id, platforms, scheduledTime: at(Date.UTC(2026, 0, day, 23, 30)) },
      });
    }
    h.clock.set(Date.UTC(2026, 0, 8));
  });

  it('dates are inclusive calendar days', async () => {
    expect((await calendar('startDate=2026-01-06&endDate=2026-01-07')).map((e) => e.platform)).toEqual([
      'youtube',
      'tiktok',
    ]);
    expect(await calendar('startDate=2026-01-08&endDate=2026-01-08')).toEqual([]);
    expect((await calendar('startDate=2026-01-09&endDate=2026-01-09')).length).toBe(2);
  });

  it('full ISO timestamps are taken as instants', async () => {
    const entries = await calendar(
      `startDate=2026-01-06T23:00:00Z&endDate=${encodeURIComponent('2026-01-07T23:59:00+00:00')}`,
    );
    expect(entries.map((e) => e.scheduledTime)).toEqual([
      at(Date.UTC(2026, 0, 6, 23, 30)),
      at(Date.UTC(2026, 0, 7, 23, 30)),
    ]);
  });

  it('platform and status filters', async () => {
    expect((await calendar('startDate=2026-01-01&endDate=2026-01-31&platform=tiktok')).length).toBe(2);
    expect((await calendar('startDate=2026-01-01&endDate=2026-01-31&status=posted')).length).toBe(2);
    expect((await calendar('startDate=2026-01-01&endDate=2026-01-31&status=scheduled')).length).toBe(2);
    expect((await calendar('startDate=2026-01-01&endDate=2026-01-31&status=failed')).length).toBe(0);
  });

  it('only shows the caller’s team', async () => {
    const theirs = await h.api<CalendarEntry[]>('GET', '/calendar?startDate=2026-01-01&endDate=2026-01-31', {
      key: KEY_B,
    });
    expect(theirs.json.data).toEqual([]);
  });
});

describe('render ids are object ids', () => {
  it('GET /renders/{id} with a video id is not found', async () => {
    const id = await completedVideo(h);
    expect((await h.api<Render>('GET', `/renders/${id}`)).status).toBe(404);
  });
});
