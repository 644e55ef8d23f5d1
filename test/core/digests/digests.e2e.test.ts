/**
 * `subscribe digest daily|weekly` end to end on both simulator profiles: the real core, client and poller
 * against the simulator over HTTP, on the test clock. The daily digest lists today's posts, yesterday's
 * outcomes and the credits the ledger says were spent, once per day; the weekly one carries charts whose
 * numbers are the simulator's own analytics (views gained per platform over 7 days, and day to day differences
 * of the total views read at each daily wake).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import type { Card } from '../../../src/core/text/cards.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { createHarness, DEMO_KEY, type Harness } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Mon 23 Nov 2026 00:00 UTC: the harness starts at 08:00 that day. */
const MON = Date.parse('2026-11-23T00:00:00Z');

let h: Harness;
let alice: RequestInfo;
afterEach(() => h.close());

const digests = (kind: 'Daily' | 'Weekly'): Card[] =>
  h.chat.posts.filter((p) => String(p.card.title).startsWith(`${kind} digest`)).map((p) => p.card);
const field = (card: Card | undefined, label: string): string | undefined =>
  card?.fields?.find((f) => f.label === label)?.value;

async function start(profile: 'spec' | 'real'): Promise<VideoApi> {
  h = await createHarness({ simulator: { profile, rateLimits: false } });
  alice = await h.user('alice');
  await h.run('settings timezone Europe/Paris', alice);
  return h.deps.apiFor(DEMO_KEY);
}

/** Moves the clock to `at` in one step (one poller pass there). */
const advanceTo = async (at: number) => h.advance(at - h.clock.now());

describe.each(['spec', 'real'] as const)('digests on the %s profile', (profile) => {
  it('sends the daily digest once a day: today, yesterday, approvals, credits', async () => {
    const api = await start(profile);
    const id = await completedVideo(h, 'Morning show', { render: true });
    await api.videos.update(id, { posts: { youtube: { title: 'Morning show' }, tiktok: { title: 'Clip' } } });
    const iso = (ms: number) => new Date(ms).toISOString();
    await api.posts.schedule(
      { videoId: id, platforms: ['youtube'], scheduledTime: iso(MON + 10 * HOUR) },
      { idempotencyKey: 'monday' },
    );
    await api.posts.schedule(
      { videoId: id, platforms: ['tiktok'], scheduledTime: iso(MON + DAY + 12 * HOUR) },
      { idempotencyKey: 'tuesday' },
    );

    const answer = await h.run('subscribe digest daily 09:30', alice);
    expect(JSON.stringify(answer)).toContain('daily digest at 09:30 (Europe/Paris)');
    const list = await h.run('subscribe', alice);
    expect(JSON.stringify(list)).toContain('Daily digest at 09:30 (Europe/Paris)');

    // 09:30 in Paris is 08:30 UTC: Monday's digest, then Tuesday's, nothing in between.
    await advanceTo(MON + 8 * HOUR + 31 * MINUTE);
    expect(digests('Daily').map((c) => c.title)).toEqual(['Daily digest · Mon 23 Nov 2026']);
    expect(field(digests('Daily')[0], 'Today')).toBe('1 post scheduled');
    for (let t = MON + 9 * HOUR; t < MON + DAY + 8 * HOUR; t += 2 * HOUR) await advanceTo(t);
    expect(digests('Daily')).toHaveLength(1);

    await advanceTo(MON + DAY + 8 * HOUR + 31 * MINUTE);
    const tuesday = digests('Daily')[1];
    expect(tuesday?.title).toBe('Daily digest · Tue 24 Nov 2026');
    expect(field(tuesday, 'Yesterday')).toBe('1 posted · 0 failed');
    expect(field(tuesday, 'Today')).toBe('1 post scheduled');
    expect(field(tuesday, 'Waiting for approval')).toBe('0 requests');
    // What the ledger says was spent on Monday (Paris), and the balance now.
    const credits = await api.credits.get({ page: 1, limit: 100 });
    const monday = credits.history
      .filter(
        (e) =>
          e.credits < 0 && Date.parse(e.createdAt) >= MON - HOUR && Date.parse(e.createdAt) < MON + 23 * HOUR,
      )
      .reduce((sum, e) => sum - e.credits, 0);
    expect(monday).toBeGreaterThan(0);
    expect(field(tuesday, 'Credits')).toBe(`${monday} spent yesterday · ${credits.balance} left`);
    expect(String(tuesday?.text)).toContain('✅ posted');

    for (let t = MON + DAY + 10 * HOUR; t < MON + 2 * DAY + 8 * HOUR; t += 3 * HOUR) await advanceTo(t);
    expect(digests('Daily')).toHaveLength(2);
    expect((await h.store.digests.sent(h.conversation)).map((s) => s.period)).toEqual([
      '2026-11-23',
      '2026-11-24',
    ]);
  });

  it('sends nothing late for days the bot was down, only one missed line in the next digest', async () => {
    await start(profile);
    await h.run('subscribe digest daily 09:30', alice);
    // Down from Monday 08:00 to Thursday 10:00 UTC: no poller pass sees Monday's, Tuesday's or Wednesday's time.
    h.clock.advance(MON + 3 * DAY + 10 * HOUR - h.clock.now());
    await h.advance(MINUTE);
    expect(digests('Daily').map((c) => c.title)).toEqual(['Daily digest · Thu 26 Nov 2026']);
    expect(String(digests('Daily')[0]?.text)).toContain(
      'Missed while the bot was down: the daily digests of Mon 23 Nov, Tue 24 Nov, Wed 25 Nov (not sent late).',
    );
    for (let t = MON + 3 * DAY + 12 * HOUR; t < MON + 4 * DAY + 8 * HOUR; t += 4 * HOUR) await advanceTo(t);
    expect(digests('Daily')).toHaveLength(1);
    expect((await h.store.digests.sent(h.conversation)).map((s) => s.period)).toEqual(['2026-11-26']);
  });

  it('stops with unsubscribe digest daily, and refuses a time it cannot read in words', async () => {
    await start(profile);
    const bad = JSON.stringify(await h.run('subscribe digest daily soon', alice));
    expect(bad).toContain("I couldn't read `daily soon` as a digest time.");
    expect(await h.store.subscriptions.list(h.conversation)).toEqual([]);

    await h.run('subscribe digest daily 09:30', alice);
    await h.run('subscribe digest weekly mon 09:30', alice);
    const stopped = JSON.stringify(await h.run('unsubscribe digest daily', alice));
    expect(stopped).toContain('no longer follows the daily digest at 09:30 (Europe/Paris)');
    expect((await h.store.subscriptions.list(h.conversation)).map((s) => s.target)).toEqual(['weekly']);
    await advanceTo(MON + 8 * HOUR + 31 * MINUTE);
    expect(digests('Daily')).toEqual([]);
    expect(digests('Weekly')).toHaveLength(1);
  });

  it('shows a digest on the dashboard in words, and its Unsubscribe stops it', async () => {
    await start(profile);
    await h.run('subscribe digest weekly mon 09:30', alice);
    const home = await h.run('home', alice);
    const cards = home.kind === 'message' ? [home.card, ...(home.more ?? [])] : [];
    const subs = cards.find((c) => c.title === 'Channel subscriptions');
    const section = subs?.sections?.find((x) => String(x.text).includes('weekly digest on Mondays at 09:30'));
    expect(String(section?.text)).toContain(
      'the weekly digest on Mondays at 09:30 (Europe/Paris) — a summary of the team',
    );
    const button = section?.controls?.find((c) => c.kind === 'button' && c.action === 'home.unsubscribe');
    expect(button?.kind === 'button' && button.value).toBeTruthy();
    const answer = await h.click('home.unsubscribe', button?.kind === 'button' ? button.value : '', alice);
    expect(JSON.stringify(answer)).toContain('no longer follows the weekly digest on Mondays at 09:30');
    expect(await h.store.subscriptions.list(h.conversation)).toEqual([]);
  });

  it('sends the weekly digest with charts of the simulator analytics', async () => {
    const api = await start(profile);
    const id = await completedVideo(h, 'Launch', { render: true });
    await api.videos.update(id, {
      posts: { youtube: { title: 'Launch' }, tiktok: { title: 'Launch' }, x: { text: 'Launch' } },
    });
    await api.posts.publish({ videoId: id, platform: 'youtube' }, { idempotencyKey: 'yt' });
    await api.posts.publish({ videoId: id, platform: 'tiktok' }, { idempotencyKey: 'tt' });
    // A scheduled post that goes out on Wednesday: what the calendar says was published.
    await api.posts.schedule(
      { videoId: id, platforms: ['x'], scheduledTime: new Date(MON + 2 * DAY + 15 * HOUR).toISOString() },
      { idempotencyKey: 'x' },
    );
    await h.run('subscribe digest weekly mon 09:00', alice);

    // The bot reads the total views at each daily wake (09:00 Paris = 08:00 UTC); so does the test, at once.
    const readings: number[] = [];
    for (let day = 1; day <= 7; day++) {
      await advanceTo(MON + day * DAY + 8 * HOUR + 10_000);
      readings.push((await api.analytics.get({ range: 7 })).totalViews);
      expect(digests('Weekly')).toHaveLength(day === 7 ? 1 : 0);
    }
    const weekly = digests('Weekly')[0];
    expect(weekly?.title).toBe('Weekly digest · Mon 23 Nov 2026 to Sun 29 Nov 2026');
    const [byDay, byPlatform] = weekly?.charts ?? [];
    // Tuesday's reading is the first: six days have both ends.
    expect(byDay?.categories).toEqual([
      'Tue 24 Nov',
      'Wed 25 Nov',
      'Thu 26 Nov',
      'Fri 27 Nov',
      'Sat 28 Nov',
      'Sun 29 Nov',
    ]);
    expect(byDay?.series[0]?.values).toEqual(readings.slice(1).map((r, i) => r - (readings[i] as number)));
    expect(byDay?.series[0]?.values.some((v) => v > 0)).toBe(true);
    expect(String(weekly?.text)).toContain('6 of 7 days so far');

    const week = await api.analytics.get({ range: 7 });
    const platforms = Object.keys(week.byPlatform).filter((p) => (week.byPlatform[p]?.postsSynced ?? 0) > 0);
    expect(platforms.sort()).toEqual(['tiktok', 'youtube']);
    const expected = await Promise.all(
      platforms.map(async (p) => {
        const one = await api.analytics.get({ platform: p as 'youtube', range: 7 });
        return one.viewsGained ?? (week.byPlatform[p]?.totalViews as number);
      }),
    );
    expect(byPlatform?.categories.map((c) => c.toLowerCase()).sort()).toEqual(['tiktok', 'youtube']);
    const shown = Object.fromEntries(
      byPlatform?.categories.map((c, i) => [c.toLowerCase(), byPlatform.series[0]?.values[i]]) ?? [],
    );
    expect(platforms.map((p) => shown[p])).toEqual(expected);
    expect(byPlatform?.title).toBe(
      profile === 'spec' ? 'Views gained by platform' : 'Total views by platform',
    );
    expect(field(weekly, 'Published')).toBe('1 post');
    expect(String(weekly?.text)).toMatch(/X · \*\*Launch\*\* · /);
    if (profile === 'spec') {
      expect(weekly?.table?.caption).toBe('Top posts');
      expect(JSON.stringify(weekly?.table)).toContain('https://');
    }
  });
});
