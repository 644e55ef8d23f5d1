import { describe, expect, it } from 'vitest';
import {
  ACCOUNTS_NEW,
  ACCOUNTS_OLD,
  ANALYTICS_NEW,
  ANALYTICS_OLD,
  CREDITS,
  ME,
  SERIES_CONFIG,
  STATUS,
  VARIANTS,
  VIDEO,
  VIDEO_LIST_ITEM,
  VOICE_FULL,
  VOICE_SHORT,
} from './fixtures.js';
import { harness, ok } from './harness.js';

/** Replies once to `GET path` with `data` and returns what `call` resolves to. */
async function fetchWith<T>(
  path: string,
  body: unknown,
  call: (h: ReturnType<typeof harness>) => Promise<T>,
) {
  const h = harness();
  h.reply('GET', path, 200, body);
  return await h.clock.run(call(h));
}

describe('responses are validated and mapped to domain types', () => {
  it('me and credits', async () => {
    expect(await fetchWith('/me', ok({ ...ME, extra: 1 }), (h) => h.client.me.get())).toEqual(ME);
    const credits = await fetchWith('/credits', ok(CREDITS, { page: 1, limit: 20, total: 2 }), (h) =>
      h.client.credits.get(),
    );
    // Ledger ids are not read by the bot, so not kept.
    const history = CREDITS.history.map(({ id, ...entry }) => entry);
    expect(credits).toEqual({
      balance: CREDITS.balance,
      history,
      pagination: { page: 1, limit: 20, total: 2 },
    });
    expect(credits.history[1]?.type).toBe('subscription_grant');
  });

  it('a full video: post blocks become `posts`, variant objects kept, unknown fields dropped', async () => {
    const body = ok({ ...VIDEO, futureField: { x: 1 }, thumbnails: { ...VIDEO.thumbnails, model: 'v9' } });
    const video = await fetchWith('/videos/vid_1', body, (h) => h.client.videos.get('vid_1'));
    expect(video).toEqual({
      id: 'vid_1',
      name: 'Launch teaser',
      platform: 'tiktok',
      model: 'storyboard',
      script: VIDEO.script,
      voiceId: 'voice_anna',
      status: 'completed',
      renderedVideoUrl: null,
      thumbnailUrl: 'https://cdn.test/t1.jpg',
      thumbnails: {
        status: 'ready',
        selectedVariantId: 'v1',
        selectedBy: 'ai',
        // Fields the bot does not read (generation, aspect, a variant's source) are not kept.
        variants: VARIANTS.map(({ source, ...variant }) => variant),
      },
      posts: {
        youtube: { title: 'Launch', description: 'Next week', privacyStatus: 'unlisted' },
        tiktok: { title: 'Launch #soon' },
        instagram: { caption: 'Launch' },
        x: { text: 'Launch!' },
        facebook: { description: 'Launch on Facebook' },
        linkedin: { description: 'Launch on LinkedIn' },
        threads: { text: 'Launch on Threads' },
      },
      createdAt: '2026-02-01T10:00:00Z',
    });
    expect(video).not.toHaveProperty('futureField');
  });

  it('a video with no metadata yet: absent, null and empty blocks all read as absent', async () => {
    const {
      youtubePost,
      tiktokPost,
      instagramPost,
      xPost,
      facebookPost,
      linkedinPost,
      threadsPost,
      ...bare
    } = VIDEO;
    const body = ok({ ...bare, youtubePost: null, xPost: {}, thumbnails: { status: 'idle', variants: [] } });
    const video = await fetchWith('/videos/vid_1', body, (h) => h.client.videos.get('vid_1'));
    expect(video.posts).toEqual({});
    expect(video.thumbnails).toEqual({ status: 'idle', variants: [] });
  });

  it('an unexpected privacyStatus is dropped rather than failing the video', async () => {
    const body = ok({ ...VIDEO, youtubePost: { title: 'T', privacyStatus: 'friends-only' } });
    const video = await fetchWith('/videos/vid_1', body, (h) => h.client.videos.get('vid_1'));
    expect(video.posts.youtube).toEqual({ title: 'T' });
  });

  it('list items: renderedVideoUrl defaults to null, a null thumbnail is absent', async () => {
    const { renderedVideoUrl, ...noRender } = VIDEO_LIST_ITEM;
    const body = ok([VIDEO_LIST_ITEM, { ...noRender, id: 'vid_2', thumbnailUrl: null }], {
      page: 1,
      limit: 20,
      total: 2,
    });
    const page = await fetchWith('/videos', body, (h) => h.client.videos.list());
    // A list item's platform is not read by the bot.
    const { platform, ...read } = VIDEO_LIST_ITEM;
    expect(page.items[0]).toEqual(read);
    expect(page.items[1]).toEqual({ ...read, id: 'vid_2', thumbnailUrl: undefined, renderedVideoUrl: null });
    expect(page.items[1]).not.toHaveProperty('thumbnailUrl');
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 2 });
  });

  it('PATCH and thumbnail-select responses: URL-string variants get the URL as id', async () => {
    const h = harness();
    const thumbnails = {
      status: 'ready',
      selectedBy: 'user',
      variants: ['https://cdn.test/t1.jpg', 'https://cdn.test/t2.jpg'],
    };
    h.reply(
      'PATCH',
      '/videos/vid_1',
      200,
      ok({
        id: 'vid_1',
        name: 'N',
        tiktokPost: { title: 'tt' },
        thumbnailUrl: 'https://cdn.test/t2.jpg',
        thumbnails,
      }),
    );
    h.reply(
      'POST',
      '/videos/vid_1/thumbnail',
      200,
      ok({ id: 'vid_1', thumbnails: { ...thumbnails, selectedVariantId: 'v2' } }),
    );
    const patched = await h.clock.run(
      h.client.videos.update('vid_1', { posts: { tiktok: { title: 'tt' } } }),
    );
    // The PATCH response's thumbnails are not read by the bot (it re-reads the video).
    expect(patched).toEqual({ id: 'vid_1', name: 'N', posts: { tiktok: { title: 'tt' } } });
    const selected = await h.clock.run(h.client.videos.selectThumbnail('vid_1', 'v2'));
    expect(selected.thumbnails?.selectedVariantId).toBe('v2');
    expect(selected.thumbnails?.variants[1]).toEqual({
      id: 'https://cdn.test/t2.jpg',
      url: 'https://cdn.test/t2.jpg',
    });
  });

  it('status: per-step events ignored; a failed generation is data, not an error', async () => {
    const status = await fetchWith('/videos/vid_1/status', ok(STATUS), (h) =>
      h.client.videos.status('vid_1'),
    );
    expect(status).toEqual({ id: 'vid_1', status: 'processing', percentCompleted: 40, errorMessages: [] });
    const failed = await fetchWith(
      '/videos/vid_1/status',
      ok({ id: 'vid_1', status: 'failed', percentCompleted: 60, errorMessages: ['voice unavailable'] }),
      (h) => h.client.videos.status('vid_1'),
    );
    expect(failed).toMatchObject({ status: 'failed', errorMessages: ['voice unavailable'] });
  });

  it('render: url absent until done', async () => {
    const render = await fetchWith(
      '/renders/r_1',
      ok({ renderId: 'r_1', status: 'in-progress', overallProgress: 0.4 }),
      (h) => h.client.renders.get('r_1'),
    );
    expect(render).toEqual({ renderId: 'r_1', status: 'in-progress', overallProgress: 0.4 });
  });

  it('series: the configuration the bot reads, typed; everything else dropped', async () => {
    const body = ok({
      ...SERIES_CONFIG,
      duration: 45,
      thumbnailSettings: { style: 'bold' },
      episodesGenerated: 7,
    });
    const series = await fetchWith('/series/ser_1', body, (h) => h.client.series.get('ser_1'));
    expect(series).toEqual({
      id: 'ser_1',
      name: 'Daily facts',
      source: 'ai_topics',
      niche: 'science',
      paused: false,
      createdAt: '2026-02-01T10:00:00Z',
      voice: 'voice_anna',
      autoPostTime: '09:30',
      postingDays: ['monday', 'wednesday'],
      timezone: 'Europe/Paris',
      brollModel: 'motion_lite',
      youtubePrivacyStatus: 'public',
      duration: 45,
      thumbnailSettings: { style: 'bold' },
    });
  });

  it('series list and episodes', async () => {
    const list = await fetchWith(
      '/series',
      ok([{ id: 's', name: 'S', source: 'x', niche: null, paused: true }]),
      (h) => h.client.series.list(),
    );
    expect(list).toEqual([{ id: 's', name: 'S', source: 'x', paused: true }]);
    const episodes = await fetchWith(
      '/series/s/episodes',
      ok([{ id: 'e', projectId: 'vid_9', status: 'posted', scheduledTime: '2026-02-02T09:30:00Z' }], {
        page: 1,
        limit: 20,
        total: 1,
      }),
      (h) => h.client.series.episodes('s'),
    );
    expect(episodes.items).toEqual([
      { id: 'e', projectId: 'vid_9', status: 'posted', scheduledTime: '2026-02-02T09:30:00Z' },
    ]);
  });

  it('accounts: the newer shape', async () => {
    const accounts = await fetchWith('/accounts', ok(ACCOUNTS_NEW), (h) => h.client.accounts.list());
    expect(accounts).toEqual(ACCOUNTS_NEW);
  });

  it('accounts: the older id/channelName shape, and a null platform', async () => {
    const accounts = await fetchWith('/accounts', ok({ ...ACCOUNTS_OLD, tiktok: null }), (h) =>
      h.client.accounts.list(),
    );
    expect(accounts).toEqual({
      youtube: [{ authId: 'acc_yt_1', label: 'Acme Channel', isDefault: false }],
      instagram: [],
      tiktok: [],
    });
  });

  it('voices: full and short shapes side by side', async () => {
    const voices = await fetchWith(
      '/voices',
      ok([VOICE_FULL, VOICE_SHORT, { id: 'v3', name: 'Bare' }]),
      (h) => h.client.voices.list(),
    );
    // baseVoiceId and modelPolicy are not read by the bot.
    const { baseVoiceId, modelPolicy, ...full } = VOICE_FULL;
    expect(voices).toEqual([full, VOICE_SHORT, { id: 'v3', name: 'Bare', isCustom: false }]);
  });

  it('options: model items, bare values and objects named by id/label', async () => {
    const models = await fetchWith(
      '/options?kind=models',
      ok({ kind: 'models', items: [{ value: 'storyboard', name: 'Storyboard', credits: 20 }] }),
      (h) => h.client.options.get('models'),
    );
    expect(models).toEqual({
      kind: 'models',
      items: [{ value: 'storyboard', name: 'Storyboard', credits: 20 }],
    });
    const durations = await fetchWith('/options?kind=durations', ok({ items: [30, 60] }), (h) =>
      h.client.options.get('durations'),
    );
    expect(durations).toEqual({
      kind: 'durations',
      items: [
        { value: '30', name: '30' },
        { value: '60', name: '60' },
      ],
    });
    const styles = await fetchWith(
      '/options?kind=styles',
      ok({
        kind: 'styles',
        items: [{ id: 'noir', label: 'Film noir', preview: 'https://cdn.test/noir.jpg' }],
      }),
      (h) => h.client.options.get('styles'),
    );
    expect(styles.items).toEqual([{ value: 'noir', name: 'Film noir' }]);
  });

  it.each([
    [['sources', 'models']],
    [[{ kind: 'sources' }, { value: 'models' }]],
    [{ kinds: ['sources', 'models'] }],
    [{ sources: '/options?kind=sources', models: '/options?kind=models' }],
  ])('options.kinds reads the listing %j', async (data) => {
    expect(await fetchWith('/options', ok(data), (h) => h.client.options.kinds())).toEqual([
      'sources',
      'models',
    ]);
  });

  it('analytics: the newer shape', async () => {
    const analytics = await fetchWith('/analytics', ok(ANALYTICS_NEW), (h) => h.client.analytics.get());
    expect(analytics).toEqual({
      rangeDays: 28,
      totalViews: 15000,
      viewsGained: 1200,
      postsSynced: 12,
      posts7d: 3,
      ready: true,
      byPlatform: ANALYTICS_NEW.byPlatform,
      topPosts: ANALYTICS_NEW.topPosts,
    });
  });

  it('analytics: the older totals/platforms shape', async () => {
    const analytics = await fetchWith('/analytics', ok(ANALYTICS_OLD), (h) => h.client.analytics.get());
    expect(analytics).toEqual({
      rangeDays: 30,
      totalViews: 8000,
      postsSynced: 9,
      likes: 420,
      ready: true,
      byPlatform: {
        youtube: { totalViews: 6000, postsSynced: 5 },
        instagram: { totalViews: 2000, postsSynced: 4 },
      },
      topPosts: [],
    });
  });

  it('analytics: a newer shape still syncing reports not ready', async () => {
    const body = ok({ rollup: { rangeDays: 7, totalViews: 0, postsSynced: 0, ready: false } });
    const analytics = await fetchWith('/analytics?range=7', body, (h) =>
      h.client.analytics.get({ range: 7 }),
    );
    expect(analytics).toMatchObject({
      rangeDays: 7,
      totalViews: 0,
      ready: false,
      byPlatform: {},
      topPosts: [],
    });
  });
});
