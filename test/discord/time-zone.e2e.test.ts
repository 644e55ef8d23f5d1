/**
 * The time-zone question on Discord, through the REAL discord.js client against the fake Discord.
 * Discord does not share members' zones (`sharesTimeZones: false`): a member who has set none and runs a
 * command that reads times gets, privately, a select of common zones instead of a silent UTC; choosing
 * "Europe/Paris" saves it and runs the command in that zone (the simulator receives 9am Paris as 08:00 UTC).
 * On both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import type { FakeMessage } from './fake-discord.js';
import { controlsIn, textOf, titleOf } from './read-message.js';
import { discordWorld, type Json, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const QUESTION = 'Which time zone are you in?';
const PLACEHOLDER = 'Choose your time zone…';

/** The value of the question's option labelled `zone`, as Discord sent it (a short stand-in when long). */
function optionValue(question: FakeMessage, zone: string): string {
  const select = controlsIn(question).find((c) => c.type === 3) as Json | undefined;
  const option = (select?.options as Json[] | undefined)?.find((o) => o.label === zone);
  if (!option) throw new Error(`no ${zone} option on the question`);
  expect(String(option.value).length).toBeLessThanOrEqual(100);
  return String(option.value);
}

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('asks before scheduling; Europe/Paris is saved and the post scheduled at 9am Paris time', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const { h, fake } = w;
    const videoId = await completedVideo(h, 'Launch teaser');
    await apiOf(h).videos.update(videoId, { posts: { youtube: { title: 'Teaser' } } });

    const asked = await w.slash('schedule', { video: videoId, platforms: 'youtube', when: 'tomorrow 9am' });
    const question = w.original(asked);
    expect(titleOf(question)).toBe(QUESTION);
    expect(question.flags & 64).toBe(64);
    const select = controlsIn(question).find((c) => c.type === 3) as Json;
    expect(select.placeholder).toBe(PLACEHOLDER);
    const labels = (select.options as Json[]).map((o) => o.label);
    expect(labels).toEqual(
      expect.arrayContaining(['UTC', 'Europe/London', 'Europe/Paris', 'America/New_York']),
    );
    expect(labels.length).toBeGreaterThanOrEqual(20);
    expect(labels.length).toBeLessThanOrEqual(25);
    // Nothing was scheduled and nothing saved: no silent UTC.
    expect(await h.store.users.getTimeZone(w.address('alice'))).toBeUndefined();
    expect(await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' })).toEqual([]);

    const chosen = await w.click(question, PLACEHOLDER, 'alice', [optionValue(question, 'Europe/Paris')]);
    expect(await h.store.users.getTimeZone(w.address('alice'))).toBe('Europe/Paris');
    // The private question is replaced by the command's answer, in the chosen zone.
    expect(chosen.callbacks[0]).toMatchObject({ type: 7 });
    const answer = textOf(fake.messages.get(question.id) as FakeMessage);
    expect(answer).toContain('09:00 Europe/Paris (08:00 UTC)');
    expect(answer).toContain('Your time zone is now Europe/Paris');
    // What the simulator received: 9am in Paris on Tue 24 Nov 2026 is 08:00 UTC.
    const [entry] = await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' });
    expect(entry).toMatchObject({ projectId: videoId, platform: 'youtube', status: 'scheduled' });
    expect(Date.parse(String(entry?.scheduledTime))).toBe(Date.parse('2026-11-24T08:00:00Z'));

    // Asked once: the calendar now answers straight away, in Paris time.
    const calendar = await w.slash('calendar');
    expect(titleOf(w.answer(calendar))).not.toBe(QUESTION);
    expect(textOf(w.answer(calendar))).toContain('Europe/Paris');
  }, 60_000);

  it('asks on the Schedule button of a video card, then opens its form; times are read in the chosen zone', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const { h, fake } = w;
    const videoId = await completedVideo(h, 'Launch teaser');
    await apiOf(h).videos.update(videoId, { posts: { youtube: { title: 'Teaser' } } });
    await w.slash('status', { video: videoId });
    await h.flush();
    const card = fake.channelMessages().find((m) => controlsIn(m).some((c) => c.label === 'Schedule'));
    if (!card) throw new Error('no video card with a Schedule button in the channel');

    const asked = await w.click(card, 'Schedule');
    const question = w.answer(asked);
    expect(titleOf(question)).toBe(QUESTION);
    expect(question.flags & 64).toBe(64);
    const form = await w.click(question, PLACEHOLDER, 'alice', [optionValue(question, 'America/New_York')]);
    expect(await h.store.users.getTimeZone(w.address('alice'))).toBe('America/New_York');
    // The click the question stood for runs again: the schedule form opens (a modal answers the select).
    expect(form.callbacks[0]).toMatchObject({ type: 9, data: { title: 'Schedule a post' } });
    await w.submit(form, { platforms: 'youtube', when: 'tomorrow 9am' });
    const [entry] = await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' });
    // 9am in New York on Tue 24 Nov 2026 is 14:00 UTC.
    expect(Date.parse(String(entry?.scheduledTime))).toBe(Date.parse('2026-11-24T14:00:00Z'));
  }, 60_000);

  it('asks before the dashboard, then shows it privately', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const asked = await w.slash('home', {}, 'bob');
    const question = w.answer(asked);
    expect(titleOf(question)).toBe(QUESTION);
    expect(question.flags & 64).toBe(64);

    const chosen = await w.click(question, PLACEHOLDER, 'bob', [optionValue(question, 'Asia/Tokyo')]);
    expect(await w.h.store.users.getTimeZone(w.address('bob'))).toBe('Asia/Tokyo');
    await w.fake.waitFor(() => chosen.followups.length >= 5, 10_000);
    const cards = chosen.followups.map((id) => w.fake.messages.get(id) as FakeMessage);
    const titles = cards.map(titleOf);
    expect(titles).toEqual(
      expect.arrayContaining([expect.stringMatching(/Calendar/), 'Channel subscriptions']),
    );
    expect(titles).not.toContain(QUESTION);
    expect(cards.every((m) => (m.flags & 64) === 64)).toBe(true);
    expect(w.fake.channelMessages()).toEqual([]);
  }, 60_000);

  it('does not ask in a channel with a default zone: times are read in it', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    await w.h.store.settings.put(w.conversation, {
      ...(await w.h.store.settings.get(w.conversation)),
      timeZone: 'America/New_York',
    });
    const calendar = await w.slash('calendar', {}, 'carol');
    expect(titleOf(w.answer(calendar))).not.toBe(QUESTION);
    expect(textOf(w.answer(calendar))).toContain('America/New_York');
    expect(await w.h.store.users.getTimeZone(w.address('carol'))).toBeUndefined();
  }, 60_000);
});
