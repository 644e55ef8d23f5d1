/** `series create`: flags, the form, validation before sending, one POST per user action, and the follow-up. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CREATE_FORM_ID } from '../../../src/core/commands/series/create-form.js';
import { TYPED_RETRY_WINDOW_MS } from '../../../src/core/dispatch/request-id.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { DEMO_KEY, textOf } from '../../support/harness.js';
import { card, confirmed, idFrom, mutations, type SeriesHarness, seriesHarness } from './helpers.js';

let h: SeriesHarness;
beforeEach(async () => {
  h = await seriesHarness();
});
afterEach(() => h.close());

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);

describe('series create with flags', () => {
  it('sends every flag as its API field, posts the first episode card and follows the series here', async () => {
    const response = await confirmed(
      h,
      h.run(
        'series create "Night Terrors" --source ai_story --niche "Scary stories" --voice marcus ' +
          '--schedule "mon,wed,fri 21:00 Europe/Paris" --model motion_lite --duration 90 --destination tiktok ' +
          '--accounts "@demo.reels" --music --mood suspense --captions karaoke --style cinematic --language en ' +
          '--hashtags "#scary #story" --tone eerie --privacy unlisted --prompt "Urban legends from Europe" --thumbnails no',
      ),
    );
    // The cost card becomes the outcome, and the channel is told once, through the outbox.
    expect(response.kind).toBe('update');
    const announced = h.chat.channelMessages.filter((p) => p.card.title === 'Series created: Night Terrors');
    expect(announced).toHaveLength(1);
    expect(announced[0]?.card.controls?.map((c) => c.kind === 'button' && c.action)).toEqual([
      'series.pause',
      'series.generate',
    ]);
    const text = textOf(response);
    expect(text).toContain('Series created: Night Terrors');
    expect(text).toContain('The first episode starts generating now');
    expect(text).toContain('**50 credits** (Motion Lite)');
    expect(text).toContain('Mon, Wed, Fri at 21:00 (Europe/Paris)');
    expect(text).toContain('Voice: Marcus');

    const id = idFrom(response);
    const series = await h.api.series.get(id);
    expect(series).toMatchObject({
      name: 'Night Terrors',
      source: 'ai_story',
      niche: 'scary_stories',
      voice: 'voice_marcus_en',
      autoPostTime: '21:00',
      postingDays: ['monday', 'wednesday', 'friday'],
      timezone: 'Europe/Paris',
      brollModel: 'motion_lite',
      duration: 90,
      destination: 'tiktok',
      destinationAccounts: ['acc_demo_tiktok'],
      enableBackgroundMusic: true,
      backgroundMusicMood: 'suspense',
      captionStyle: 'karaoke',
      style: 'cinematic',
      language: 'en',
      hashtags: '#scary #story',
      tone: 'eerie',
      youtubePrivacyStatus: 'unlisted',
      customPrompt: 'Urban legends from Europe',
      generateThumbnails: false,
      paused: false,
    });

    // The first episode: charged once by the service, with its own status card and generation watch.
    expect(spends().map((e) => e.credits)).toEqual([-50]);
    const { items } = await h.api.series.episodes(id);
    expect(items).toHaveLength(1);
    const videoId = items[0]?.projectId as string;
    const cards = h.chat.channelMessages.filter((p) => p.card.context?.includes(videoId));
    expect(cards).toHaveLength(1);
    expect(cards[0]?.card.title).toBe('Night Terrors — Episode 1');
    expect(cards[0]?.card.progress).toBeDefined();
    expect(await h.store.cards.get(videoCardKey(videoId, h.conversation))).toBeDefined();
    expect((await h.store.watches.findActive('generation', videoId))?.conversation).toBe(h.conversation);
    const follow = await h.store.watches.findActive('series', id);
    expect(follow).toMatchObject({ conversation: h.conversation, owner: 'playground:W1:alice' });
    expect((follow?.expiresAt ?? 0) - h.clock.now()).toBeGreaterThan(300 * 24 * 3600_000);
    expect(await h.store.users.getLast('playground:W1:alice', 'series')).toBe(id);
    // Listed among the channel's subscriptions, so `unsubscribe series` can stop it.
    expect((await h.store.subscriptions.list(h.conversation)).map((s) => [s.kind, s.target])).toEqual([
      ['series', id],
    ]);
    expect(textOf(await h.run('subscribe'))).toContain(id);
  });

  it('reads a bare --time in the caller zone and keeps the service defaults for the rest', async () => {
    await h.user('alice', { timeZone: 'America/New_York' });
    const id = idFrom(
      await confirmed(h, h.run('series create Facts --source wikipedia --time 7am --days weekdays')),
    );
    expect(await h.api.series.get(id)).toMatchObject({
      autoPostTime: '07:00',
      timezone: 'America/New_York',
      postingDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    });
  });

  it('is one action: the same command again soon after creates and charges nothing more', async () => {
    const first = idFrom(await confirmed(h, h.run('series create Twice --source ai_story')));
    // The first went through: the same command again is told so, with no second cost card (typed-replay.ts).
    const again = await h.run('series create Twice --source ai_story');
    expect(textOf(again)).toContain('Already started this series at');
    expect(textOf(again)).toContain('— Start it again?');
    expect(await h.api.series.list()).toHaveLength(1);
    expect(spends()).toHaveLength(1);
    // One card for the one episode, not two.
    expect(h.chat.channelMessages.filter((p) => p.card.title === 'Twice — Episode 1')).toHaveLength(1);
    // After the retry window it is a new request, deliberately.
    h.clock.advance(TYPED_RETRY_WINDOW_MS + 1_000);
    expect(idFrom(await confirmed(h, h.run('series create Twice --source ai_story')))).not.toBe(first);
  });

  it.each([
    ['--duration 45', "`45` isn't a valid `duration`"],
    ['--time 25:00', "`25:00` isn't a posting time"],
    ['--days funday', "`funday` isn't a weekday"],
    ['--timezone Mars/Olympus', "`Mars/Olympus` isn't an IANA time zone"],
    ['--schedule whenever', "couldn't read `whenever` as a schedule"],
    ['--model turbo', "`turbo` isn't a valid `model`"],
    ['--privacy secret', "`secret` isn't a valid `privacy`"],
    ['--destination myspace', "`myspace` isn't a platform"],
    ['--source "tv shows"', "`tv shows` isn't a known source. Choose one of: `ai_story`"],
    ['--source ai_story --niche cooking', "`cooking` isn't a known niche"],
    ['--source ai_story --voice Nobody', 'No voice matches `Nobody`'],
    ['--source ai_story --accounts "@nobody"', 'No tiktok account matches `@nobody`'],
    ['--source ai_story --mood angry', "`angry` isn't a known music mood"],
    ['--source ai_story --music maybe', "I didn't expect `maybe` there"],
    ['--source ai_story --bogus 1', 'has no option `--bogus`'],
  ])('refuses %s with usage and sends nothing', async (flags, expected) => {
    const withSource = flags.includes('--source') ? flags : `--source ai_story ${flags}`;
    const accounts = flags.includes('--accounts') ? ' --destination tiktok' : '';
    const response = await h.run(`series create "Bad one" ${withSource}${accounts}`);
    const c = card(response);
    expect(c.tone).toBe('danger');
    expect(c.text).toContain(expected);
    expect(c.fields?.map((f) => f.label)).toEqual(['Usage', 'Example']);
    expect(mutations(h)).toEqual([]);
    expect(await h.api.series.list()).toEqual([]);
    expect(spends()).toEqual([]);
  });
});

describe('series create form', () => {
  it('opens with its inputs from the catalogs when the name or source is missing', async () => {
    const response = await h.run('series create');
    expect(response.kind).toBe('form');
    if (response.kind !== 'form') return;
    const { form } = response;
    expect(form.id).toBe(CREATE_FORM_ID);
    expect(form.inputs.map((i) => i.id)).toEqual([
      'name',
      'source',
      'niche',
      'voice',
      'style',
      'language',
      'duration',
      'destination',
      'schedule',
    ]);
    const source = form.inputs[1];
    expect(source?.kind === 'select' && source.options.map((o) => o.value)).toContain('ai_story');
    const voice = form.inputs[3];
    expect(voice?.kind === 'select' && voice.options[0]?.label).toMatch(/Aria|Marcus|Lucía/);
    // What every episode costs is a warning set apart; the intro says nothing is created yet.
    expect(form.alert).toEqual({
      level: 'warning',
      text: expect.stringContaining('Each episode is charged **20 credits** (Storyboard)'),
    });
    expect(form.intro).toContain('Nothing is created yet');
    // Only the request id minted as the form opened: a retried submit creates one series.
    expect(form.state).toMatch(/^[\w-]{8}$/);
    expect(mutations(h)).toEqual([]);
  });

  it('creates from the submitted form, schedule included', async () => {
    const response = await confirmed(
      h,
      h.submit(CREATE_FORM_ID, '', {
        name: 'Money Minute',
        source: 'news',
        niche: 'personal_finance',
        voice: 'voice_lucia_es',
        schedule: 'weekdays 08:30 Europe/Madrid',
      }),
    );
    expect(textOf(response)).toContain('Series created: Money Minute');
    expect(await h.api.series.get(idFrom(response))).toMatchObject({
      source: 'news',
      niche: 'personal_finance',
      voice: 'voice_lucia_es',
      autoPostTime: '08:30',
      timezone: 'Europe/Madrid',
    });
  });

  it('keeps the flags typed with the command and applies them on submit', async () => {
    const opened = await h.run('series create --model motion_pro --duration 30 --source news');
    expect(opened.kind).toBe('form');
    if (opened.kind !== 'form') return;
    const source = opened.form.inputs.find((i) => i.id === 'source');
    expect(source && 'initial' in source ? source.initial : undefined).toBe('news');
    // The warning prices the model typed, not the default.
    expect(opened.form.alert?.text).toContain('**100 credits**');
    const response = await confirmed(
      h,
      h.submit(CREATE_FORM_ID, opened.form.state, { name: 'Pro', source: 'news' }),
    );
    expect(await h.api.series.get(idFrom(response))).toMatchObject({
      brollModel: 'motion_pro',
      duration: 30,
    });
    expect(spends().map((e) => e.credits)).toEqual([-100]);
  });

  it('answers a bad flag before opening the form', async () => {
    const response = await h.run('series create --duration 45');
    expect(card(response).text).toContain("`45` isn't a valid `duration`");
  });

  it('shows errors next to the inputs and sends nothing', async () => {
    const bad = await h.submit(CREATE_FORM_ID, '', {
      name: 'X',
      source: 'ai_story',
      schedule: 'daily 25:00',
    });
    expect(bad).toEqual({
      kind: 'form-errors',
      errors: { schedule: expect.stringContaining('daily 25:00') },
    });
    const missing = await h.submit(CREATE_FORM_ID, '', { name: '  ', source: '' });
    expect(missing.kind === 'form-errors' && Object.keys(missing.errors).sort()).toEqual(['name', 'source']);
    const voice = await h.submit(CREATE_FORM_ID, '', { name: 'X', source: 'ai_story', voice: 'nobody' });
    expect(voice.kind === 'form-errors' && voice.errors.voice).toContain('No voice matches');
    expect(mutations(h)).toEqual([]);
  });
});
