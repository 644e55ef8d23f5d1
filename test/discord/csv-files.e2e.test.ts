/**
 * `--csv` answers arrive on Discord as attachments, through the REAL discord.js REST client against the fake
 * Discord, which parses the multipart/form-data body (`payload_json` + `files[0]`) and keeps the file: the
 * test reads it back and parses it. The answer stays private (EPHEMERAL), the card says what the file holds,
 * a Components V2 card shows it with a File component (`attachment://…`), and no CSV is in any text.
 * Gateway and HTTP interactions, on both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import { captionVideos, csvRecords, MANY_VIDEOS_KEY, manyVideosTeam } from '../support/csv.js';
import { DEMO_KEY } from '../support/harness.js';
import type { FakeMessage } from './fake-discord.js';
import { allComponents, isV2, textOf } from './read-message.js';
import { discordWorld, type World } from './world.js';

const EPHEMERAL = 64;
const DAY = 86_400_000;

let w: World;
afterEach(() => w.close());

/** The one file a message carries, checked to be shown the way its shape needs. */
function fileOf(message: FakeMessage) {
  expect(message.files).toHaveLength(1);
  const file = message.files?.[0];
  if (!file) throw new Error('no file');
  expect(file.field).toBe('files[0]');
  expect(file.contentType).toContain('text/csv');
  const body = message.history.at(-1) as { attachments?: { id: string; filename: string }[] };
  expect(body.attachments).toEqual([{ id: '0', filename: file.filename }]);
  if (isV2(message)) {
    const shown = allComponents(message.components).filter((c) => c.type === 13);
    expect(shown.map((c) => c.file.url)).toEqual([`attachment://${file.filename}`]);
  }
  return file;
}

/** No message (content, embeds, text displays) carries CSV text. */
function expectNoCsvText(world: World, header: string) {
  for (const m of world.fake.messages.values()) expect(textOf(m)).not.toContain(header);
}

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  for (const mode of ['gateway', 'http'] as const) {
    it(`calendar --csv arrives as a private attachment (${mode})`, async () => {
      w = await discordWorld({ mode, harness: { simulator: { profile } } });
      // Discord tells no time zone: alice has set hers (else the bot asks first).
      await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
      const api = apiOf(w.h);
      const names = ['Launch teaser', '=HYPERLINK("http://evil.example","x")'];
      const scheduled: { id: string; at: number }[] = [];
      for (const [i, name] of names.entries()) {
        const id = await completedVideo(w.h, name);
        await api.videos.update(id, { posts: { youtube: { title: 'A title' }, x: { text: 'A post' } } });
        const at = Math.ceil((w.h.clock.now() + (i + 1) * DAY) / 60_000) * 60_000;
        await api.posts.schedule(
          { videoId: id, platforms: ['youtube', 'x'], scheduledTime: new Date(at).toISOString() },
          { idempotencyKey: `csv-schedule-${i}` },
        );
        scheduled.push({ id, at });
      }

      const record = await w.slash('calendar', { csv: true });
      const answer = w.answer(record);
      expect(answer.flags & EPHEMERAL).toBe(EPHEMERAL);
      expect(textOf(answer)).toContain('4 rows for the next 7 days');
      const file = fileOf(answer);
      expect(file.filename).toMatch(/^calendar-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(textOf(answer)).toContain(file.filename);

      const rows = csvRecords(file.content);
      expect(rows.map((r) => [r.time_utc, r.platform, r.status, r.video])).toEqual(
        scheduled.flatMap(({ id, at }) =>
          ['youtube', 'x'].map((p) => [new Date(at).toISOString(), p, 'scheduled', id]),
        ),
      );
      expect(rows.map((r) => r.video_name)).toEqual([
        'Launch teaser',
        'Launch teaser',
        `'=HYPERLINK("http://evil.example","x")`,
        `'=HYPERLINK("http://evil.example","x")`,
      ]);
      expectNoCsvText(w, '"time","time_utc"');
    });
  }

  it('a refused upload still answers, without the file, saying so', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
    await captionVideos({ apiUrl: w.h.sim.url, key: DEMO_KEY, names: ['One'] });
    // Discord refuses the edit that carries the file (too large for the server, say).
    w.fake.failNext('PATCH', /^\/webhooks\/.*\/messages\/%40original$/, 400);
    const record = await w.slash('videos', { csv: true });
    const answer = w.answer(record);
    expect(answer.files ?? []).toHaveLength(0);
    expect(textOf(answer)).toContain('Videos (CSV)');
    expect(textOf(answer)).toMatch(/I couldn't send the file `videos-[\d-]+\.csv` \(\d+\)/);
    expectNoCsvText(w, '"id","name","model"');
  });

  it('videos --csv pages through the whole list and attaches every video', async () => {
    w = await discordWorld({
      harness: { simulator: { profile, rateLimits: false }, teams: [manyVideosTeam] },
    });
    await w.h.store.keys.put(w.address('alice'), {
      apiKey: MANY_VIDEOS_KEY,
      keyPrefix: MANY_VIDEOS_KEY.slice(0, 12),
      teamId: 'export',
      teamName: 'Export team',
    });
    const names = Array.from({ length: 130 }, (_, i) =>
      i === 7 ? '@SUM(A1:A9)' : `Clip ${i}, take "${i % 4}"`,
    );
    await w.h.store.users.setTimeZone(w.address('alice'), 'Europe/Paris');
    const ids = await captionVideos({ apiUrl: w.h.sim.url, key: MANY_VIDEOS_KEY, names });

    const record = await w.slash('videos', { csv: true });
    const answer = w.answer(record);
    expect(answer.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(textOf(answer)).toContain('All 130 videos, one row each');
    const file = fileOf(answer);
    expect(file.filename).toMatch(/^videos-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = csvRecords(file.content);
    // Newest first: the reverse of the order they were made, ids and names exact (quotes and commas kept).
    expect(rows.map((r) => r.id)).toEqual([...ids].reverse());
    expect(rows.map((r) => r.name)).toEqual(
      [...names].reverse().map((n) => (n.startsWith('@') ? `'${n}` : n)),
    );
    expect(rows.every((r) => r.created_utc === '' || !Number.isNaN(Date.parse(r.created_utc ?? '')))).toBe(
      true,
    );
    expectNoCsvText(w, '"id","name","model"');
    // Another key's team is not in it (the demo team has its own videos).
    const demo = await apiOf(w.h, DEMO_KEY).videos.list({ page: 1, limit: 100 });
    for (const v of demo.items) expect(rows.map((r) => r.id)).not.toContain(v.id);
  });
});
