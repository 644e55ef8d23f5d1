/**
 * Naming a video: by id, unique name prefix or `last` (src/core/video-api/references.ts). Ids are found without
 * reading the team's whole list: the newest page, then the video itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { generateApiKey } from '../../../src/simulator/index.js';
import { card, type SeriesHarness, seriesHarness } from '../series/helpers.js';

/** A team allowed more videos than one page of the list (the demo team's plan caps it at 100). */
const BIG_KEY = generateApiKey();
let h: SeriesHarness;
let dana: RequestInfo;
const ids: string[] = [];
beforeAll(async () => {
  h = await seriesHarness({
    simulator: { rateLimits: false },
    teams: [{ name: 'Big team', projectCap: 500, keys: [{ key: BIG_KEY }] }],
  });
  dana = await h.user('dana', { key: BIG_KEY });
  // 320 free caption videos: more than three pages (100 each) of the list, the oldest on page 4.
  // Made over raw HTTP (the simulator's rate limits are off): the client's own budget would pace them.
  for (let i = 0; i < 320; i++) {
    const res = await fetch(`${h.sim.url}/videos/captions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BIG_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ videoUrl: `https://cdn.example.com/clip-${i}.mp4`, name: `Clip number ${i}` }),
    });
    const body = (await res.json()) as { data: { id: string } };
    if (!body.data) throw new Error(`caption ${i}: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.data.id);
  }
});
afterAll(async () => h.close());
beforeEach(() => {
  h.calls.length = 0;
});

describe('naming a video', () => {
  it('an id past the newest page costs one list page and one read, not every page', async () => {
    const oldest = ids[0] as string;
    const response = await h.run(`show ${oldest}`, dana);
    expect(card(response).title).toContain('Clip number 0');
    // The list's first page, the read that found the id, then show's own read.
    expect(h.calls).toEqual(['videos.list', 'videos.get', 'videos.get']);
  });

  it('an id on the newest page is found there', async () => {
    const newest = ids.at(-1) as string;
    await h.run(`show ${newest}`, dana);
    expect(h.calls).toEqual(['videos.list', 'videos.get']);
  });

  it('a name past the newest page is found on the next page (a name with spaces is never read as an id)', async () => {
    const response = await h.run('show "Clip number 150"', dana);
    expect(card(response).title).toContain('Clip number 150');
    expect(h.calls).toEqual(['videos.list', 'videos.list', 'videos.get']);
  });

  it('a one-word name that matches nothing is read as an id once, and said not found', async () => {
    const response = await h.run('show Nonexistentclip', dana);
    expect(card(response).text).toContain('Nonexistentclip');
    // The name is looked for on every page of the list (four here), the id read once.
    expect(h.calls).toEqual(['videos.list', 'videos.get', 'videos.list', 'videos.list', 'videos.list']);
  });

  it('a name past the newest 300 videos is found on the page that holds it', async () => {
    const renamed = await fetch(`${h.sim.url}/videos/${ids[5]}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${BIG_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Needle in the stack' }),
    });
    expect(renamed.status).toBe(200);
    const response = await h.run('show Needle', dana);
    expect(card(response).title).toContain('Needle in the stack');
    expect(h.calls.filter((c) => c === 'videos.list')).toHaveLength(4);
  });

  it('an unknown id is read once, not looked for as a name on every page', async () => {
    await h.run('show 0123456789abcdef01234567', dana);
    expect(h.calls).toEqual(['videos.list', 'videos.get']);
  });
});
