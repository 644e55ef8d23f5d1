/**
 * Native forms and options on Discord, through the real discord.js Client against the fake Discord
 * (which refuses modals Discord would refuse: labels, at most five components, select option limits), the
 * real core and the simulator, on both simulator profiles:
 *
 * - `/reel series create` with no options opens the form: Labels holding string selects of the team's
 *   catalogs; nine inputs come in two pages ("Step 1 of 2 done" → Continue); the last page's submission leads
 *   to the cost card, and only its Create makes POST /series, with every value chosen on both pages;
 * - an error on a page-1 input reopens the form at page 1, the other values kept;
 * - the registered `/reel` has the platform choices, catalog values are suggested while typing, and
 *   advanced options go through `more` as flags;
 * - `/reel create` alone: one modal (script or its file, voice, model with credits, language) answered by the
 *   cost card; its "More options" sets name, master style and negative prompt, updating the card in place,
 *   and Create sends them in POST /videos.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/simulator/catalog.js';
import type { FakeMessage } from './fake-discord.js';
import { controlsOf, discordWorld, IDS, type Json, modalOf, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const labels = (modal: Json): Json[] => (modal.components as Json[]).filter((c) => c.type === 18);
const inputOf = (modal: Json, id: string): Json | undefined =>
  labels(modal).find((c) => c.component?.custom_id === id)?.component;
const values = (select: Json | undefined): string[] => (select?.options ?? []).map((o: Json) => o.value);
const catalog = (kind: keyof typeof OPTIONS) => OPTIONS[kind].map((i) => i.value);

/** The newest message of the fake Discord that shows `control`. */
function withControl(control: string): FakeMessage {
  const found = [...w.fake.messages.values()].reverse().find((m) => controlsOf(m).includes(control));
  if (!found) throw new Error(`no message with ${control}`);
  return found;
}

const postedSeries = () => w.h.sim.sim.received({ method: 'POST', path: '/series' });

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('/reel series create alone opens the form in two pages and creates the series after the cost card', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    // Discord does not share members' zones: Alice set hers (else she is asked on submit: time-zone.e2e.test.ts).
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
    const opened = await w.slash('series create');
    const page1 = modalOf(opened);
    expect(page1.title).toBe('New series (1/2)');
    expect(page1.components).toHaveLength(5);
    expect(page1.components.every((c: Json) => c.type === 18)).toBe(true);
    expect(labels(page1).map((c) => c.label)).toEqual([
      'Series name',
      'Content source',
      'Niche',
      'Voice',
      'Visual style',
    ]);
    expect(inputOf(page1, 'name')).toMatchObject({ type: 4, required: true });
    expect(inputOf(page1, 'source')).toMatchObject({ type: 3, required: true, min_values: 1 });
    expect(values(inputOf(page1, 'source'))).toEqual(catalog('sources'));
    expect(values(inputOf(page1, 'niche'))).toEqual(catalog('niches'));
    expect(values(inputOf(page1, 'style'))).toEqual(catalog('styles'));
    expect(inputOf(page1, 'niche')).toMatchObject({ required: false, min_values: 0 });
    const voice = values(inputOf(page1, 'voice'))[0];
    if (!voice) throw new Error('no voice offered');

    const kept = await w.submit(opened, {
      name: 'Night Terrors',
      source: 'reddit',
      niche: 'history',
      voice,
      style: 'anime',
    });
    expect(kept.callbacks[0]).toMatchObject({ type: 4, data: { flags: 64 } });
    const step = w.original(kept);
    expect(textOfMessage(step)).toContain('Step 1 of 2 done');
    expect(controlsOf(step)).toEqual(['Continue']);
    expect(postedSeries()).toEqual([]);

    const next = await w.click(step, 'Continue');
    const page2 = modalOf(next);
    expect(page2.title).toBe('New series (2/2)');
    // The intro fits on this page: the first episode is charged.
    expect(page2.components[0]).toMatchObject({ type: 10 });
    expect(labels(page2).map((c) => c.component.custom_id)).toEqual([
      'language',
      'duration',
      'destination',
      'schedule',
    ]);
    expect(values(inputOf(page2, 'language'))).toEqual(catalog('languages'));
    expect(values(inputOf(page2, 'duration'))).toEqual(['30', '60', '90']);
    expect(values(inputOf(page2, 'destination'))).toEqual([
      'youtube',
      'tiktok',
      'instagram',
      'x',
      'facebook',
      'linkedin',
      'threads',
    ]);

    await w.submit(next, {
      language: 'fr',
      duration: '90',
      destination: 'tiktok',
      schedule: 'daily 09:00 Europe/Paris',
    });
    // The cost card first: nothing is created yet.
    const cost = withControl('Create series (20 credits)');
    expect(textOfMessage(cost)).toContain('Night Terrors');
    expect(postedSeries()).toEqual([]);

    await w.click(cost, 'Create series (20 credits)');
    await w.h.until(() => postedSeries().length > 0);
    expect(postedSeries()).toHaveLength(1);
    expect(postedSeries()[0]?.body).toMatchObject({
      name: 'Night Terrors',
      source: 'reddit',
      niche: 'history',
      voice,
      style: 'anime',
      language: 'fr',
      duration: 90,
      destination: 'tiktok',
      autoPostTime: '09:00',
      timezone: 'Europe/Paris',
    });
  });

  it('reopens the page holding the input in error, with every value kept', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    // Discord does not share members' zones: Alice set hers (else she is asked on submit: time-zone.e2e.test.ts).
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
    const opened = await w.slash('series create');
    const kept = await w.submit(opened, { name: 'Money Minute', source: 'news', style: 'comic' });
    const next = await w.click(w.original(kept), 'Continue');
    // A schedule the core cannot read: an error on page 2.
    const failed = await w.submit(next, { schedule: 'every blue moon', duration: '30' });
    const launcher = w.original(failed);
    expect(textOfMessage(launcher)).toMatch(/Schedule/);
    const reopened = await w.click(launcher, 'New series');
    const again = modalOf(reopened);
    expect(again.title).toBe('New series (2/2)');
    expect(inputOf(again, 'schedule')?.value).toBe('every blue moon');
    expect(inputOf(again, 'duration')?.options.find((o: Json) => o.default)?.value).toBe('30');

    await w.submit(reopened, { schedule: 'weekdays 08:30 Europe/Paris', duration: '30' });
    await w.click(withControl('Create series (20 credits)'), 'Create series (20 credits)');
    await w.h.until(() => postedSeries().length > 0);
    // Page 1's values came back from the reopened form's own state.
    expect(postedSeries()[0]?.body).toMatchObject({
      name: 'Money Minute',
      source: 'news',
      style: 'comic',
      duration: 30,
      autoPostTime: '08:30',
    });
  });

  it('registers platform choices, suggests catalog values, and reads advanced options from `more`', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const reel = (w.fake.commands.get(`guild:${IDS.guild}`) ?? []).find((c: Json) => c.name === 'reel');
    const meta = ((reel?.options ?? []) as Json[]).find((o) => o.name === 'meta');
    const platform = ((meta?.options ?? []) as Json[]).find((o) => o.name === 'platform');
    const publish = ((reel?.options ?? []) as Json[]).find((o) => o.name === 'publish');
    const platforms = ((publish?.options ?? []) as Json[]).find((o) => o.name === 'platforms');
    expect(platforms?.autocomplete).toBe(true);
    expect(platform?.choices.map((c: Json) => c.value)).toEqual([
      'youtube',
      'tiktok',
      'instagram',
      'x',
      'facebook',
      'linkedin',
      'threads',
    ]);

    const sources = await w.autocomplete('series create', 'source', 'sto');
    expect(sources.map((c) => c.value)).toEqual(
      OPTIONS.sources.filter((i) => /sto/i.test(`${i.name} ${i.value}`)).map((i) => i.value),
    );
    expect(sources.map((c) => c.value)).toContain('ai_story');
    expect(await w.autocomplete('create', 'style', 'anim')).toEqual([
      { name: 'Anime (anime)', value: 'anime' },
    ]);

    const confirm = await w.slash('series create', {
      name: 'Calm Facts',
      source: 'ai_story',
      more: '--tone calm --privacy unlisted --hashtags "#facts #daily"',
    });
    await w.click(w.answer(confirm), 'Create series (20 credits)');
    await w.h.until(() => postedSeries().length > 0);
    expect(postedSeries()[0]?.body).toMatchObject({
      name: 'Calm Facts',
      tone: 'calm',
      youtubePrivacyStatus: 'unlisted',
      hashtags: '#facts #daily',
    });

    const typo = await w.slash('series create', { name: 'X', source: 'ai_story', more: '--tnoe calm' });
    expect(textOfMessage(w.answer(typo))).toMatch(/tnoe/);
    expect(postedSeries()).toHaveLength(1);
  });

  it('/reel create alone: one modal, the cost card, More options for the scene directives, Create sends them', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const opened = await w.slash('create');
    const modal = modalOf(opened);
    // One modal, not pages: script (typed or as a file), voice, model, language.
    expect(modal.title).toBe('Create a video');
    expect(modal.components).toHaveLength(5);
    expect(labels(modal).map((c) => c.component.custom_id)).toEqual([
      'script',
      'script_file',
      'voice',
      'model',
      'language',
    ]);
    expect(inputOf(modal, 'script_file')).toMatchObject({ type: 19 });
    expect(inputOf(modal, 'voice')).toMatchObject({ type: 3, required: true });
    expect(inputOf(modal, 'model')?.options.map((o: Json) => o.label)).toEqual([
      'storyboard (20 credits)',
      'motion_lite (50 credits)',
      'motion_pro (100 credits)',
    ]);
    const voice = values(inputOf(modal, 'voice'))[0] as string;

    const script = 'Lighthouses were once kept by families who lived at the top of the tower all year long.';
    const submitted = await w.submit(opened, { script, voice, model: 'storyboard' });
    // The submission answers the cost card itself: no "Step 1 of 2", no Continue.
    const ask = w.original(submitted);
    expect(controlsOf(ask)).toEqual(['Create (20 credits)', 'More options', 'Cancel']);
    expect(textOfMessage(ask)).toContain('20 credits');

    const more = await w.click(ask, 'More options');
    const options = modalOf(more);
    expect(options.title).toBe('More options');
    expect(labels(options).map((c) => c.label)).toEqual(['Name', 'Master style', 'Negative prompt']);
    const updated = await w.submit(more, {
      name: 'Keepers',
      'master-style': 'grainy 16mm film',
      negative: 'text, logos',
    });
    // The same card, updated in place: the options shown, the cost unchanged.
    expect(updated.callbacks[0]).toMatchObject({ type: 7 });
    const card = w.fake.messages.get(ask.id) as FakeMessage;
    expect(textOfMessage(card)).toContain('Keepers');
    expect(textOfMessage(card)).toContain('grainy 16mm film');
    expect(controlsOf(card)).toEqual(['Create (20 credits)', 'More options', 'Cancel']);

    // Reopened, the small form holds what was set.
    const again = modalOf(await w.click(card, 'More options'));
    expect(inputOf(again, 'negative')?.value).toBe('text, logos');

    // A copy of the card as it stood (another tab, a reload), before Create closes it.
    const stale = structuredClone(card);
    await w.click(card, 'Create (20 credits)');
    const posted = () => w.h.sim.sim.received({ method: 'POST', path: '/videos' });
    await w.h.until(() => posted().length > 0);
    expect(posted()).toHaveLength(1);
    expect(posted()[0]?.body).toMatchObject({
      script,
      voiceId: voice,
      model: 'storyboard',
      name: 'Keepers',
      masterStyle: 'grainy 16mm film',
      globalNegativePrompt: 'text, logos',
    });

    // The card has acted: its More options, clicked on a stale copy, says so and opens nothing.
    const late = await w.click(stale, 'More options');
    expect((late.callbacks[0] as Json).type).not.toBe(9);
    expect(textOfMessage(w.answer(late))).toContain('Already done');
  });
});
