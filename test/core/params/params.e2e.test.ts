/**
 * Nothing out of reach: every parameter of the API is reachable from a command. Each test types
 * the command, lets the real client send it over HTTP, and asserts the body or query the simulator read off
 * the wire (`Simulator.received`), on both simulator profiles. Bad values are refused with a clear message
 * before anything is sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Response } from '../../../src/core/text/cards.js';
import type { ReceivedRequest } from '../../../src/simulator/index.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';

function cardOf(response: Response) {
  if (response.kind !== 'message' && response.kind !== 'update')
    throw new Error(`expected a card, got ${JSON.stringify(response)}`);
  return response.card;
}

function buttonValue(response: Response, action: string): string {
  const control = cardOf(response).controls?.find((c) => c.kind === 'button' && c.action === action);
  if (control?.kind !== 'button') throw new Error(`no ${action} button in ${JSON.stringify(response)}`);
  return control.value;
}

/**
 * A team with two TikTok accounts and no default (a publish there asks which one), and one label on two
 * analytics platforms (`analytics --account @brand` asks which).
 */
const PICKY_KEY = 'fl_live_picky_team_key_0123456789abcdef';
const PICKY_TEAM = {
  name: 'Picky Team',
  keys: [{ key: PICKY_KEY }],
  accounts: {
    youtube: [{ authId: 'acc_brand_yt', label: '@brand', isDefault: true }],
    instagram: [{ authId: 'acc_brand_ig', label: '@brand', isDefault: true }],
    tiktok: [
      { authId: 'acc_second', label: 'Second', isDefault: false },
      { authId: 'acc_third', label: 'Third', isDefault: false },
    ],
  },
};

const SCRIPT = 'A lighthouse keeper counts the ships that pass in the night, one by one.';

describe.each(['spec', 'real'] as const)('every API parameter reachable (%s profile)', (profile) => {
  let h: Harness;
  const received = (method: string, path: string | RegExp): ReceivedRequest[] =>
    h.sim.sim.received({ method, path });

  beforeEach(async () => {
    h = await createHarness({ simulator: { profile }, teams: [PICKY_TEAM] });
    await h.user('alice');
  });
  afterEach(async () => h.close());

  it('create --master-style --negative: masterStyle and globalNegativePrompt in POST /videos', async () => {
    const confirm = await h.run(
      `create --master-style "grainy 16mm film, warm light" --negative "text, logos" ${SCRIPT}`,
    );
    const fields = Object.fromEntries((cardOf(confirm).fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({ 'Master style': 'grainy 16mm film, warm light', Avoid: 'text, logos' });
    expect(received('POST', '/videos')).toEqual([]);

    await h.click('video.create.confirm', buttonValue(confirm, 'video.create.confirm'));
    const [sent] = received('POST', '/videos');
    expect(sent?.body).toMatchObject({
      script: SCRIPT,
      masterStyle: 'grainy 16mm film, warm light',
      globalNegativePrompt: 'text, logos',
    });
  });

  it('publish --title --description --privacy: the POST /posts body fields', async () => {
    await completedVideo(h, 'Octopus facts', { render: true });
    const r = await h.run(
      'publish "Octopus facts" youtube --privacy unlisted --title "Eight arms, three hearts" --description "Sources below."',
    );
    expect(cardOf(r).title).toBe('Published to YouTube');
    const [sent] = received('POST', '/posts');
    expect(sent?.body).toMatchObject({
      platform: 'youtube',
      title: 'Eight arms, three hearts',
      description: 'Sources below.',
      privacyStatus: 'unlisted',
    });
    expect(h.sim.sim.publishedPosts()[0]?.title).toBe('Eight arms, three hearts');
  });

  it('publish: a title over the platform limit and a description where none is taken are refused', async () => {
    await completedVideo(h, 'Octopus facts', { render: true });
    const long = 'x'.repeat(101);
    const tooLong = await h.run(`publish "Octopus facts" youtube --title ${long}`);
    expect(textOf(tooLong)).toContain('`--title` is 101 characters; YouTube allows 100');
    const noDescription = await h.run('publish "Octopus facts" x --description "Long text"');
    expect(textOf(noDescription)).toContain(
      '`--description` applies to YouTube, Facebook and LinkedIn, not X',
    );
    expect(received('POST', '/posts')).toEqual([]);
  });

  it('publish with a title through the account picker: the title survives the pick', async () => {
    const videoId = await completedVideo(h, 'Octopus facts', { render: true, key: PICKY_KEY });
    const bob = await h.user('bob', { key: PICKY_KEY });
    const r = await h.run(`publish ${videoId} tiktok --title "Picked later"`, bob);
    const picker = cardOf(r).controls?.find((c) => c.kind === 'select');
    if (picker?.kind !== 'select') throw new Error(`expected the account picker, got ${JSON.stringify(r)}`);
    expect(received('POST', '/posts')).toEqual([]);
    const option = picker.options.find((o) => o.value.endsWith('|acc_third'));
    await h.click(picker.action, option?.value ?? '', bob, option?.value);
    expect(received('POST', '/posts')[0]?.body).toMatchObject({ title: 'Picked later', authId: 'acc_third' });
  });

  it('publish --title under an approval policy: the approver’s click sends the title the requester gave', async () => {
    const videoId = await completedVideo(h, 'Octopus facts', { render: true });
    const bobKey = 'fl_live_bob_own_key_of_the_demo_team_0123';
    h.sim.sim.addKey(h.sim.keys[0] as string, bobKey);
    const alice = await h.user('alice');
    const bob = await h.user('bob', { key: bobKey });
    for (const line of ['role admin @alice', 'approval publish', 'approvers @bob'])
      expect(textOf(await h.run(`settings ${line}`, alice))).toContain('updated');

    await h.run(`publish ${videoId} youtube --title "Approved title" --description "Approved text"`, alice);
    expect(received('POST', '/posts')).toEqual([]);
    const request = h.chat.channelMessages.filter((m) => m.card.title.startsWith('Approval needed')).pop();
    // The YouTube post as it will go out: this post's own title and description, over the stored ones.
    const post = request?.card.sections?.map((x) => x.text).join('\n');
    expect(post).toContain('**Title:** Approved title _(this post only)_');
    expect(post).toContain('**Description:** Approved text _(this post only)_');
    const approve = [
      ...(request?.card.controls ?? []),
      ...(request?.card.sections ?? []).flatMap((x) => x.controls ?? []),
    ].find((c) => c.kind === 'button' && c.action === 'approval.approve');
    if (approve?.kind !== 'button') throw new Error('no Approve button');
    await h.click('approval.approve', approve.value, bob);
    expect(received('POST', '/posts')[0]?.body).toMatchObject({
      title: 'Approved title',
      description: 'Approved text',
    });
  });

  it('analytics --account: a label resolved to its authId in the GET /analytics query', async () => {
    const r = await h.run('analytics --platform youtube --account "demo channel"');
    expect(cardOf(r).title).toContain('Demo Channel');
    const [sent] = received('GET', '/analytics');
    expect(sent?.query).toMatchObject({ platform: 'youtube', authId: 'acc_demo_youtube' });

    const byId = await h.run('analytics --account acc_demo_tiktok');
    expect(cardOf(byId).title).toContain('@demo.reels');
    expect(received('GET', '/analytics')[1]?.query).toMatchObject({ authId: 'acc_demo_tiktok' });
  });

  it('analytics --account naming accounts on two platforms: a select asks which, then runs', async () => {
    const carol = await h.user('carol', { key: PICKY_KEY });
    const asked = await h.run('analytics --range 7 --account @brand', carol);
    expect(cardOf(asked).title).toBe('Which account?');
    expect(received('GET', '/analytics')).toEqual([]);
    const select = cardOf(asked).controls?.find((c) => c.kind === 'select');
    if (select?.kind !== 'select') throw new Error('no select');
    expect(select.options.map((o) => o.label)).toEqual(['YouTube · @brand', 'Instagram · @brand']);
    const instagram = select.options[1]?.value ?? '';
    const answered = await h.click(select.action, instagram, carol, instagram);
    expect(cardOf(answered).title).toBe('Analytics · last 7 days · Instagram · @brand');
    expect(received('GET', '/analytics')[0]?.query).toMatchObject({
      platform: 'instagram',
      authId: 'acc_brand_ig',
      range: '7',
    });
  });

  it('analytics --account with an unknown label: a clear message, no analytics call', async () => {
    const r = await h.run('analytics --account "Nobody here"');
    expect(textOf(r)).toContain('No YouTube, TikTok, Instagram or Facebook account matches `Nobody here`');
    expect(received('GET', '/analytics')).toEqual([]);
  });

  it('series create: every field of POST /series', async () => {
    const confirm = await h.run(
      'series create "Reddit Reads" --source reddit --subreddit tifu --background subway_runner ' +
        '--random-background no --layout split --emojis yes --thumbnails yes ' +
        '--thumbnail-settings style=bold,faces=yes,variants=3 --captions karaoke --hashtags "#reddit #stories" ' +
        '--tone playful --privacy unlisted --music yes --mood calm --duration 60 --model motion_lite',
    );
    expect(received('POST', '/series')).toEqual([]);
    await h.click('series.create.confirm', buttonValue(confirm, 'series.create.confirm'));
    const [sent] = received('POST', '/series');
    expect(sent?.body).toMatchObject({
      name: 'Reddit Reads',
      source: 'reddit',
      subreddit: 'tifu',
      backgroundVideo: 'subway_runner',
      useRandomBackgroundVideo: false,
      layout: 'split',
      showEmojis: true,
      generateThumbnails: true,
      thumbnailSettings: { style: 'bold', faces: true, variants: 3 },
      captionStyle: 'karaoke',
      hashtags: '#reddit #stories',
      tone: 'playful',
      youtubePrivacyStatus: 'unlisted',
      enableBackgroundMusic: true,
      backgroundMusicMood: 'calm',
      brollModel: 'motion_lite',
    });
    expect(h.sim.sim.received({ method: 'POST', path: '/series' })).toHaveLength(1);

    // `series show` reads every one of them back from GET /series/{id}.
    const shown = textOf(await h.run('series show "Reddit Reads"'));
    expect(shown).toContain('Layout: Split');
    expect(shown).toContain('Background: Subway runner');
    expect(shown).toContain('Random background: off');
    expect(shown).toContain('Emojis: on');
    expect(shown).toContain('Thumbnail settings: style: bold · faces: on · variants: 3');
  });

  it('series edit sends only what changed (PATCH), and refuses a bad layout or background first', async () => {
    const confirm = await h.run('series create "Night Terrors" --source ai_story');
    await h.click('series.create.confirm', buttonValue(confirm, 'series.create.confirm'));

    await h.run(
      'series edit "Night Terrors" --layout fullscreen --thumbnail-settings \'{"style":"minimal"}\'',
    );
    const [patch] = received('PATCH', /^\/series\/[^/]+$/);
    expect(patch?.body).toEqual({ layout: 'fullscreen', thumbnailSettings: { style: 'minimal' } });

    const badLayout = await h.run('series edit "Night Terrors" --layout "split screen!"');
    expect(textOf(badLayout)).toContain("`split screen!` isn't a layout name");
    const badBackground = await h.run('series edit "Night Terrors" --background lava_lamp');
    expect(textOf(badBackground)).toContain("`lava_lamp` isn't a known background video");
    expect(textOf(badBackground)).toContain('`minecraft_parkour`');
    const badSettings = await h.run('series edit "Night Terrors" --thumbnail-settings "just bold"');
    expect(textOf(badSettings)).toContain("I couldn't read `just bold` as thumbnail settings");
    expect(received('PATCH', /^\/series\/[^/]+$/)).toHaveLength(1);
  });

  it('caption --audio / --video override the guess from the extension', async () => {
    await h.run('caption https://cdn.example.com/stream.mp4 --audio');
    await h.run('caption https://cdn.example.com/podcast.mp3 --video');
    await h.run('caption https://cdn.example.com/podcast.mp3');
    const bodies = received('POST', '/videos/captions').map((r) => r.body);
    expect(bodies).toEqual([
      { audioUrl: 'https://cdn.example.com/stream.mp4' },
      { videoUrl: 'https://cdn.example.com/podcast.mp3' },
      { audioUrl: 'https://cdn.example.com/podcast.mp3' },
    ]);
    const both = await h.run('caption https://cdn.example.com/a.mp3 --audio --video');
    expect(textOf(both)).toContain('Give `--audio` or `--video`, not both');
    expect(received('POST', '/videos/captions')).toHaveLength(3);
  });

  it('options without a kind lists what GET /options (no kind) answers', async () => {
    const r = await h.run('options');
    const [sent] = received('GET', '/options');
    expect(sent?.query).toEqual({});
    const text = textOf(r);
    for (const kind of ['sources', 'captionThemes', 'backgrounds', 'subreddits'])
      expect(text).toContain(kind);
    expect(text).not.toContain('__v');
    expect(text).not.toContain('documented ones');
  });

  it('GET /options without a kind: the real profile answers in another shape than the spec one', async () => {
    const answer = await fetch(`${h.sim.url}/options`, { headers: { authorization: `Bearer ${DEMO_KEY}` } });
    const { data } = (await answer.json()) as { data: Record<string, unknown> };
    if (profile === 'spec')
      expect(data).toEqual({ kinds: expect.arrayContaining(['sources', 'backgrounds']) });
    else {
      expect(data.kinds).toBeUndefined();
      expect(data.backgrounds).toEqual({ label: 'Background videos', count: expect.any(Number) });
    }
  });

  it('help lists the new flags', async () => {
    const create = textOf(await h.run('help create'));
    expect(create).toContain('--master-style');
    expect(create).toContain('--negative');
    expect(create).toContain('More options');
    const series = textOf(await h.run('help series create'));
    for (const flag of [
      '--layout',
      '--background',
      '--random-background',
      '--emojis',
      '--thumbnail-settings',
    ])
      expect(series).toContain(flag);
    expect(textOf(await h.run('help publish'))).toContain('--description');
    expect(textOf(await h.run('help analytics'))).toContain('--account');
    expect(textOf(await h.run('help caption'))).toContain('--audio');
  });
});

describe('options when the service does not list its kinds', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ proxy: true });
    await h.user('alice');
  });
  afterEach(async () => h.close());

  it('falls back to the documented kinds and says so', async () => {
    h.proxy?.breakMatching((call) => call.path === '/options');
    const text = textOf(await h.run('options'));
    expect(text).toContain('`captionThemes`');
    expect(text).toContain('these are the documented ones');
    expect(h.proxy?.calls.some((c) => c.path === '/options')).toBe(true);
  });
});
