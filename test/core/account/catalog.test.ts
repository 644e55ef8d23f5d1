import { afterEach, describe, expect, it } from 'vitest';
import { TYPED_RETRY_WINDOW_MS } from '../../../src/core/dispatch/request-id.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { cardOf, createWorld, DEMO_KEY, textOf, type World } from './world.js';

const SMALL_KEY = 'fl_live_small_team_key_2222222222222222';

describe('voices, options, accounts', () => {
  let w: World;
  afterEach(async () => w.close());

  it('lists voices grouped by language with custom and recommended marked and preview links', async () => {
    w = await createWorld();
    const card = cardOf(await w.run('voices'));
    expect(card.title).toBe('Voices');
    expect(card.text).toMatch(/^12 voices\. ⭐ recommended · 🧬 your team's custom voice\./);
    const en = card.sections?.find((s) => s.text?.startsWith('**en**'))?.text ?? '';
    expect(en).toContain('• **Demo Team narrator (cloned)** 🧬 — neutral · custom · [preview](');
    expect(en).toContain(
      '• **Aria** ⭐ — female · american · premium · [preview](https://cdn.sim.reelbot.invalid/voices/voice_aria_en.mp3) · `voice_aria_en`',
    );
    expect(en.indexOf('cloned')).toBeLessThan(en.indexOf('Aria'));
    expect(card.sections?.map((s) => s.text?.split('\n')[0])).toEqual([
      '**de** (1)',
      '**en** (5)',
      '**es** (2)',
      '**fr** (1)',
      '**hi** (1)',
      '**ja** (1)',
      '**pt** (1)',
    ]);
    expect(card.context).toContain('/reel create --voice');
  });

  it('filters voices by language code or name, multilingual voices included', async () => {
    w = await createWorld();
    for (const text of ['voices --language es', 'voices --language Spanish', 'voices --language ES']) {
      const card = cardOf(await w.run(text));
      const list = card.sections?.[0]?.text ?? '';
      expect(card.sections).toHaveLength(1);
      expect(list).toMatch(/^\*\*es\*\* \(3\)/);
      expect(list).toContain('**Lucía** ⭐');
      expect(list).toContain('**Aria** ⭐ — female · american · premium · multilingual, native en');
    }
    const none = await w.run('voices --language sv');
    expect(cardOf(none).title).toBe('No voices found');
    expect(textOf(none)).toContain('Languages with voices: de, en, es, fr, hi, ja, pt.');
  });

  it('serves catalogs from a cache for a few minutes', async () => {
    w = await createWorld({ teams: [{ name: 'Small', keys: [{ key: SMALL_KEY }] }] });
    const bob = await w.user('bob', { key: SMALL_KEY });
    await w.run('voices', bob);
    await w.run('accounts', bob);
    await w.run('options models', bob);
    const before = w.calls.length;
    w.sim.sim.revokeKey(SMALL_KEY);
    w.clock.advance(4 * 60_000);
    expect(cardOf(await w.run('voices', bob)).title).toBe('Voices');
    expect(cardOf(await w.run('accounts', bob)).title).toBe('Connected accounts');
    expect(cardOf(await w.run('options models', bob)).title).toBe('Options: models');
    expect(w.calls.length).toBe(before);
    w.clock.advance(2 * 60_000);
    expect(textOf(await w.run('voices', bob))).toContain('no longer accepts your API key');
  });

  it('lists option kinds as GET /options lists them, and a kind’s values with model credits', async () => {
    w = await createWorld();
    const kinds = await w.run('options');
    expect(textOf(kinds)).toContain('• `models` — for `create --model`');
    expect(w.calls).toEqual(['options.kinds']);
    w.calls.length = 0;
    const models = cardOf(await w.run('options models'));
    expect(models.text).toBe(
      [
        '• **Storyboard** — `storyboard` · 20 credits per video',
        '• **Motion Lite** — `motion_lite` · 50 credits per video',
        '• **Motion Pro** — `motion_pro` · 100 credits per video',
      ].join('\n'),
    );
    const styles = cardOf(await w.run('options styles'));
    expect(styles.text).toContain('• **Cinematic** — `cinematic`');
    const bad = await w.run('options colours');
    expect(textOf(bad)).toContain("`colours` isn't a valid `kind`. Choose one of: sources, styles, niches");
    expect(textOf(bad)).toContain('Usage: `/reel options [kind]`');
  });

  it('lists accounts per platform, the default marked, empty platforms as not connected', async () => {
    w = await createWorld({
      teams: [
        {
          name: 'Small',
          keys: [{ key: SMALL_KEY }],
          accounts: {
            youtube: [
              { authId: 'yt_main', label: 'Main channel', isDefault: true },
              { authId: 'yt_shorts', label: 'Shorts channel' },
            ],
          },
        },
      ],
    });
    const card = cardOf(await w.run('accounts', await w.user('bob', { key: SMALL_KEY })));
    expect(card.text).toBe('1 of 7 platforms connected.');
    expect(card.fields?.[0]).toEqual({
      label: 'YouTube',
      value: '• Main channel ⭐ default · `yt_main`\n• Shorts channel · `yt_shorts`',
      short: true,
    });
    expect(card.fields?.find((f) => f.label === 'TikTok')?.value).toBe('_not connected_');
    expect(card.fields).toHaveLength(7);
  });
});

describe('asset', () => {
  let w: World;
  afterEach(async () => w.close());

  it('registers a URL and answers with id, name and URL; a repeat soon after is replayed', async () => {
    w = await createWorld();
    const text = 'asset https://cdn.example.com/intro.mp4 --name "Intro clip" --type video/mp4';
    const first = cardOf(await w.run(text));
    expect(first.title).toBe('Asset registered');
    expect(first.fields?.find((f) => f.label === 'Name')?.value).toBe('Intro clip');
    expect(first.fields?.find((f) => f.label === 'URL')?.value).toBe('https://cdn.example.com/intro.mp4');
    expect(first.context).toContain('/reel caption https://cdn.example.com/intro.mp4');
    const id = first.fields?.find((f) => f.label === 'Id')?.value;
    expect(id).toMatch(/^`.+`$/);
    // The same command again soon after is a retry: said so, nothing registered twice.
    const again = cardOf(await w.run(text));
    expect(again.text ?? again.title).toMatch(/Already registered this asset at .* — Register again\?/);
    expect(w.calls.filter((c) => c === 'assets.create')).toHaveLength(1);
    w.clock.advance(TYPED_RETRY_WINDOW_MS + 1_000);
    const later = cardOf(await w.run(text));
    expect(later.fields?.find((f) => f.label === 'Id')?.value).not.toBe(id);
  });

  it('answers a bad URL or MIME type with usage and sends nothing', async () => {
    w = await createWorld();
    for (const [text, words] of [
      ['asset ftp://files.example.com/a.mp4', "`ftp://files.example.com/a.mp4` isn't a public http(s) URL."],
      ['asset https://cdn.example.com/a.mp4 --type mp4', "`mp4` isn't a MIME type."],
      ['asset', '`asset` needs `url`.'],
    ] as const) {
      const response = await w.run(text);
      expect(textOf(response)).toContain(words);
      expect(textOf(response)).toContain('Usage: `/reel asset <url> [--name NAME] [--type TYPE]`');
      expect(textOf(response)).toContain('Example: `/reel asset https://cdn.example.com/intro.mp4');
    }
    expect(w.calls).toEqual([]);
  });
});

describe('analytics', () => {
  let w: World;
  afterEach(async () => w.close());

  async function publishOne(world: World): Promise<string> {
    const api = world.api(DEMO_KEY);
    const video = await api.videos.create(
      {
        script: 'Five facts about octopuses you did not know.',
        voiceId: 'voice_aria_en',
        name: 'Octopus facts',
      },
      { idempotencyKey: 'analytics-video' },
    );
    world.clock.advance(100_000);
    await api.videos.render(video.id, {}, { idempotencyKey: 'analytics-render' });
    world.clock.advance(300_000);
    const posted = await api.posts.publish(
      { videoId: video.id, platform: 'youtube', title: 'Octopus facts' },
      { idempotencyKey: 'analytics-post' },
    );
    world.clock.advance(3 * 24 * 3600_000);
    return posted.postUrl ?? '';
  }

  it('shows totals, per platform and top posts with links', async () => {
    w = await createWorld();
    const url = await publishOne(w);
    const card = cardOf(await w.run('analytics --range 7'));
    expect(card.title).toBe('Analytics · last 7 days');
    expect(card.tone).toBe('info');
    expect(card.fields?.find((f) => f.label === 'Posts synced')?.value).toBe('1');
    expect(
      Number(card.fields?.find((f) => f.label === 'Total views')?.value.replaceAll(',', '')),
    ).toBeGreaterThan(0);
    // Views per platform as a chart, its numbers as words wherever it is not drawn.
    const [chart] = card.charts ?? [];
    expect(chart).toMatchObject({
      kind: 'bar',
      title: 'Views per platform',
      categories: ['YouTube'],
      unit: 'views',
    });
    expect(chart?.series[0]?.name).toBe('Total views');
    expect(chart?.series[0]?.values[0]).toBeGreaterThan(0);
    // The top posts as a table: the post linked, its platform, its views as a sortable number.
    expect(card.table?.caption).toBe('Top posts');
    expect(card.table?.columns.map((c) => c.label)).toEqual(['Post', 'Platform', 'Views']);
    const [post, where, views] = card.table?.rows[0] ?? [];
    expect([post, where]).toEqual([`[Octopus facts](${url})`, 'YouTube']);
    expect(views).toMatchObject({ value: expect.any(Number) });
  });

  it('explains an empty window, and filters by platform', async () => {
    w = await createWorld();
    const empty = cardOf(await w.run('analytics --platform tiktok'));
    expect(empty.title).toBe('Analytics · last 28 days · TikTok');
    expect(empty.text).toContain('No published posts in this window yet.');
  });

  it('says "still syncing" while the service is not ready', async () => {
    w = await createWorld({
      wrapApi: (api): VideoApi => ({
        ...api,
        analytics: { get: async (q) => ({ ...(await api.analytics.get(q)), ready: false }) },
      }),
    });
    const card = cardOf(await w.run('analytics'));
    expect(card.tone).toBe('progress');
    expect(card.text).toContain('⏳ **Still syncing**: recent posts are not counted yet');
  });

  it('answers a bad range or platform with usage and sends nothing', async () => {
    w = await createWorld();
    const range = await w.run('analytics --range 30');
    expect(textOf(range)).toContain("`30` isn't a valid `range`. Choose one of: 7, 28, 90.");
    expect(textOf(range)).toContain(
      'Usage: `/reel analytics [--platform youtube|tiktok|instagram|facebook] [--range 7|28|90] [--account ACCOUNT]`',
    );
    const platform = await w.run('analytics --platform threads');
    expect(textOf(platform)).toContain(
      "`threads` isn't a valid `platform`. Choose one of: youtube, tiktok, instagram, facebook.",
    );
    expect(w.calls).toEqual([]);
  });
});
