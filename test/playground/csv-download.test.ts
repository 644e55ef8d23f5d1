/**
 * `--csv` in the playground: the answer's card carries a download link, and the link serves the CSV file of
 * that message (the real core, simulator over HTTP and the playground adapter on a real HTTP server). A
 * private answer's file is served only to its member's browser session (the page's HttpOnly, SameSite=Strict
 * cookie), never to whoever holds the link; no CSV is in the page's HTML. Both simulator profiles.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HttpServer } from '../../src/http/server.js';
import { captionVideos, csvRecords } from '../support/csv.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { servePlayground } from '../support/playground-server.js';

interface View {
  id: string;
  channel: string;
  html: string;
}

let h: Harness;
let http: HttpServer;
let url: string;

async function command(text: string, user = 'alice'): Promise<View[]> {
  const res = await fetch(`${url}/playground/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, channel: 'general', text }),
  });
  const body = (await res.json()) as { ok: boolean; messages?: View[]; error?: string };
  if (!body.ok) throw new Error(`command answered ${res.status}: ${body.error}`);
  return body.messages ?? [];
}

/** The session cookie a browser gets when it opens the page as `user`. */
async function sessionOf(user: string): Promise<string> {
  const page = await fetch(`${url}/?user=${user}`);
  const cookie = page.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/; HttpOnly/);
  expect(cookie).toMatch(/; SameSite=Strict/);
  return cookie.split(';')[0] as string;
}

const decode = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
const linkIn = (html: string) => {
  const href = /<a href="([^"]+)" download="([^"]+)" data-testid="card-file">/.exec(html);
  return href ? { href: decode(href[1] as string), name: decode(href[2] as string) } : undefined;
};

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    h = await createHarness({ platform: 'playground', simulator: { profile } });
    for (const person of ['alice', 'bob']) await h.user(person, { key: DEMO_KEY, timeZone: 'Asia/Tokyo' });
    ({ http, url } = await servePlayground(h, {
      channels: ['general'],
      users: [
        { id: 'alice', name: 'Alice' },
        { id: 'bob', name: 'Bob' },
      ],
    }));
  });
  afterEach(async () => {
    await http.close();
    await h.close();
  });

  it('videos --csv answers with a download link that serves the file, to its member only', async () => {
    const names = ['Launch teaser', '-2 reasons, "honestly"', 'Recap'];
    const ids = await captionVideos({ apiUrl: h.sim.url, key: DEMO_KEY, names });

    const answer = (await command('videos --csv')).at(-1); // after the echo of the command
    if (!answer) throw new Error('no answer');
    expect(answer.html).toContain('Videos (CSV)');
    expect(answer.html).toContain('All 3 videos, one row each');
    const link = linkIn(answer.html);
    if (!link) throw new Error(`no download link in ${answer.html}`);
    expect(link.name).toMatch(/^videos-\d{4}-\d{2}-\d{2}\.csv$/);
    // The page carries no CSV: only the link.
    expect(answer.html).not.toContain('"id","name","model"');
    expect(answer.html).not.toContain(ids[0] ?? 'missing');

    // The link alone opens nothing: the file is alice's, served to her browser session only.
    expect(link.href).not.toContain('alice');
    expect((await fetch(`${url}${link.href}`)).status).toBe(404);
    const claimed = new URL(link.href, url);
    claimed.searchParams.set('user', 'alice');
    expect((await fetch(claimed)).status).toBe(404);
    const alice = await sessionOf('alice');
    const res = await fetch(`${url}${link.href}`, { headers: { cookie: alice } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${link.name}"`);
    const rows = csvRecords(await res.text());
    expect(rows.map((r) => r.id)).toEqual([...ids].reverse());
    // Newest first; the cell a spreadsheet would run as a formula arrives as text.
    expect(rows.map((r) => r.name)).toEqual(['Recap', `'-2 reasons, "honestly"`, 'Launch teaser']);
    expect(
      rows.every((r) => r.created === '' || /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(r.created ?? '')),
    ).toBe(true);

    // The answer is alice's alone: bob's session, or a made-up one, gets no file from it.
    const bob = await sessionOf('bob');
    expect((await fetch(`${url}${link.href}`, { headers: { cookie: bob } })).status).toBe(404);
    const forged = 'reelbot_playground=made-up-session';
    expect((await fetch(`${url}${link.href}`, { headers: { cookie: forged } })).status).toBe(404);
    // A message without a file has none to serve.
    const plain = (await command('videos')).at(-1);
    expect(linkIn(plain?.html ?? '')).toBeUndefined();
    const none = await fetch(`${url}/playground/download?channel=general&id=${plain?.id}`, {
      headers: { cookie: alice },
    });
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: string }).error).toContain('No file here');
    // Only GET (and HEAD) read a file.
    expect((await fetch(`${url}${link.href}`, { method: 'POST', headers: { cookie: alice } })).status).toBe(
      405,
    );
  });
});
