/**
 * `schedule … best` and `reschedule … best` end to end on the core harness and both simulator profiles: the
 * team's own history (seeded posts with their views) decides the hour once there are 20 posts; before that,
 * or when the analytics give no per-post views (the `real` profile's older shape), the default is used and
 * said. Nothing is scheduled before the proposal's button; the click schedules at exactly that instant.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../../support/harness.js';
import { createCoreDriver } from '../approvals/core-driver.js';
import { pastPosts } from './best-time-history.js';
import { defineBestTimeSuite } from './best-time-scenarios.js';
import { apiOf, cardOf, completedVideo } from './helpers.js';

// The harness starts on Monday 23 Nov 2026, 08:00 UTC (09:00 in Paris).

describe.each(['spec', 'real'] as const)('schedule … best (%s profile)', (profile) => {
  let h: Harness;
  let alice: RequestInfo;
  let videoId: string;

  beforeEach(async () => {
    h = await createHarness({ simulator: { profile } });
    alice = await h.user('alice', { timeZone: 'Europe/Paris' });
    videoId = await completedVideo(h, 'Launch teaser');
    await apiOf(h).videos.update(videoId, { posts: { youtube: { title: 'Launch teaser' } } });
    await h.store.users.setLast(alice.user, 'video', videoId);
  });
  afterEach(async () => h.close());

  const schedules = () => h.sim.sim.received({ method: 'POST', path: '/posts/schedule' });

  function clickOnly(r: Awaited<ReturnType<Harness['run']>>) {
    const [button, ...others] = cardOf(r).controls ?? [];
    expect(others).toEqual([]);
    if (button?.kind !== 'button') throw new Error('the proposal has no button');
    return h.click(button.action, button.value, alice);
  }

  it('with fewer than 20 posts proposes the default, says so, and schedules only on the click', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(5));
    const r = await h.run('/reel schedule last youtube best', alice);
    const text = textOf(r);
    expect(text).toContain('**YouTube**: Fri 27 Nov 2026, 17:00 Europe/Paris (16:00 UTC)');
    expect(text).toContain('a default for YouTube: Fridays at 17:00');
    expect(text).toContain(profile === 'spec' ? '5 so far' : 'no views per YouTube post');
    expect(schedules()).toEqual([]);
    const done = await clickOnly(r);
    expect(done.kind).toBe('update');
    expect(textOf(done)).toContain('Fri 27 Nov 2026, 17:00 Europe/Paris (16:00 UTC)');
    expect(schedules().map((c) => c.body)).toEqual([
      { videoId, platforms: ['youtube'], scheduledTime: '2026-11-27T16:00:00.000Z' },
    ]);
  });

  it('with a history where Tuesday 18:00 wins, proposes the next Tuesday 18:00 and says from how many posts', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(34));
    const r = await h.run('/reel schedule last youtube best', alice);
    const text = textOf(r);
    if (profile === 'real') {
      // The older analytics shape lists no post with its views: nothing to learn from, and it says so.
      expect(text).toContain('a default for YouTube: Fridays at 17:00');
      expect(text).toContain('no views per YouTube post');
      return;
    }
    expect(text).toContain('**YouTube**: Tue 24 Nov 2026, 18:00 Europe/Paris (17:00 UTC)');
    expect(text).toContain('from your 34 YouTube posts: Tuesdays at 18:00 drew');
    await clickOnly(r);
    expect(schedules().map((c) => c.body)).toEqual([
      { videoId, platforms: ['youtube'], scheduledTime: '2026-11-24T17:00:00.000Z' },
    ]);
  });

  it('counts a post published now from here by its URL, with the scheduled ones of the calendar', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(19));
    const rendered = await completedVideo(h, 'Out now', { render: true });
    await apiOf(h).videos.update(rendered, { posts: { youtube: { title: 'Out now on YouTube' } } });
    const published = await h.run(`/reel publish ${rendered} youtube`, alice);
    expect(cardOf(published).title).toBe('Published to YouTube');
    h.clock.advance(60_000);
    const text = textOf(await h.run('/reel schedule last youtube best', alice));
    // 19 scheduled posts joined by their video's name, the 20th by the URL the service answered.
    expect(text).toContain(profile === 'spec' ? 'from your 20 YouTube posts' : 'no views per YouTube post');
  });

  it('the Schedule form takes best as its time and answers with the proposal', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(34));
    const form = await h.click('video.schedule', videoId, alice);
    if (form.kind !== 'form') throw new Error(`expected the form, got ${form.kind}`);
    expect(form.form.inputs.find((i) => i.id === 'when')?.hint).toContain('"best"');
    const r = await h.submit(
      form.form.id,
      form.form.state ?? '',
      { platforms: 'youtube', when: 'best' },
      alice,
    );
    expect(cardOf(r).title).toBe('Best time for Launch teaser');
    expect(textOf(r)).toContain(
      profile === 'spec'
        ? 'Tue 24 Nov 2026, 18:00 Europe/Paris (17:00 UTC)'
        : 'Fri 27 Nov 2026, 17:00 Europe/Paris',
    );
    expect(schedules()).toEqual([]);
  });

  it('refuses at once a video that failed to generate, as a schedule would', async () => {
    h.sim.sim.setKnobs({ generationFailureRate: 1 });
    const voices = await apiOf(h).voices.list();
    const { id } = await apiOf(h).videos.create(
      {
        script: 'A script that will not make it to the end.',
        voiceId: (voices[0] as { id: string }).id,
        name: 'Broken',
      },
      { idempotencyKey: 'best-time-broken' },
    );
    for (let i = 0; i < 40 && (await apiOf(h).videos.status(id)).status !== 'failed'; i++)
      h.clock.advance(15_000);
    const r = await h.run(`/reel schedule ${id} youtube best`, alice);
    expect(textOf(r)).toContain('Broken** failed to generate, so it cannot be scheduled');
    expect(h.sim.sim.received({ method: 'GET', path: '/analytics' })).toEqual([]);
  });

  it('reads the history politely, once per half hour: a second best sends no new reads', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(34));
    const reads = () =>
      h.sim.sim
        .received({ method: 'GET' })
        .filter((c) => ['/analytics', '/calendar', '/videos'].includes(c.path))
        .map((c) => `${c.path}?${new URLSearchParams(c.query)}`);
    await h.run('/reel schedule last youtube best', alice);
    const first = reads();
    // One analytics read, one calendar read, and the video list only as deep as the posts need (one page).
    expect(first.filter((r) => r.startsWith('/analytics'))).toHaveLength(1);
    expect(first.filter((r) => r.startsWith('/calendar'))).toHaveLength(profile === 'spec' ? 1 : 0);
    expect(first.filter((r) => r.startsWith('/videos'))).toEqual(
      profile === 'spec' ? ['/videos?page=1&limit=100'] : [],
    );
    await h.run('/reel schedule last youtube best', alice);
    expect(reads()).toEqual(first);
    h.clock.advance(31 * 60_000);
    await h.run('/reel schedule last youtube best', alice);
    expect(reads().length).toBeGreaterThan(first.length);
  });

  it('gives each platform its own time and a button each; another platform keeps its default', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(34));
    await apiOf(h).videos.update(videoId, { posts: { x: { text: 'Launch teaser' } } });
    const r = await h.run('/reel schedule last youtube,x best', alice);
    const text = textOf(r);
    expect(text).toContain(
      '**X**: Wed 25 Nov 2026, 09:00 Europe/Paris (08:00 UTC), a default for X: Wednesdays at 09:00 (your analytics do not report on X)',
    );
    const buttons = (cardOf(r).controls ?? []).filter((c) => c.kind === 'button');
    expect(buttons.map((b) => b.label)).toEqual(
      profile === 'spec'
        ? ['Schedule YouTube at Tue 24 Nov, 18:00', 'Schedule X at Wed 25 Nov, 09:00']
        : ['Schedule X at Wed 25 Nov, 09:00', 'Schedule YouTube at Fri 27 Nov, 17:00'],
    );
    const x = buttons.find((b) => b.label.includes(' X '));
    if (x?.kind !== 'button') throw new Error('no X button');
    const done = await h.click(x.action, x.value, alice);
    expect(done.kind).toBe('message');
    expect(schedules().map((c) => c.body)).toEqual([
      { videoId, platforms: ['x'], scheduledTime: '2026-11-25T08:00:00.000Z' },
    ]);
  });

  it('reschedule … best moves a pending post to the best time', async () => {
    h.sim.sim.seedPostHistory(DEMO_KEY, pastPosts(34));
    await h.run('/reel schedule last youtube tomorrow 9am', alice);
    const r = await h.run('/reel reschedule last best', alice);
    const at = profile === 'spec' ? '2026-11-24T17:00:00.000Z' : '2026-11-27T16:00:00.000Z';
    const button = cardOf(r).controls?.[0];
    if (button?.kind !== 'button') throw new Error('no button');
    expect(button.label).toBe(profile === 'spec' ? 'Move to Tue 24 Nov, 18:00' : 'Move to Fri 27 Nov, 17:00');
    await h.click(button.action, button.value, alice);
    expect(h.sim.sim.received({ method: 'DELETE' }).map((c) => c.path)).toEqual([`/posts/${videoId}`]);
    expect(schedules().map((c) => (c.body as { scheduledTime: string }).scheduledTime)).toEqual([
      '2026-11-24T08:00:00.000Z',
      at,
    ]);
  });
});

defineBestTimeSuite('the core harness', (profile) => createCoreDriver({ profile }));
