/** `series list|show|edit|pause|resume|episodes|delete` and their buttons, end to end. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY, textOf } from '../../support/harness.js';
import {
  button,
  card,
  confirmed,
  DAY,
  hasButton,
  idFrom,
  mutations,
  type SeriesHarness,
  seriesHarness,
} from './helpers.js';

let h: SeriesHarness;
beforeEach(async () => {
  h = await seriesHarness();
});
afterEach(() => h.close());

const create = async (rest: string) => idFrom(await confirmed(h, h.run(`series create ${rest}`)));

describe('series list', () => {
  it('has a helpful empty state', async () => {
    const response = await h.run('series list');
    expect(textOf(response)).toContain('No series yet');
    expect(textOf(response)).toContain('/reel series create');
  });

  it('lists every series with its state, niche and source', async () => {
    const a = await create('"Night Terrors" --source ai_story --niche scary_stories');
    const b = await create('"Money Minute" --source news --niche personal_finance');
    await h.api.series.update(b, { paused: true });
    const text = textOf(await h.run('series list'));
    expect(text).toContain('Series (2)');
    expect(text).toMatch(
      new RegExp(`\\*\\*Night Terrors\\*\\* — ▶️ active · Scary stories · source AI-written story · \`${a}\``),
    );
    expect(text).toMatch(
      new RegExp(`\\*\\*Money Minute\\*\\* — ⏸️ paused · Personal finance · source Trending news · \`${b}\``),
    );
    expect(text).toContain('1 active · 1 paused');
  });
});

describe('series show', () => {
  it('shows the configuration with the voice name, the schedule in words and the next post', async () => {
    await h.user('alice', { timeZone: 'America/New_York' });
    const id = await create(
      '"Night Terrors" --source ai_story --voice voice_camille_fr --schedule "daily 21:00 Europe/Paris" --model motion_pro --tone eerie',
    );
    const response = await h.run('series show night');
    const text = textOf(response);
    expect(text).toContain('Voice: Camille');
    expect(text).toContain('Model: Motion Pro · 100 credits per episode');
    expect(text).toContain('Schedule: Every day at 21:00 (Europe/Paris)');
    // Monday 08:00 UTC: the next slot is Monday 21:00 in Paris, 15:00 in New York.
    expect(text).toContain(
      'Next post: Mon 23 Nov 2026, 21:00 (Europe/Paris) · Mon 23 Nov 2026, 15:00 (America/New_York) your time',
    );
    expect(text).toContain('Tone: eerie');
    expect(button(response, 'series.pause').value).toBe(id);
    expect(button(response, 'series.generate').value).toBe(id);
  });

  it('accepts `last` and says when nothing matches', async () => {
    const id = await create('Facts --source wikipedia');
    expect(textOf(await h.run('series show last'))).toContain(`id \`${id}\``);
    expect(textOf(await h.run('series show nothing-like-it'))).toContain(
      'No series matches `nothing-like-it`',
    );
  });
});

describe('series edit', () => {
  it('changes only the fields given', async () => {
    const id = await create(
      '"Night Terrors" --source ai_story --niche scary_stories --schedule "daily 21:00 Europe/Paris"',
    );
    const before = await h.api.series.get(id);
    const response = await confirmed(
      h,
      h.run('series edit "Night Terrors" --time 18:00 --model motion_lite --voice Oliver'),
    );
    // The cost card becomes the outcome; the channel is told through the outbox (one-shot.ts).
    expect(response.kind).toBe('update');
    expect(h.chat.channelMessages.filter((p) => p.card.title === card(response).title)).toHaveLength(1);
    const text = textOf(response);
    expect(text).toContain('posting time → 18:00');
    expect(text).toContain('model → motion_lite (50 credits per episode from the next one)');
    expect(text).toContain('voice → Oliver');
    const after = await h.api.series.get(id);
    expect(after).toEqual({
      ...before,
      autoPostTime: '18:00',
      brollModel: 'motion_lite',
      voice: 'voice_oliver_en',
    });
  });

  it('renames, sets days (daily = all seven), zone and pauses', async () => {
    const id = await create('Facts --source wikipedia --days mon');
    await h.run(`series edit ${id} --name "Daily Facts" --days daily --timezone asia/tokyo --paused yes`);
    expect(await h.api.series.get(id)).toMatchObject({
      name: 'Daily Facts',
      postingDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
      timezone: 'Asia/Tokyo',
      paused: true,
    });
    expect(textOf(await h.run(`series show ${id}`))).toContain('Schedule: Every day at 09:00 (Asia/Tokyo)');
  });

  it.each([
    ['', 'Tell me what to change'],
    ['--time 9', "`9` isn't a posting time"],
    ['--days someday', "`someday` isn't a weekday"],
    ['--duration 120', "`120` isn't a valid `duration`"],
    ['--style vaporwave', "`vaporwave` isn't a known style"],
  ])('refuses `%s` with usage and changes nothing', async (flags, expected) => {
    const id = await create('Facts --source wikipedia');
    const before = await h.api.series.get(id);
    h.calls.length = 0;
    const c = card(await h.run(`series edit ${id} ${flags}`));
    expect(c.text).toContain(expected);
    expect(c.fields?.[0]?.label).toBe('Usage');
    expect(mutations(h)).toEqual([]);
    expect(await h.api.series.get(id)).toEqual(before);
  });
});

describe('series pause / resume', () => {
  it('pauses and resumes, by command and by button, telling the channel', async () => {
    const id = await create('"Night Terrors" --source ai_story --time 21:00 --timezone UTC');
    const paused = await h.run('series pause night');
    expect(paused.kind === 'message' && paused.visibility).toBe('channel');
    expect(textOf(paused)).toContain('⏸️ Paused “Night Terrors”');
    expect(textOf(paused)).toContain('Paused by alice');
    expect((await h.api.series.get(id)).paused).toBe(true);
    expect(textOf(await h.run('series show night'))).toContain('Status: ⏸️ Paused');

    const resumed = await confirmed(h, h.click('series.resume', button(paused, 'series.resume').value));
    expect(textOf(resumed)).toContain('▶️ Resumed “Night Terrors”');
    expect(textOf(resumed)).toContain('Next post:** Mon 23 Nov 2026, 21:00 (UTC)');
    expect((await h.api.series.get(id)).paused).toBe(false);

    await h.click('series.pause', id);
    expect((await h.api.series.get(id)).paused).toBe(true);
    await confirmed(h, h.run(`series resume ${id}`));
    expect((await h.api.series.get(id)).paused).toBe(false);
  });
});

describe('series episodes', () => {
  it('lists episodes newest first with status, time in the caller zone and video id, page by page', async () => {
    await h.user('alice', { timeZone: 'Europe/Paris' });
    const id = await create('"Night Terrors" --source ai_story --schedule "daily 09:00 UTC"');
    // One episode a day (each charged 20): twelve days make thirteen episodes.
    for (let d = 0; d < 12; d++) {
      h.clock.advance(DAY);
      h.sim.sim.settle();
    }
    const { items, pagination } = await h.api.series.episodes(id, { page: 1, limit: 100 });
    expect(pagination.total).toBe(13);

    const first = await h.run('series episodes night');
    const text = textOf(first);
    expect(text).toContain('Episodes of “Night Terrors”');
    expect(text).toContain('Page 1 of 2 · 13 episodes · times in Europe/Paris');
    const lines = (card(first).sections ?? []).map((s) => s.text ?? '');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toContain(`video \`${items[0]?.projectId}\``);
    const open = card(first).sections?.[0]?.controls?.[0];
    expect(open).toEqual({ kind: 'button', action: 'video.show', value: items[0]?.projectId, label: 'Open' });
    expect(textOf(await h.click('video.show', items[0]?.projectId as string))).toContain(
      'Night Terrors — Episode 13',
    );
    expect(lines.at(-1)).toContain('✅ **posted**');
    // 09:00 UTC is 10:00 in Paris.
    expect(lines[0]).toMatch(/10:00/);
    expect(hasButton(first, 'series.episodes.page')).toBe(true);
    expect(card(first).controls?.map((c) => (c.kind === 'select' ? c.placeholder : c.label))).toEqual([
      'Older →',
    ]);

    const older = await h.click('series.episodes.page', button(first, 'series.episodes.page').value);
    expect(older.kind).toBe('update');
    expect(textOf(older)).toContain('Page 2 of 2');
    expect(card(older).sections).toHaveLength(3);
    expect(card(older).controls?.map((c) => (c.kind === 'select' ? c.placeholder : c.label))).toEqual([
      '← Newer',
    ]);

    expect(textOf(await h.run('series episodes night --page 2'))).toContain('Page 2 of 2');
    expect(textOf(await h.run('series episodes night --page 5'))).toContain(
      'There is no page 5: 13 episodes fit on 2 pages.',
    );
    expect(card(await h.run('series episodes night --page 0')).text).toContain('`page` must be between 1');
  });

  it('says how to get a first episode when there are none', async () => {
    // A team without credits: the first episode is skipped, nothing is charged.
    h.sim.sim.grantCredits(DEMO_KEY, -500, 'test drain');
    const created = await confirmed(h, h.run('series create Empty --source ai_story'));
    expect(card(created).tone).toBe('warning');
    expect(textOf(created)).toContain('Your team has **0** credits and an episode costs **20** (Storyboard)');
    const id = idFrom(created);
    expect(textOf(await h.run(`series episodes ${id}`))).toContain(`No episodes yet`);
    expect(textOf(await h.run(`series episodes ${id}`))).toContain(`/reel series generate ${id}`);
  });
});

describe('series delete', () => {
  it('asks first (danger, videos kept), then deletes and stops following here', async () => {
    const id = await create('"Night Terrors" --source ai_story');
    const ask = await h.run('series delete night');
    const c = card(ask);
    expect(c.tone).toBe('danger');
    expect(c.text).toContain('The 1 video it already generated is kept');
    expect(button(ask, 'series.delete.confirm').style).toBe('danger');
    expect(mutations(h).filter((m) => m === 'series.delete')).toEqual([]);

    const cancelled = await h.click('series.delete.cancel', button(ask, 'series.delete.cancel').value);
    expect(textOf(cancelled)).toContain('Not deleted');
    expect(await h.api.series.list()).toHaveLength(1);

    // That card was answered; its Delete now only says so. A new question deletes.
    const late = await h.click('series.delete.confirm', button(ask, 'series.delete.confirm').value);
    expect(textOf(late)).toContain(': Not deleted. This card no longer acts.');
    expect(await h.api.series.list()).toHaveLength(1);
    const again = await h.run('series delete night');
    const done = await h.click('series.delete.confirm', button(again, 'series.delete.confirm').value);
    expect(done.kind).toBe('update');
    expect(textOf(done)).toContain('Deleted series “Night Terrors”');
    expect(textOf(done)).toContain('Videos it already generated are kept');
    expect(await h.api.series.list()).toEqual([]);
    expect(await h.store.watches.findActive('series', id)).toBeUndefined();
    expect(await h.store.subscriptions.list(h.conversation)).toEqual([]);
    const { items } = await h.api.videos.list();
    expect(items).toHaveLength(1);

    // A second click (or a stale card) does nothing harmful.
    expect(textOf(await h.click('series.delete.confirm', id))).toContain('Already deleted');
  });
});
