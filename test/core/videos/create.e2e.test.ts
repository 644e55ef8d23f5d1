/** `create`: pricing before charging, the form, every class of bad input (answered with usage, nothing sent). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CREATE_FORM_ID } from '../../../src/core/commands/videos/create-form.js';
import type { Form } from '../../../src/core/text/cards.js';
import { DEMO_KEY, textOf } from '../../support/harness.js';
import {
  button,
  buttons,
  card,
  idFrom,
  MINUTE,
  type VideosHarness,
  videosHarness,
  writes,
} from './helpers.js';

let h: VideosHarness;
const NARROW_KEY = 'fl_live_narrow_team_key_0123456789abcd';
beforeEach(async () => {
  h = await videosHarness({
    teams: [
      { name: 'Poor Team', credits: 30, keys: [{ key: 'fl_live_poor_team_key_0123456789abcdef' }] },
      { name: 'Narrow Team', keys: [{ key: NARROW_KEY, scopes: ['videos:read', 'videos:write'] }] },
    ],
  });
});
afterEach(() => h.close());

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);
const SCRIPT = 'Octopuses have three hearts and blue blood.';

function formOf(response: Awaited<ReturnType<VideosHarness['run']>>): Form {
  if (response.kind !== 'form') throw new Error(`expected a form, got ${JSON.stringify(response)}`);
  return response.form;
}

describe('the confirm card', () => {
  it('shows cost, balance, voice and options, and sends nothing before Create', async () => {
    const c = card(
      await h.run(`create --voice marcus --style Cinematic --language English --music --name Octo ${SCRIPT}`),
    );
    expect(c.title).toBe('Create “Octo”?');
    expect(c.text).toBe('Create “Octo” with Storyboard: **20 credits**, balance 500 → 480.');
    const fields = Object.fromEntries((c.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({
      Voice: 'Marcus · en · male',
      // By the names the form shows (labels.ts), never the catalog values.
      Model: 'Storyboard',
      Language: 'English',
      Style: 'Cinematic',
      Music: 'on',
    });
    expect(fields[`Script (${SCRIPT.length} characters)`]).toBe(SCRIPT);
    expect(writes(h)).toEqual([]);

    const id = idFrom(card(await h.click('video.create.confirm', button(c, 'video.create.confirm').value)));
    const sent = h.calls.find((x) => x.name === 'videos.create')?.args[0];
    expect(sent).toEqual({
      script: SCRIPT,
      voiceId: 'voice_marcus_en',
      model: 'storyboard',
      name: 'Octo',
      style: 'cinematic',
      language: 'en',
      enableBackgroundMusic: true,
    });
    expect((await h.api.videos.get(id)).name).toBe('Octo');
  });

  it('picks the first recommended voice of the language by default', async () => {
    const c = card(await h.run(`create --language es Los pulpos tienen tres corazones.`));
    expect(c.fields?.find((f) => f.label === 'Voice')?.value).toBe('Lucía · es · female');
    const d = card(await h.run(`create ${SCRIPT}`));
    expect(d.fields?.find((f) => f.label === 'Voice')?.value).toBe('Aria · en · female');
    // Without a name the card shows what the service will call it: the start of the script.
    expect(d.title).toBe(`Create “${SCRIPT}”?`);
  });

  it('accepts a voice id, and a voice name within a language', async () => {
    const c = card(await h.run(`create --voice voice_haruto_ja ${SCRIPT}`));
    expect(c.fields?.find((f) => f.label === 'Voice')?.value).toBe('Haruto · ja · male');
    const d = card(await h.run(`create --voice ARIA --language fr ${SCRIPT}`));
    expect(d.fields?.find((f) => f.label === 'Voice')?.value).toBe('Aria · en · female');
  });

  it('Cancel charges nothing, and a later Create on the same card does nothing', async () => {
    const c = card(await h.run(`create ${SCRIPT}`));
    const value = button(c, 'video.create.cancel').value;
    expect(textOf(await h.click('video.create.cancel', value))).toContain('Nothing was charged');
    const late = await h.click('video.create.confirm', value);
    expect(textOf(late)).toContain('Already done by');
    expect(textOf(late)).toContain(': Not created: “');
    expect(writes(h)).toEqual([]);
    expect(spends()).toEqual([]);
  });

  it('only the requester can press Create', async () => {
    const c = card(await h.run(`create ${SCRIPT}`));
    const bob = await h.user('bob');
    const r = await h.click('video.create.confirm', button(c, 'video.create.confirm').value, bob);
    expect(textOf(r)).toContain('Only alice can answer this confirmation');
    expect(writes(h)).toEqual([]);
  });

  it('a confirmation older than 30 minutes asks again', async () => {
    const c = card(await h.run(`create ${SCRIPT}`));
    h.clock.advance(31 * MINUTE);
    const r = await h.click('video.create.confirm', button(c, 'video.create.confirm').value);
    expect(textOf(r)).toContain('more than 30 minutes old');
    expect(writes(h)).toEqual([]);
  });

  it('a stale or forged button value is answered, not crashed on', async () => {
    expect(textOf(await h.click('video.create.confirm', 'nope'))).toContain('no longer valid');
  });
});

describe('credits', () => {
  it('says up front when the balance cannot pay, with cost and balance, and creates nothing', async () => {
    const poor = await h.user('pat', { key: 'fl_live_poor_team_key_0123456789abcdef' });
    const r = await h.run(`create --model motion_lite ${SCRIPT}`, poor);
    expect(textOf(r)).toContain('this costs 50 and your team has 30');
    expect(writes(h)).toEqual([]);
    expect(h.sim.sim.ledger('Poor Team').filter((e) => e.credits < 0)).toEqual([]);
  });

  it('a 402 at Create (balance spent meanwhile) shows cost and current balance; nothing is created', async () => {
    const c = card(await h.run(`create --model motion_pro ${SCRIPT}`));
    h.sim.sim.grantCredits(DEMO_KEY, -450, 'Spent elsewhere');
    const r = await h.click('video.create.confirm', button(c, 'video.create.confirm').value);
    expect(textOf(r)).toContain('this costs 100 and your team has 50');
    expect(spends().map((e) => e.credits)).toEqual([-450]);
    expect((await h.api.videos.list()).items).toEqual([]);
    expect(h.chat.posts).toEqual([]);
    expect(await h.store.watches.active()).toEqual([]);
  });

  it('a spend-approval channel sends expensive creates to an approver instead of charging', async () => {
    const settings = await h.store.settings.get(h.conversation);
    await h.store.settings.put(h.conversation, { ...settings, approval: 'spend', spendThreshold: 50 });
    const c = card(await h.run(`create --model motion_pro ${SCRIPT}`));
    expect(c.context).toContain('needs an approver for spending over 50 credits');
    await h.click('video.create.confirm', button(c, 'video.create.confirm').value);
    expect(writes(h)).toEqual([]);
    expect(spends()).toEqual([]);
    // At or under the threshold it goes ahead as usual.
    const cheap = card(await h.run(`create --model motion_lite ${SCRIPT}`));
    expect(button(cheap, 'video.create.confirm').label).toBe('Create (50 credits)');
  });
});

describe('More options on the confirm card', () => {
  it('sets name and scene directives in a small form, updates the same card, and Create sends them once', async () => {
    const c = card(await h.run(`create ${SCRIPT}`));
    expect(buttons(c).map((b) => b.label)).toEqual(['Create (20 credits)', 'More options', 'Cancel']);
    const id = button(c, 'video.create.confirm').value;
    expect(button(c, 'video.create.options').value).toBe(id);

    const form = formOf(await h.click('video.create.options', id));
    expect(form.id).toBe('video.create.options');
    expect(form.state).toBe(id);
    expect(form.inputs.map((i) => [i.id, i.initial])).toEqual([
      ['name', undefined],
      ['master-style', undefined],
      ['negative', undefined],
    ]);

    // Someone else cannot change another member's request.
    const bob = await h.user('bob');
    expect(textOf(await h.click('video.create.options', id, bob))).toContain('Only');
    expect(textOf(await h.submit(form.id, form.state, { name: 'Mine' }, bob))).toContain('Only');

    // Too long a name is answered on its input; nothing changes.
    expect(await h.submit(form.id, form.state, { name: 'n'.repeat(121) })).toEqual({
      kind: 'form-errors',
      errors: { name: expect.stringContaining('1 over its limit of 120') },
    });

    const updated = await h.submit(form.id, form.state, {
      name: 'Octo',
      'master-style': 'grainy 16mm film',
      negative: 'text, logos',
    });
    // The same card, in place: the same request and cost, the options shown.
    expect(updated.kind).toBe('update');
    const u = card(updated);
    expect(u.title).toBe('Create “Octo”?');
    expect(u.text).toBe('Create “Octo” with Storyboard: **20 credits**, balance 500 → 480.');
    const fields = Object.fromEntries((u.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({ 'Master style': 'grainy 16mm film', Avoid: 'text, logos' });
    expect(button(u, 'video.create.confirm').value).toBe(id);

    // Reopened, prefilled; an input emptied drops its option.
    const again = formOf(await h.click('video.create.options', id));
    expect(again.inputs.map((i) => i.initial)).toEqual(['Octo', 'grainy 16mm film', 'text, logos']);
    card(
      await h.submit(again.id, again.state, {
        name: 'Octo',
        'master-style': 'grainy 16mm film',
        negative: '',
      }),
    );
    expect(writes(h)).toEqual([]);

    await h.click('video.create.confirm', id);
    expect(h.calls.filter((x) => x.name === 'videos.create').map((x) => x.args[0])).toEqual([
      {
        script: SCRIPT,
        voiceId: 'voice_aria_en',
        model: 'storyboard',
        name: 'Octo',
        masterStyle: 'grainy 16mm film',
      },
    ]);

    // The card has acted: More options, and a form still open, say so and change nothing.
    expect(textOf(await h.click('video.create.options', id))).toContain('Already done');
    expect(textOf(await h.submit(again.id, again.state, { negative: 'late' }))).toContain('Already done');
    await h.click('video.create.confirm', id);
    expect(writes(h)).toEqual(['videos.create']);
  });

  it('keeps the Request approval label, and changes nothing once an approver has been asked', async () => {
    const bob = await h.user('bob');
    const settings = await h.store.settings.get(h.conversation);
    await h.store.settings.put(h.conversation, {
      ...settings,
      approval: 'spend',
      spendThreshold: 50,
      approvers: [bob.user],
    });
    const c = card(await h.run(`create --model motion_pro ${SCRIPT}`));
    const id = button(c, 'video.create.confirm').value;
    const form = formOf(await h.click('video.create.options', id));
    const u = card(await h.submit(form.id, form.state, { 'master-style': 'grainy 16mm film' }));
    expect(button(u, 'video.create.confirm').label).toBe('Request approval (100 credits)');
    expect(u.context).toContain('needs an approver');

    expect(card(await h.click('video.create.confirm', id)).title).toContain('approval');
    // The request the approver sees is the one asked: a form still open cannot change it any more.
    expect(textOf(await h.submit(form.id, form.state, { 'master-style': 'neon' }))).toContain('Already done');
    const stored = (await h.store.cards.get(`create-request:${id}`))?.model as { input?: object };
    expect(stored.input).toMatchObject({ masterStyle: 'grainy 16mm film' });
    expect(writes(h)).toEqual([]);
  });

  it('refuses an expired request from the form', async () => {
    const id = button(card(await h.run(`create ${SCRIPT}`)), 'video.create.confirm').value;
    const form = formOf(await h.click('video.create.options', id));
    await h.advance(31 * MINUTE);
    expect(textOf(await h.submit(form.id, form.state, { name: 'Late' }))).toContain('30 minutes');
    expect(writes(h)).toEqual([]);
  });
});

describe('a key without catalog:read', () => {
  it('still creates with a voice id, priced from the documented cost table', async () => {
    const nat = await h.user('nat', { key: NARROW_KEY });
    // No catalog:read: the model is named in words all the same (humanised, labels.ts).
    const c = card(await h.run(`create --voice voice_marcus_en --model motion_lite ${SCRIPT}`, nat));
    expect(c.text).toContain('with Motion lite: **50 credits**, balance 500 → 450');
    const id = idFrom(
      card(await h.click('video.create.confirm', button(c, 'video.create.confirm').value, nat)),
    );
    // Another team's video: the demo team does not see it.
    expect((await h.api.videos.list()).items).toEqual([]);
    expect(h.sim.sim.chargesFor(id).map((e) => e.credits)).toEqual([-50]);
  });

  it('names the missing scope when no voice is given', async () => {
    const nat = await h.user('nat', { key: NARROW_KEY });
    expect(textOf(await h.run(`create ${SCRIPT}`, nat))).toContain('`catalog:read`');
    expect(writes(h)).toEqual([]);
  });
});

describe('the form', () => {
  it('opens when the script is missing, prefilled from the flags', async () => {
    const form = formOf(
      await h.run('create --voice marcus --model motion_lite --language es --style anime --music'),
    );
    expect(form.id).toBe(CREATE_FORM_ID);
    // The common inputs only, one Discord modal's worth: the rest is "More options" on the confirm card.
    expect(form.inputs.map((i) => i.id)).toEqual(['script', 'script_file', 'voice', 'model', 'language']);
    const voice = form.inputs.find((i) => i.id === 'voice');
    expect(voice).toMatchObject({ kind: 'select', initial: 'voice_marcus_en' });
    const model = form.inputs.find((i) => i.id === 'model');
    expect(model).toMatchObject({ initial: 'motion_lite' });
    expect(model?.kind === 'select' && model.options.map((o) => o.label)).toEqual([
      'storyboard (20 credits)',
      'motion_lite (50 credits)',
      'motion_pro (100 credits)',
    ]);
    expect(form.inputs.find((i) => i.id === 'language')).toMatchObject({ initial: 'es' });
    expect(JSON.parse(form.state)).toEqual({ style: 'anime', music: true });
    expect(writes(h)).toEqual([]);

    // Inline errors keep the form open.
    const short = await h.submit(form.id, form.state, {
      script: 'Too short',
      voice: 'voice_marcus_en',
      model: 'motion_lite',
    });
    expect(short).toEqual({
      kind: 'form-errors',
      errors: { script: expect.stringContaining('at least 10') },
    });
    const wrongVoice = await h.submit(form.id, form.state, {
      script: SCRIPT,
      voice: 'voice_zelda',
      model: 'motion_lite',
    });
    expect(wrongVoice).toEqual({
      kind: 'form-errors',
      errors: { voice: expect.stringContaining('No voice matches') },
    });

    // A good submission leads to the same confirm card, style and music included.
    const c = card(
      await h.submit(form.id, form.state, {
        script: SCRIPT,
        voice: 'voice_marcus_en',
        model: 'motion_lite',
        language: 'es',
      }),
    );
    expect(c.text).toContain('with Motion Lite: **50 credits**, balance 500 → 450');
    expect(c.fields?.find((f) => f.label === 'Style')?.value).toBe('Anime');
    expect(writes(h)).toEqual([]);
  });

  it('keeps a name and scene directives typed as flags for the confirm card', async () => {
    const form = formOf(await h.run('create --name Octo --master-style "grainy 16mm film" --negative logos'));
    const c = card(
      await h.submit(form.id, form.state, { script: SCRIPT, voice: 'voice_marcus_en', model: 'storyboard' }),
    );
    expect(c.title).toBe('Create “Octo”?');
    const fields = Object.fromEntries((c.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({ 'Master style': 'grainy 16mm film', Avoid: 'logos' });
  });

  it('shows an unaffordable model inline on the model field', async () => {
    const poor = await h.user('pat', { key: 'fl_live_poor_team_key_0123456789abcdef' });
    const form = formOf(await h.run('create', poor));
    const r = await h.submit(
      form.id,
      form.state,
      { script: SCRIPT, voice: 'voice_aria_en', model: 'motion_pro' },
      poor,
    );
    expect(r).toEqual({ kind: 'form-errors', errors: { model: expect.stringContaining('costs 100') } });
  });
});

describe('bad input: usage and example, nothing sent', () => {
  const cases: [string, string][] = [
    [`create --model motion_ultra ${SCRIPT}`, "`motion_ultra` isn't a valid `model`"],
    ['create Too short', 'Script is 9 characters; it needs at least 10.'],
    [`create ${'x'.repeat(10_001)}`, 'Script is 10,001 characters, 1 over its limit of 10,000.'],
    [`create --name ${'n'.repeat(121)} ${SCRIPT}`, 'Name is 121 characters, 1 over its limit of 120.'],
    [`create --colour red ${SCRIPT}`, '`create` has no option `--colour`'],
    [`create --voice Zelda ${SCRIPT}`, 'No voice matches `Zelda`'],
    [`create --voice l ${SCRIPT}`, 'matches several voices'],
    [`create --voice aria --language de ${SCRIPT}`, 'No voice speaking `de` matches `aria`'],
    [`create --style vaporwave ${SCRIPT}`, "`vaporwave` isn't a valid `style`"],
    [`create --language klingon ${SCRIPT}`, "`klingon` isn't a valid `language`"],
  ];
  for (const [text, expected] of cases) {
    it(text.slice(0, 60), async () => {
      const r = await h.run(text);
      const c = card(r);
      expect(c.tone).toBe('danger');
      expect(c.text).toContain(expected);
      expect(c.fields?.map((f) => f.label)).toEqual(['Usage', 'Example']);
      expect(writes(h)).toEqual([]);
    });
  }
});
