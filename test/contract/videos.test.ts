import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Contract,
  completedVideo,
  DEMO_KEY,
  MINUTE,
  SCRIPT,
  SECOND,
  startContract,
  T0,
  THUMBNAILS_MS,
} from './support.js';

let c: Contract;
beforeEach(async () => {
  c = await startContract();
});
afterEach(async () => {
  await c.close();
});

describe('POST /videos', () => {
  it('creates in processing, charges the model cost once, with a ledger entry', async () => {
    const api = c.client();
    const before = c.run.sim.ledger(DEMO_KEY).length;
    const created = await api.videos.create(
      {
        script: SCRIPT,
        voiceId: 'voice_marcus_en',
        model: 'motion_lite',
        name: 'Octopus facts',
        style: 'cinematic',
        language: 'en',
        enableBackgroundMusic: true,
        masterStyle: 'moody',
        globalNegativePrompt: 'text overlays',
      },
      c.idem('create'),
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Octopus facts',
      model: 'motion_lite',
      creditsUsed: 50,
    });
    expect((await api.videos.status(created.id)).status).toBe('processing');
    expect(c.run.sim.balance(DEMO_KEY)).toBe(450);
    const ledger = c.run.sim.ledger(DEMO_KEY);
    expect(ledger).toHaveLength(before + 1);
    expect(ledger.at(-1)).toMatchObject({ credits: -50, type: 'spending', videoId: created.id });
    expect(c.run.sim.chargesFor(created.id)).toHaveLength(1);
    expect((await api.me.get()).team.credits).toBe(450);
  });

  it('defaults: storyboard at 20 credits, named from the start of the script', async () => {
    const created = await c
      .client()
      .videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem('create'));
    expect(created.model).toBe('storyboard');
    expect(created.creditsUsed).toBe(20);
    expect(SCRIPT.startsWith(created.name.replace(/…$/, ''))).toBe(true);
  });

  it("the team's custom voice is accepted as voiceId", async () => {
    const api = c.client();
    const custom = (await api.voices.list()).find((v) => v.isCustom);
    const created = await api.videos.create({ script: SCRIPT, voiceId: custom?.id ?? '' }, c.idem('create'));
    expect((await api.videos.get(created.id)).voiceId).toBe(custom?.id);
  });
});

describe('POST /videos/captions', () => {
  it('free, processing, completes like a video', async () => {
    const api = c.client();
    const balance = c.run.sim.balance(DEMO_KEY);
    const ledger = c.run.sim.ledger(DEMO_KEY).length;
    const created = await api.videos.caption(
      { videoUrl: 'https://cdn.example.com/raw/interview.mp4', language: 'en' },
      c.idem('caption'),
    );
    expect(created).toEqual({ id: expect.any(String) });
    expect((await api.videos.status(created.id)).status).toBe('processing');
    expect(c.run.sim.balance(DEMO_KEY)).toBe(balance);
    expect(c.run.sim.ledger(DEMO_KEY)).toHaveLength(ledger);
    expect((await api.videos.get(created.id)).name).toBe('interview.mp4');
    c.advance(MINUTE + SECOND);
    expect((await api.videos.status(created.id)).status).toBe('completed');
    const audio = await api.videos.caption(
      { audioUrl: 'https://cdn.example.com/pod.mp3', name: 'Podcast clip' },
      c.idem('caption'),
    );
    expect((await api.videos.get(audio.id)).name).toBe('Podcast clip');
  });
});

describe('GET /videos', () => {
  it('newest first, paginated, archived apart', async () => {
    const api = c.client();
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) {
      ids.push((await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en', name }, c.idem())).id);
      c.advance(SECOND);
    }
    const page1 = await api.videos.list({ limit: 2 });
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.items.map((v) => v.name)).toEqual(['third', 'second']);
    expect(page1.items[0]).toEqual({
      id: ids[2],
      name: 'third',
      model: 'storyboard',
      renderedVideoUrl: null,
      thumbnailUrl: expect.stringContaining(`/media/broll/${ids[2]}/`),
      createdAt: new Date(T0 + 2 * SECOND).toISOString(),
    });
    const page2 = await api.videos.list({ page: 2, limit: 2 });
    expect(page2.items.map((v) => v.name)).toEqual(['first']);

    c.run.sim.archiveVideo(ids[1] ?? '');
    const live = await api.videos.list();
    expect(live.items.map((v) => v.name)).toEqual(['third', 'first']);
    expect(live.pagination).toEqual({ page: 1, limit: 20, total: 2 });
    const archived = await api.videos.list({ archived: true });
    expect(archived.items.map((v) => v.id)).toEqual([ids[1]]);
    expect((await api.videos.list({ archived: false })).pagination.total).toBe(2);
  });

  it('list items carry the effective thumbnail once one is selected', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    c.advance(THUMBNAILS_MS);
    const video = await api.videos.get(id);
    const [item] = (await api.videos.list()).items;
    expect(item?.thumbnailUrl).toBe(video.thumbnailUrl);
    expect(item?.thumbnailUrl).toContain('/media/thumb/');
  });
});

describe('GET, PATCH, DELETE /videos/{id}', () => {
  it('GET maps the whole video; PATCH stores name and blocks; GET reads them back', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api, { name: 'Draft' });
    const video = await api.videos.get(id);
    expect(video).toMatchObject({
      id,
      name: 'Draft',
      model: 'storyboard',
      script: SCRIPT,
      voiceId: 'voice_aria_en',
      status: 'completed',
      renderedVideoUrl: null,
      posts: {},
      createdAt: new Date(T0).toISOString(),
    });
    const patched = await api.videos.update(id, {
      name: 'Octopus facts',
      posts: {
        youtube: { title: 'Octopus facts', description: 'Eight arms.' },
        x: { text: 'Octopuses have three hearts' },
        instagram: { caption: 'Cephalopods!' },
      },
    });
    expect(patched).toMatchObject({
      id,
      name: 'Octopus facts',
      posts: {
        // privacyStatus defaults to public (spec §2) and is stored that way.
        youtube: { title: 'Octopus facts', description: 'Eight arms.', privacyStatus: 'public' },
        x: { text: 'Octopuses have three hearts' },
        instagram: { caption: 'Cephalopods!' },
      },
    });
    // Only what is sent changes; a block is replaced as a whole.
    const again = await api.videos.update(id, {
      posts: { youtube: { title: 'New', privacyStatus: 'unlisted' } },
    });
    expect(again.name).toBe('Octopus facts');
    expect(again.posts.youtube).toEqual({ title: 'New', privacyStatus: 'unlisted' });
    expect(again.posts.x).toEqual({ text: 'Octopuses have three hearts' });
    const read = await api.videos.get(id);
    expect(read.name).toBe('Octopus facts');
    expect(read.posts).toEqual({
      youtube: { title: 'New', privacyStatus: 'unlisted' },
      x: { text: 'Octopuses have three hearts' },
      instagram: { caption: 'Cephalopods!' },
    });
    const all = await api.videos.update(id, {
      posts: {
        tiktok: { title: 't' },
        facebook: { description: 'f' },
        linkedin: { description: 'l' },
        threads: { text: 'th' },
      },
    });
    expect(Object.keys(all.posts).sort()).toEqual(
      ['facebook', 'instagram', 'linkedin', 'threads', 'tiktok', 'x', 'youtube'].sort(),
    );
  });

  it('DELETE removes the video and gives no refund', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    const balance = c.run.sim.balance(DEMO_KEY);
    expect(await api.videos.delete(id)).toEqual({ deleted: true });
    expect(c.run.sim.balance(DEMO_KEY)).toBe(balance);
    await expect(api.videos.get(id)).rejects.toMatchObject({ type: 'not_found', status: 404 });
    expect((await api.videos.list()).pagination.total).toBe(0);
  });
});
