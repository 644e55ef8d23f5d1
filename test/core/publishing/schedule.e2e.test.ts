import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { scheduleWatcher } from '../../../src/core/live/schedule-watcher.js';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { apiOf, type CallLog, cardOf, completedVideo, formOf, HOUR, MINUTE, spyCalls } from './helpers.js';

const DAY = 24 * HOUR;

// The harness starts on Monday 23 Nov 2026, 08:00 UTC (09:00 in Paris).

describe('schedule', () => {
  let h: Harness;
  let alice: RequestInfo;
  let videoId: string;
  let calls: CallLog;

  const cardMessage = () => h.chat.channelMessages.find((m) => m.card.title === 'Launch teaser');
  const replies = () => {
    const card = cardMessage();
    return card ? h.chat.repliesTo(card.message) : [];
  };
  const scheduledField = () => cardMessage()?.card.fields?.find((f) => f.label === 'Scheduled')?.value;

  beforeEach(async () => {
    h = await createHarness();
    alice = await h.user('alice', { timeZone: 'Europe/Paris' });
    videoId = await completedVideo(h, 'Launch teaser');
    await h.store.users.setLast(alice.user, 'video', videoId);
    calls = spyCalls(h);
  });
  afterEach(async () => h.close());

  async function withMetadata(...platforms: ('youtube' | 'tiktok' | 'x')[]) {
    for (const p of platforms) {
      const block =
        p === 'youtube'
          ? { title: 'Teaser' }
          : p === 'tiktok'
            ? { title: 'Teaser #fyp' }
            : { text: 'Teaser' };
      await apiOf(h).videos.update(videoId, { posts: { [p]: block } });
    }
    calls.writes.length = 0;
    calls.all.length = 0;
  }

  it('echoes the time in the caller zone and UTC, posts the card and watches it', async () => {
    await withMetadata('youtube');
    const r = await h.run('/reel schedule last youtube tomorrow 9am');
    expect(cardOf(r).title).toBe('Scheduled');
    expect(textOf(r)).toContain('Tue 24 Nov 2026, 09:00 Europe/Paris (08:00 UTC)');
    expect(scheduledField()).toBe('Tue 24 Nov 2026, 09:00 Europe/Paris (08:00 UTC) → YouTube');
    const watch = await h.store.watches.findActive('schedule', videoId);
    expect(watch).toMatchObject({ cardKey: videoCardKey(videoId, h.conversation), owner: alice.user });
    expect(watch?.expiresAt).toBe(Date.parse('2026-11-24T10:00:00Z'));
    expect(watch?.state).toMatchObject({ platforms: ['youtube'], scheduledTime: '2026-11-24T08:00:00.000Z' });
    const entries = await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' });
    expect(entries).toMatchObject([{ projectId: videoId, platform: 'youtube', status: 'scheduled' }]);
    expect(await h.store.audit.list({ workspacePrefix: 'playground:W1', videoId })).toMatchObject([
      { action: 'video.schedule', actor: alice.user, details: { platforms: ['youtube'] } },
    ]);
  });

  it('answers a missing-args form for an unknown video with the usual error', async () => {
    const r = await h.run('/reel schedule "no such video"');
    expect(textOf(r)).toContain('No video matches `no such video`');
  });

  it('folds a second schedule of the same video into one watch', async () => {
    await withMetadata('youtube', 'x');
    await h.run('/reel schedule last youtube tomorrow 9am');
    await h.run('/reel schedule last x tomorrow 18:00');
    const watches = (await h.store.watches.active()).filter((w) => w.kind === 'schedule');
    expect(watches).toHaveLength(1);
    expect(watches[0]?.state).toMatchObject({ platforms: ['youtube', 'x'] });
    expect(watches[0]?.expiresAt).toBe(Date.parse('2026-11-24T19:00:00Z'));
    expect(scheduledField()).toBe(
      'Tue 24 Nov 2026, 09:00 (YouTube); Tue 24 Nov 2026, 18:00 (X) Europe/Paris → YouTube, X',
    );
  });

  it('checks rarely while far from due, then often once due', async () => {
    await withMetadata('youtube');
    await h.run('/reel schedule last youtube tomorrow 9am');
    const nextIn = async () =>
      ((await h.store.watches.findActive('schedule', videoId))?.nextCheckAt ?? 0) - h.clock.now();
    expect(await nextIn()).toBeGreaterThanOrEqual(27 * MINUTE);
    const due = Date.parse('2026-11-24T08:00:00Z');
    await h.until(() => h.clock.now() >= due - 45 * MINUTE, { stepMs: 30 * MINUTE, maxMs: DAY });
    // Within the last half hour the next look is at the due time, and no more than 30 min away.
    await h.until(async () => (await nextIn()) <= 11 * MINUTE, { stepMs: MINUTE, maxMs: HOUR });
    expect(h.clock.now()).toBeLessThan(due);
    expect(h.clock.now() + (await nextIn())).toBeLessThanOrEqual(due + MINUTE);
    await h.until(() => h.clock.now() > due + 30_000, { stepMs: 15_000, maxMs: HOUR });
    // Just after due (the post already went out): the watch settled and stopped.
    expect(await h.store.watches.findActive('schedule', videoId)).toBeUndefined();
  });

  it('reports the post on the card and exactly once in its thread when time passes', async () => {
    await withMetadata('youtube', 'tiktok');
    await h.run('/reel schedule last youtube,tiktok tomorrow 9am');
    await h.until(() => replies().length >= 2, { stepMs: 20 * MINUTE, maxMs: 2 * 24 * HOUR });
    expect(
      replies()
        .map((r) => r.card.title)
        .sort(),
    ).toEqual(['Posted to TikTok', 'Posted to YouTube']);
    expect(scheduledField()).toContain('YouTube (posted), TikTok (posted)');
    expect(await h.store.watches.findActive('schedule', videoId)).toBeUndefined();
    for (let i = 0; i < 6; i++) await h.advance(10 * MINUTE);
    expect(replies()).toHaveLength(2);
    expect(
      h.sim.sim
        .publishedPosts()
        .map((p) => p.platform)
        .sort(),
    ).toEqual(['tiktok', 'youtube']);
  });

  it('says "Failed on" when the platform rejects the post', async () => {
    await withMetadata('x');
    h.sim.sim.setKnobs({ postFailureRate: 1 });
    await h.run('/reel schedule last x in 2 hours');
    await h.until(() => replies().length >= 1, { stepMs: 10 * MINUTE, maxMs: 6 * HOUR });
    expect(replies().map((r) => r.card.title)).toEqual(['Failed on X']);
    expect(scheduledField()).toContain('X (failed)');
  });

  it('marks a schedule cancelled outside chat on the card, without a reply', async () => {
    await withMetadata('youtube');
    await h.run('/reel schedule last youtube in 2 hours');
    await apiOf(h).posts.cancel(videoId);
    await h.until(async () => (await h.store.watches.findActive('schedule', videoId)) === undefined, {
      stepMs: 10 * MINUTE,
    });
    expect(scheduledField()).toContain('YouTube (cancelled)');
    expect(replies()).toEqual([]);
  });

  it('says once that it stopped watching when the service never settles', async () => {
    await withMetadata('youtube');
    await h.run('/reel schedule last youtube tomorrow 9am');
    const watch = await h.store.watches.findActive('schedule', videoId);
    if (!watch) throw new Error('no watch');
    await h.store.transaction(
      async () =>
        await scheduleWatcher.expire({ store: h.store, watch: watch, now: h.clock.now(), reason: 'expired' }),
    );
    await h.store.transaction(
      async () =>
        await scheduleWatcher.expire({ store: h.store, watch: watch, now: h.clock.now(), reason: 'expired' }),
    );
    await h.flush();
    expect(replies().map((r) => r.card.title)).toEqual(['Still waiting on the service']);
    expect(cardMessage()?.card.text).toContain('Stopped watching the schedule on YouTube');
  });

  it('opens the metadata form for each missing platform, then schedules', async () => {
    await withMetadata('x');
    const first = formOf(await h.run('/reel schedule last youtube,x,tiktok friday 18:00'));
    expect(calls.writes).toEqual([]);
    expect(first.title).toBe('YouTube post details');
    expect(first.intro).toContain('(then TikTok)');
    expect(first.submitLabel).toBe('Save and continue');
    const tooLong = await h.submit(first.id, first.state, {
      title: 'y'.repeat(101),
      description: '',
      privacyStatus: 'public',
    });
    expect(tooLong.kind).toBe('form-errors');
    expect(calls.writes).toEqual([]);

    const second = formOf(
      await h.submit(first.id, first.state, {
        title: 'Friday teaser',
        description: '',
        privacyStatus: 'public',
      }),
    );
    expect(second.title).toBe('TikTok post details');
    expect(second.submitLabel).toBe('Save and schedule');
    const done = await h.submit(second.id, second.state, { title: 'Friday #fyp' });
    expect(cardOf(done).title).toBe('Scheduled');
    expect(textOf(done)).toContain('Fri 27 Nov 2026, 18:00 Europe/Paris (17:00 UTC)');
    expect(calls.writes).toEqual(['videos.update', 'videos.update', 'posts.schedule']);
    const video = await apiOf(h).videos.get(videoId);
    expect(video.posts.youtube?.title).toBe('Friday teaser');
    expect(video.posts.tiktok?.title).toBe('Friday #fyp');
    const entries = await apiOf(h).posts.calendar({ startDate: '2026-11-27', endDate: '2026-11-27' });
    expect(entries.map((e) => e.platform).sort()).toEqual(['tiktok', 'x', 'youtube']);
  });

  it('refuses bad and past times, and unknown platforms, without calling the API', async () => {
    const bad = await h.run('/reel schedule last youtube whenever you like');
    expect(textOf(bad)).toContain("I couldn't read `whenever you like` as a time");
    expect(textOf(bad)).toContain('Usage');
    const past = await h.run('/reel schedule last youtube 2026-11-20 18:00');
    expect(textOf(past)).toContain('Fri 20 Nov 2026, 18:00 Europe/Paris (17:00 UTC) is in the past');
    const dayOnly = await h.run('/reel schedule last youtube friday');
    expect(textOf(dayOnly)).toContain('`friday` has no time of day');
    const platform = await h.run('/reel schedule last myspace tomorrow 9am');
    expect(textOf(platform)).toMatch(/`myspace` isn't a platform/);
    expect(calls.all).toEqual([]);
  });

  it('opens the schedule form when arguments are missing', async () => {
    const form = formOf(await h.run('/reel schedule last'));
    expect(form.id).toBe('schedule.form');
    expect(form.inputs.map((i) => i.id)).toEqual(['platforms', 'when']);
    expect(form.inputs[1]?.kind === 'text' && form.inputs[1].hint).toContain('Europe/Paris');
    const empty = formOf(await h.run('/reel schedule'));
    expect(empty.inputs.map((i) => i.id)).toEqual(['video', 'platforms', 'when']);
  });

  it('schedules from the card button form, with inline errors first', async () => {
    await withMetadata('youtube');
    const form = formOf(await h.click('video.schedule', videoId));
    expect(form.inputs.find((i) => i.id === 'platforms')?.initial).toBe('youtube');
    const bad = await h.submit(form.id, form.state, { platforms: 'youtube, vine', when: 'yesterday' });
    if (bad.kind !== 'form-errors') throw new Error('expected errors');
    expect(Object.keys(bad.errors).sort()).toEqual(['platforms', 'when']);
    expect(calls.writes).toEqual([]);
    const ok = await h.submit(form.id, form.state, { platforms: 'youtube', when: '2026-12-01 18:00' });
    expect(textOf(ok)).toContain('Tue 1 Dec 2026, 18:00 Europe/Paris (17:00 UTC)');
  });

  it('unschedules: cancels, stops the watch and clears the card', async () => {
    await withMetadata('youtube');
    await h.run('/reel schedule last youtube tomorrow 9am');
    const r = await h.run('/reel unschedule last');
    expect(cardOf(r).title).toBe('Unscheduled');
    expect(textOf(r)).toContain('YouTube (Tue 24 Nov 2026, 09:00 Europe/Paris (08:00 UTC))');
    expect(await h.store.watches.findActive('schedule', videoId)).toBeUndefined();
    expect(scheduledField()).toBeUndefined();
    expect(cardMessage()?.card.text).toContain('Schedule cancelled by alice.');
    expect(await apiOf(h).posts.calendar({ startDate: '2026-11-24', endDate: '2026-11-24' })).toEqual([]);
  });

  it('explains a 409 when nothing is scheduled', async () => {
    const r = await h.run('/reel unschedule last');
    expect(cardOf(r).title).toBe('Nothing to cancel');
    expect(textOf(r)).toContain('Nothing is scheduled for **Launch teaser**');
    expect(calls.writes).toEqual(['posts.cancel']);
  });

  it('explains a 409 after the post went out, without retrying', async () => {
    await withMetadata('youtube');
    await h.run('/reel schedule last youtube in 1 hour');
    h.clock.advance(90 * MINUTE);
    const r = await h.run('/reel unschedule last');
    expect(cardOf(r).title).toBe('Too late to cancel');
    expect(textOf(r)).toMatch(
      /Already posted: YouTube at Mon 23 Nov 2026, 10:0\d Europe\/Paris \(09:0\d UTC\)/,
    );
    expect(calls.writes.filter((w) => w === 'posts.cancel')).toHaveLength(1);
    // The watch reports it on the card at its next look, once.
    await h.advance(MINUTE);
    expect(replies().map((x) => x.card.title)).toEqual(['Posted to YouTube']);
  });
});
