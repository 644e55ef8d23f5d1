import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../src/api/index.js';
import {
  type Contract,
  completedVideo,
  GENERATION_MS,
  HOUR,
  MINUTE,
  RENDER_MS,
  renderedVideo,
  SCRIPT,
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

const DAY_OF_T0 = { startDate: '2026-01-05', endDate: '2026-01-05' };

describe('POST /posts', () => {
  it('publishes a rendered video now and returns the post URL', async () => {
    const api = c.client();
    const { id } = await renderedVideo(c, api);
    const post = await api.posts.publish(
      {
        videoId: id,
        platform: 'youtube',
        title: 'Octopus facts',
        description: 'Eight arms, three hearts.',
        privacyStatus: 'unlisted',
        authId: 'acc_demo_youtube',
      },
      c.idem('publish'),
    );
    expect(post).toEqual({ postUrl: expect.stringMatching(/^https:\/\//) });
    expect(c.run.sim.publishedPosts()).toEqual([
      expect.objectContaining({
        videoId: id,
        platform: 'youtube',
        title: 'Octopus facts',
        authId: 'acc_demo_youtube',
        postUrl: post.postUrl,
      }),
    ]);
  });

  it("without a title, the video's stored metadata is used", async () => {
    const api = c.client();
    const { id } = await renderedVideo(c, api);
    await api.videos.update(id, { posts: { x: { text: 'Three hearts!' } } });
    await api.posts.publish({ videoId: id, platform: 'x' }, c.idem('publish'));
    expect(c.run.sim.publishedPosts().at(-1)).toMatchObject({ platform: 'x', title: 'Three hearts!' });
  });
});

describe('POST /posts/schedule → GET /calendar → posted at the time', () => {
  it('renders first if needed, then posts every listed platform at its time', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    await api.videos.update(id, {
      posts: { youtube: { title: 'Octopus facts' }, x: { text: 'Three hearts!' } },
    });
    const at = new Date(T0 + 2 * HOUR).toISOString();
    const scheduled = await api.posts.schedule(
      { videoId: id, platforms: ['youtube', 'x'], scheduledTime: at },
      c.idem('schedule'),
    );
    expect(scheduled).toEqual({ scheduledTime: at });

    const calendar = await api.posts.calendar(DAY_OF_T0);
    expect(calendar).toEqual([
      { id: expect.any(String), projectId: id, platform: 'youtube', status: 'scheduled', scheduledTime: at },
      { id: expect.any(String), projectId: id, platform: 'x', status: 'scheduled', scheduledTime: at },
    ]);
    expect(await api.posts.calendar({ ...DAY_OF_T0, platform: 'x' })).toHaveLength(1);
    expect(await api.posts.calendar({ ...DAY_OF_T0, status: 'scheduled' })).toHaveLength(2);
    expect(await api.posts.calendar({ ...DAY_OF_T0, status: 'posted' })).toEqual([]);
    expect(await api.posts.calendar({ startDate: '2026-01-06', endDate: '2026-01-31' })).toEqual([]);
    expect(await api.posts.calendar({ startDate: '2026-01-01', endDate: '2026-01-05' })).toHaveLength(2);

    // Nothing goes out before the time, even though the render finished long before.
    c.advance(HOUR);
    expect(c.run.sim.publishedPosts()).toEqual([]);
    expect((await api.videos.get(id)).renderedVideoUrl).toMatch(/\.mp4$/);

    c.advance(HOUR + MINUTE);
    const posted = await api.posts.calendar({ ...DAY_OF_T0, status: 'posted' });
    expect(posted.map((e) => e.platform)).toEqual(['youtube', 'x']);
    expect(await api.posts.calendar({ ...DAY_OF_T0, status: 'scheduled' })).toEqual([]);
    expect(c.run.sim.publishedPosts().map((p) => [p.platform, p.title])).toEqual([
      ['youtube', 'Octopus facts'],
      ['x', 'Three hearts!'],
    ]);
    // Posts already sent are unaffected by a cancel: nothing is scheduled any more.
    await expect(api.posts.cancel(id)).rejects.toBeInstanceOf(ConflictError);
  });

  it('a video still generating is scheduled, then generated, rendered and posted', async () => {
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    await api.videos.update(id, { posts: { tiktok: { title: 'Octopus!' } } });
    // A time with an offset is accepted and answered in UTC.
    const scheduled = await api.posts.schedule(
      { videoId: id, platforms: ['tiktok'], scheduledTime: '2026-01-05T09:10:00+01:00' },
      c.idem('schedule'),
    );
    expect(Date.parse(scheduled.scheduledTime)).toBe(Date.parse('2026-01-05T08:10:00Z'));
    c.advance(GENERATION_MS + RENDER_MS + 10 * MINUTE);
    const [entry] = await api.posts.calendar(DAY_OF_T0);
    expect(entry).toMatchObject({ projectId: id, platform: 'tiktok', status: 'posted' });
  });

  it('a failed generation makes the scheduled post fail', async () => {
    const api = c.client();
    c.run.sim.setKnobs({ generationFailureRate: 1 });
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    await api.videos.update(id, { posts: { youtube: { title: 'Doomed' } } });
    await api.posts.schedule(
      { videoId: id, platforms: ['youtube'], scheduledTime: new Date(T0 + HOUR).toISOString() },
      c.idem('schedule'),
    );
    c.advance(2 * HOUR);
    expect((await api.videos.status(id)).status).toBe('failed');
    const failed = await api.posts.calendar({ ...DAY_OF_T0, status: 'failed' });
    expect(failed).toEqual([
      expect.objectContaining({ projectId: id, platform: 'youtube', status: 'failed' }),
    ]);
    expect(c.run.sim.publishedPosts()).toEqual([]);
  });
});

describe('DELETE /posts/{id}', () => {
  it('cancels what is still scheduled; the calendar drops it; a second cancel is 409', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    await api.videos.update(id, { posts: { youtube: { title: 'Octopus facts' }, threads: { text: 'hi' } } });
    await api.posts.schedule(
      { videoId: id, platforms: ['youtube', 'threads'], scheduledTime: new Date(T0 + HOUR).toISOString() },
      c.idem('schedule'),
    );
    expect(await api.posts.cancel(id)).toEqual({ cancelled: true });
    expect(await api.posts.calendar(DAY_OF_T0)).toEqual([]);
    const again = api.posts.cancel(id);
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ type: 'conflict', status: 409 });
    c.advance(2 * HOUR);
    expect(c.run.sim.publishedPosts()).toEqual([]);
  });
});
