/**
 * `home`: the dashboard of Slack's App Home, answered privately anywhere as one several-card
 * answer; and the time-zone question where the platform does not share members' zones (Discord): a member
 * with none is asked before a command reads times, the choice is saved and the command runs in that zone.
 * Real core, real simulator over HTTP, real SQLite (test/support/harness.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { COMMON_ZONES, TZ_PICK_ACTION } from '../../../src/core/settings/time-zone-question.js';
import type { Card, Response, Select } from '../../../src/core/text/cards.js';
import { cardText, createHarness, type Harness } from '../../support/harness.js';
import { apiOf, completedVideo } from '../publishing/helpers.js';

const cardsOf = (r: Response): Card[] => (r.kind === 'message' ? [r.card, ...(r.more ?? [])] : []);
const selectOf = (card: Card): Select => {
  const select = card.controls?.find((c): c is Select => c.kind === 'select');
  if (!select) throw new Error(`no select on ${card.title}`);
  return select;
};

describe('home', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(async () => h.close());

  it('answers privately with the dashboard cards: who, credits, videos, calendar, approvals, subscriptions', async () => {
    await completedVideo(h, 'Launch teaser');
    const alice = await h.user('alice', { timeZone: 'Europe/Paris' });
    const r = await h.run('home', alice);
    expect(r).toMatchObject({ kind: 'message', visibility: 'ephemeral' });
    const titles = cardsOf(r).map((c) => c.title);
    expect(titles[0]).toMatch(/^You act as/);
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Credits/),
        'Recent videos',
        expect.stringMatching(/Calendar/),
        'Channel subscriptions',
      ]),
    );
    expect(titles.length).toBeGreaterThanOrEqual(6);
    expect(cardsOf(r).map(cardText).join('\n')).toContain('Launch teaser');
    // In a conversation its video buttons answer right there, not in a DM (that is Slack's Home tab).
    const videos = cardsOf(r).find((c) => c.title === 'Recent videos');
    const labels = (videos?.sections ?? []).flatMap((s) =>
      (s.controls ?? []).map((c) => (c.kind === 'select' ? c.placeholder : c.label)),
    );
    expect(labels).toEqual(expect.arrayContaining(['Render', 'Schedule', 'Show here']));
    expect(labels).not.toContain('Show in DM');
    // Nothing was posted in the channel: it is the member's own view.
    expect(h.chat.channelMessages).toEqual([]);
  });

  it('for a member with no key: the link card and the subscriptions, not five copies of the error', async () => {
    const dana = await h.user('dana', { key: null });
    const cards = cardsOf(await h.run('home', dana));
    expect(cards.map((c) => c.title)).toHaveLength(2);
    expect(cards[0]?.tone).toBe('danger');
    expect(cards[1]?.title).toBe('Channel subscriptions');
  });
});

describe('the time-zone question (a platform that does not share zones)', () => {
  let h: Harness;
  let bob: RequestInfo;
  beforeEach(async () => {
    h = await createHarness({ platform: 'discord' });
    bob = { ...(await h.user('bob')), sharesTimeZones: false };
  });
  afterEach(async () => h.close());

  const choose = async (question: Response, zone: string) => {
    const card = cardsOf(question)[0] as Card;
    const option = selectOf(card).options.find((o) => o.label === zone);
    if (!option) throw new Error(`no ${zone} option`);
    return await h.click(TZ_PICK_ACTION, option.value, bob, option.value);
  };

  it('asks before scheduling, saves the choice, then schedules in that zone', async () => {
    const videoId = await completedVideo(h, 'Launch teaser');
    await apiOf(h).videos.update(videoId, { posts: { youtube: { title: 'Teaser' } } });
    const question = await h.run(`schedule ${videoId} youtube tomorrow 9am`, bob);
    const card = cardsOf(question)[0] as Card;
    expect(card.title).toBe('Which time zone are you in?');
    expect(question).toMatchObject({ kind: 'message', visibility: 'ephemeral' });
    expect(selectOf(card).options.map((o) => o.label)).toEqual(COMMON_ZONES);
    expect(COMMON_ZONES.length).toBeLessThanOrEqual(25);
    // Nothing was scheduled, nothing saved yet.
    expect(await h.store.users.getTimeZone(bob.user)).toBeUndefined();
    expect(await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' })).toEqual([]);

    const done = await choose(question, 'Europe/Paris');
    expect(await h.store.users.getTimeZone(bob.user)).toBe('Europe/Paris');
    expect(done.kind).toBe('update');
    expect(done.kind === 'update' && cardText(done.card)).toContain('Your time zone is now Europe/Paris');
    const [entry] = await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' });
    expect(entry).toMatchObject({ projectId: videoId, platform: 'youtube', status: 'scheduled' });
    // 9am in Paris on Tue 24 Nov 2026 is 08:00 UTC.
    expect(Date.parse(String(entry?.scheduledTime))).toBe(Date.parse('2026-11-24T08:00:00Z'));

    // Asked once: the next command reads times in the saved zone straight away.
    const calendar = await h.run('calendar', bob);
    expect(cardsOf(calendar)[0]?.title).not.toBe('Which time zone are you in?');
  });

  it('asks before the dashboard (its week is the member’s), not for commands that only show times', async () => {
    expect(cardsOf(await h.run('home', bob))[0]?.title).toBe('Which time zone are you in?');
    expect(cardsOf(await h.run('credits', bob))[0]?.title).toMatch(/^Credits/);
  });

  it('uses the channel’s default zone when it has one, and never asks where the platform shares zones', async () => {
    const slackLike = { ...bob, sharesTimeZones: true };
    expect(cardsOf(await h.run('calendar', slackLike))[0]?.title).not.toBe('Which time zone are you in?');
    await h.store.settings.put(bob.conversation, {
      ...(await h.store.settings.get(bob.conversation)),
      timeZone: 'Asia/Tokyo',
    });
    const calendar = await h.run('calendar', bob);
    expect(cardsOf(calendar)[0]?.title).not.toBe('Which time zone are you in?');
    expect(cardText(cardsOf(calendar)[0] as Card)).toContain('Asia/Tokyo');
  });

  it('refuses a stale or forged choice with a clear message and saves nothing', async () => {
    const r = await h.click(TZ_PICK_ACTION, '~gone', bob, '~gone');
    expect(cardText(cardsOf(r)[0] as Card)).toMatch(/no longer valid/);
    const forged = await h.click(
      TZ_PICK_ACTION,
      'Mars/Base|{"c":"calendar","a":{}}',
      bob,
      'Mars/Base|{"c":"calendar","a":{}}',
    );
    expect(cardsOf(forged)[0]?.tone).toBe('danger');
    expect(await h.store.users.getTimeZone(bob.user)).toBeUndefined();
  });
});
