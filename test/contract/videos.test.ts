import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Contract,
  completedVideo,
  DEMO_KEY,
  GENERATION_MS,
  MINUTE,
  RENDER_MS,
  renderedVideo,
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
      status: 'processing',
      creditsUsed: 50,
      statusUrl: `/api/v1/videos/${created.id}/status`,
    });
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
    expect(created).toEqual({
      id: expect.any(String),
      status: 'processing',
      statusUrl: `/api/v1/videos/${created.id}/status`,
    });
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
      platform: expect.any(String),
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

describe('GET /videos/{id}/status', () => {
  it('percent rises while processing, then completed at 100', async () => {
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    const seen: number[] = [];
    let status = await api.videos.status(id);
    expect(status).toEqual({
      id,
      status: 'processing',
      percentCompleted: 0,
      readyForEditing: false,
      errorMessages: [],
      renderedVideoUrl: null,
    });
    while (status.status === 'processing') {
      seen.push(status.percentCompleted);
      c.advance(20 * SECOND);
      status = await api.videos.status(id);
    }
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    expect(status).toEqual({
      id,
      status: 'completed',
      percentCompleted: 100,
      readyForEditing: true,
      errorMessages: [],
      renderedVideoUrl: null,
    });
    expect((await api.videos.get(id)).status).toBe('completed');
  });

  it('a failed generation is HTTP 200 with status failed and reasons; no refund', async () => {
    c.run.sim.setKnobs({ generationFailureRate: 1 });
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    c.advance(GENERATION_MS);
    const status = await api.videos.status(id);
    expect(status.status).toBe('failed');
    expect(status.percentCompleted).toBeGreaterThan(0);
    expect(status.percentCompleted).toBeLessThan(100);
    expect(status.readyForEditing).toBe(false);
    expect(status.errorMessages.length).toBeGreaterThan(0);
    expect(status.errorMessages.join(' ')).toMatch(/refund/i);
    expect(c.run.sim.balance(DEMO_KEY)).toBe(480);
    // Nothing else happens to it: it stays failed.
    c.advance(10 * MINUTE);
    expect((await api.videos.status(id)).status).toBe('failed');
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
      thumbnailUrl: expect.any(String),
      thumbnails: { status: expect.any(String), variants: expect.any(Array) },
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

describe('POST /videos/{id}/thumbnail', () => {
  it('three AI variants after completion; a user pick is kept through regeneration', async () => {
    const api = c.client();
    const { id } = await api.videos.create({ script: SCRIPT, voiceId: 'voice_aria_en' }, c.idem());
    expect((await api.videos.get(id)).thumbnails).toEqual({
      status: 'idle',
      generation: 0,
      aspect: '9:16',
      variants: [],
    });
    c.advance(GENERATION_MS);
    expect((await api.videos.get(id)).thumbnails?.status).toBe('queued');
    c.advance(THUMBNAILS_MS);
    const ready = await api.videos.get(id);
    const thumbs = ready.thumbnails;
    expect(thumbs).toMatchObject({ status: 'ready', generation: 1, aspect: '9:16', selectedBy: 'ai' });
    expect(thumbs?.variants).toHaveLength(3);
    for (const v of thumbs?.variants ?? []) {
      expect(v).toEqual({
        id: expect.any(String),
        url: expect.stringContaining(`/media/thumb/${id}/`),
        hookText: expect.any(String),
        source: 'ai',
        score: expect.any(Number),
        grade: expect.stringMatching(/^[A-D]$/),
      });
    }
    const best = [...(thumbs?.variants ?? [])].sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
    expect(thumbs?.selectedVariantId).toBe(best?.id);
    expect(ready.thumbnailUrl).toBe(best?.url);

    const pick = thumbs?.variants.find((v) => v.id !== best?.id);
    const selection = await api.videos.selectThumbnail(id, pick?.id ?? '');
    expect(selection).toEqual({
      id,
      thumbnailUrl: pick?.url,
      thumbnails: {
        status: 'ready',
        selectedVariantId: pick?.id,
        selectedBy: 'user',
        // Here variants are URL strings (spec §2); the client uses the URL as each one's id.
        variants: (thumbs?.variants ?? []).map((v) => ({ id: v.url, url: v.url })),
      },
    });

    c.run.sim.regenerateThumbnails(id);
    c.advance(THUMBNAILS_MS);
    const regenerated = (await api.videos.get(id)).thumbnails;
    expect(regenerated?.generation).toBe(2);
    expect(regenerated?.selectedBy).toBe('user');
    expect(regenerated?.selectedVariantId).toBe(pick?.id);
    expect(regenerated?.variants.map((v) => v.id)).toContain(pick?.id);
    expect((await api.videos.get(id)).thumbnailUrl).toBe(pick?.url);
  });

  it('without a user pick, regeneration re-selects automatically', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    c.advance(THUMBNAILS_MS);
    const first = (await api.videos.get(id)).thumbnails?.selectedVariantId;
    c.run.sim.regenerateThumbnails(id);
    c.advance(THUMBNAILS_MS);
    const thumbs = (await api.videos.get(id)).thumbnails;
    expect(thumbs?.selectedBy).toBe('ai');
    expect(thumbs?.selectedVariantId).not.toBe(first);
  });
});

describe('POST /videos/{id}/render and GET /renders/{id}', () => {
  it('in-progress with rising progress, then done with a URL the video then carries', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    const started = await api.videos.render(id, { codec: 'vp8' }, c.idem('render'));
    expect(started).toEqual({
      renderId: expect.any(String),
      statusUrl: `/api/v1/renders/${started.renderId}`,
    });
    const first = await api.renders.get(started.renderId);
    expect(first).toEqual({ renderId: started.renderId, status: 'in-progress', overallProgress: 0 });
    c.advance(RENDER_MS / 2);
    const half = await api.renders.get(started.renderId);
    expect(half.status).toBe('in-progress');
    expect(half.overallProgress).toBeGreaterThan(0.4);
    expect(half.overallProgress).toBeLessThan(1);
    c.advance(RENDER_MS);
    const done = await api.renders.get(started.renderId);
    expect(done).toEqual({
      renderId: started.renderId,
      status: 'done',
      overallProgress: 1,
      url: expect.stringMatching(/\.mp4$/),
    });
    expect((await api.videos.get(id)).renderedVideoUrl).toBe(done.url);
    expect((await api.videos.status(id)).renderedVideoUrl).toBe(done.url);
    expect((await api.videos.list()).items[0]?.renderedVideoUrl).toBe(done.url);
    // The URL is served (by the simulator's media route).
    const media = await fetch(done.url ?? '');
    expect(media.status).toBe(200);
    await media.arrayBuffer();
  });

  it('a failed render is status error, not an HTTP error; rendering is free', async () => {
    const api = c.client();
    const { id } = await completedVideo(c, api);
    const balance = c.run.sim.balance(DEMO_KEY);
    c.run.sim.setKnobs({ renderFailureRate: 1 });
    const { renderId } = await api.videos.render(id, {}, c.idem('render'));
    c.advance(RENDER_MS);
    const render = await api.renders.get(renderId);
    expect(render.status).toBe('error');
    expect(render.url).toBeUndefined();
    expect(render.overallProgress).toBeLessThan(1);
    expect((await api.videos.get(id)).renderedVideoUrl).toBeNull();
    expect(c.run.sim.balance(DEMO_KEY)).toBe(balance);
    // A second try succeeds once the failure is gone.
    c.run.sim.setKnobs({ renderFailureRate: 0 });
    const retry = await api.videos.render(id, {}, c.idem('render'));
    c.advance(RENDER_MS);
    expect((await api.renders.get(retry.renderId)).status).toBe('done');
  });

  it('renderedVideo helper: a rendered video is ready to publish', async () => {
    const { id, renderUrl } = await renderedVideo(c, c.client());
    expect((await c.client().videos.get(id)).renderedVideoUrl).toBe(renderUrl);
  });
});
