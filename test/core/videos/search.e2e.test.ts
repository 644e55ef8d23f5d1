/**
 * `videos --search/--status` end to end, on both simulator profiles: the real core and client against the
 * simulator over HTTP. The API has no search, so the list is walked a page of 100 at a time: a name on the
 * third page is found, a state is read from the list, the calendar and the generation status, and an answer
 * that ran out of its budget goes on with More →.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import type { Card } from '../../../src/core/text/cards.js';
import { generateApiKey } from '../../../src/simulator/index.js';
import { tableRows, textOf } from '../../support/harness.js';
import { apiOf, completedVideo } from '../publishing/helpers.js';
import { card, type SeriesHarness, seriesHarness } from '../series/helpers.js';

const BIG_KEY = generateApiKey();

/** POSTs over raw HTTP (the simulator's rate limits are off; the client's own budget would pace them). */
async function raw(h: SeriesHarness, method: string, path: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${h.sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${BIG_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: { id: string } };
  if (!json.data) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const moreButton = (c: Card) => c.controls?.find((b) => b.kind === 'button' && b.label === 'More →');

describe.each(['spec', 'real'] as const)('videos --search on the %s profile', (profile) => {
  let h: SeriesHarness;
  let dana: RequestInfo;
  beforeAll(async () => {
    h = await seriesHarness({
      simulator: { profile, rateLimits: false },
      teams: [{ name: 'Big team', projectCap: 500, keys: [{ key: BIG_KEY }] }],
    });
    dana = await h.user('dana', { key: BIG_KEY });
    // A generated and rendered video, the oldest; then 300 caption videos on top of it.
    await completedVideo(h, 'Rendered octopus', { key: BIG_KEY, render: true });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      ids.push(
        (
          await raw(h, 'POST', '/videos/captions', {
            videoUrl: `https://cdn.example.com/${i}.mp4`,
            name: `Clip ${i}`,
          })
        ).id,
      );
    }
    // Page 3 of the newest-first list holds the oldest hundred captions.
    await raw(h, 'PATCH', `/videos/${ids[40]}`, { name: 'Needle in the stack' });
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.calls.length = 0;
  });

  it('finds a name on the third page of 100, reading each page once', async () => {
    const c = card(await h.run('videos --search NEEDLE', dana));
    expect(tableRows(c).map(([name]) => name)).toEqual(['Needle in the stack']);
    expect(c.text).toContain('1 found, newest first (301 searched)');
    // Four pages: 300 captions and the rendered video make 301 videos.
    expect(h.calls.filter((call) => call === 'videos.list')).toHaveLength(4);
    expect(moreButton(c)).toBeUndefined();
  });

  it('says so when nothing matches', async () => {
    const c = card(await h.run('videos --search walrus', dana));
    expect(c.title).toBe('No videos found');
    expect(textOf(await h.run('videos --search walrus', dana))).toContain('(301 searched)');
  });

  it('finds rendered videos from the list alone, with no status reads', async () => {
    const c = card(await h.run('videos --status rendered', dana));
    expect(tableRows(c).map(([name]) => name)).toEqual(['Rendered octopus']);
    expect(h.calls.filter((call) => call === 'videos.status')).toEqual([]);
  });

  it('reads generation states one video at a time, and More → goes on where it stopped', async () => {
    // 111 captions are named "Clip 2…", all still generating (the test clock stands still).
    const first = card(await h.run('videos --search "Clip 2" --status generating', dana));
    expect(tableRows(first).map(([name]) => name)).toEqual([
      'Clip 299',
      'Clip 298',
      'Clip 297',
      'Clip 296',
      'Clip 295',
      'Clip 294',
      'Clip 293',
      'Clip 292',
      'Clip 291',
      'Clip 290',
    ]);
    // A read for each match, none for the names that do not match.
    expect(h.calls.filter((call) => call === 'videos.status')).toHaveLength(10);
    const more = moreButton(first);
    if (more?.kind !== 'button') throw new Error('expected More →');
    h.calls.length = 0;
    const next = await h.click(more.action, more.value, dana);
    expect(next.kind === 'update' && tableRows(next.card).map(([name]) => name)).toEqual([
      'Clip 289',
      'Clip 288',
      'Clip 287',
      'Clip 286',
      'Clip 285',
      'Clip 284',
      'Clip 283',
      'Clip 282',
      'Clip 281',
      'Clip 280',
    ]);
    // It went on from the page it stopped on, not from the top.
    expect(h.calls.filter((call) => call === 'videos.list')).toHaveLength(1);
  });

  it('stops at 25 status reads and offers More →', async () => {
    // "Clip 1" names 111 captions too; asked for the failed ones, none matches: the budget ends the answer.
    const c = card(await h.run('videos --search "Clip 1" --status failed', dana));
    expect(h.calls.filter((call) => call === 'videos.status')).toHaveLength(25);
    expect(tableRows(c)).toEqual([]);
    expect(c.text).toContain('0 found in the');
    expect(moreButton(c)).toBeDefined();
  });

  it('refuses --page and --csv with a search, saying what to do', async () => {
    expect(textOf(await h.run('videos --search clip --page 2', dana))).toContain('leave out `--page`');
    expect(textOf(await h.run('videos --status failed --csv', dana))).toContain(
      'leave out `--search` and `--status`',
    );
    expect(h.calls).toEqual([]);
  });
});

describe('videos --status scheduled', () => {
  let h: SeriesHarness;
  afterAll(async () => h.close());
  it('finds a video with a post scheduled at the service, from one calendar read', async () => {
    h = await seriesHarness();
    const id = await completedVideo(h, 'Scheduled octopus', { render: true });
    await completedVideo(h, 'Idle octopus');
    const api = apiOf(h);
    await api.videos.update(id, { posts: { youtube: { title: 'Scheduled octopus' } } });
    await api.posts.schedule(
      {
        videoId: id,
        platforms: ['youtube'],
        scheduledTime: new Date(h.clock.now() + 86_400_000).toISOString(),
      },
      { idempotencyKey: 'search-scheduled' },
    );
    h.calls.length = 0;
    const c = card(await h.run('videos --status scheduled'));
    expect(tableRows(c).map(([name]) => name)).toEqual(['Scheduled octopus']);
    expect(h.calls.filter((call) => call === 'posts.calendar')).toHaveLength(1);
  });
});
