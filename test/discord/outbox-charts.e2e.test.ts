/**
 * A live card's charts through the outbox on Discord: the real outbox delivers a card from the store through
 * the adapter's sender and the real discord.js REST client to the fake Discord, which keeps each message's
 * files, applies an edit's `attachments` (listed files stay, the others go) and refuses a V2 message whose
 * gallery names a file it does not hold. A post carries `chart-1.png`; an edit with another chart replaces
 * it; an edit to a card without charts leaves no chart file behind, also when a member's click replaces the
 * card (the interaction's update, at once or after a deferral; gateway and HTTP; both simulator profiles).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { editCard, postCard } from '../../src/core/live/live-card.js';
import type { Card } from '../../src/core/text/cards.js';
import type { Chart } from '../../src/core/text/chart.js';
import { literal, md } from '../../src/core/text/text.js';
import type { FakeFile, FakeMessage } from './fake-discord.js';
import { galleriesOf, textOf } from './read-message.js';
import { discordWorld, IDS, TOKEN, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const conversation = `discord:${IDS.guild}:${IDS.channel}`;
const views = (youtube: number, tiktok: number): Chart => ({
  kind: 'bar',
  title: 'Views per platform',
  categories: ['YouTube', 'TikTok'],
  series: [{ name: 'Views', values: [youtube, tiktok] }],
  unit: 'views',
});
const card = (text: string, charts?: Chart[]): Card => ({
  title: md`Weekly views`,
  text: literal(text),
  tone: 'info',
  ...(charts ? { charts } : {}),
});

/** A PNG's width and height, read from its IHDR chunk (after the signature). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const png = Buffer.from(bytes);
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The message's chart files (what Discord attached to it). */
const chartFiles = (m: FakeMessage): FakeFile[] =>
  (m.files ?? []).filter((f) => /^chart-\d+\.png$/.test(f.filename));

async function postedChartCard(extra: Partial<Card> = {}): Promise<FakeMessage> {
  const posted = { ...card('This week', [views(1204, 880)]), ...extra };
  await postCard(w.h.store, { key: 'weekly', conversation, card: posted });
  await w.h.flush();
  const [message] = w.fake.channelMessages();
  if (!message) throw new Error('nothing posted');
  return message;
}

describe('charts on cards the outbox posts and edits', () => {
  it('posts the chart as chart-1.png, the PNG its gallery shows', async () => {
    w = await discordWorld();
    const message = await postedChartCard();
    expect(message.files?.map((f) => [f.field, f.filename, f.contentType])).toEqual([
      ['files[0]', 'chart-1.png', 'image/png'],
    ]);
    const size = pngSize(message.files?.[0]?.bytes ?? new Uint8Array());
    expect(size.width).toBeGreaterThanOrEqual(400);
    expect(size.height).toBeGreaterThanOrEqual(200);
    const charts = galleriesOf(message).flat();
    expect(charts.map((i) => i.url)).toContain('attachment://chart-1.png');
    expect(charts.find((i) => i.url === 'attachment://chart-1.png')?.description).toMatch(/YouTube 1,204/);
    expect(textOf(message)).not.toContain('attachment://');
    expect(w.fake.view(message).attachments).toHaveLength(1);
  });

  it('replaces the PNG when an edit brings another chart', async () => {
    w = await discordWorld();
    const message = await postedChartCard();
    const before = Buffer.from(chartFiles(message)[0]?.bytes ?? new Uint8Array());
    await editCard(w.h.store, 'weekly', { card: card('A week on', [views(2408, 95)]), dedupeKey: 'week-2' });
    await w.h.flush();
    expect(w.fake.edits(message.id)).toHaveLength(1);
    const files = chartFiles(message);
    expect(files.map((f) => f.filename)).toEqual(['chart-1.png']);
    pngSize(files[0]?.bytes ?? new Uint8Array());
    expect(Buffer.from(files[0]?.bytes ?? new Uint8Array()).equals(before)).toBe(false);
    expect(
      galleriesOf(message)
        .flat()
        .find((i) => i.url === 'attachment://chart-1.png')?.description,
    ).toMatch(/YouTube 2,408/);
    expect(w.fake.view(message).attachments).toHaveLength(1);
  });

  it('drops the chart file when the card is edited to one without charts', async () => {
    w = await discordWorld();
    const message = await postedChartCard();
    await editCard(w.h.store, 'weekly', { card: card('No numbers this week'), dedupeKey: 'week-2' });
    await w.h.flush();
    expect(textOf(message)).toContain('No numbers this week');
    expect(galleriesOf(message)).toEqual([]);
    expect(chartFiles(message)).toEqual([]);
    expect(w.fake.view(message).attachments).toEqual([]);
  });

  it('edits a card that never had charts as before: no files, nothing listed', async () => {
    w = await discordWorld();
    await postCard(w.h.store, { key: 'plain', conversation, card: card('Plain') });
    await w.h.flush();
    const [message] = w.fake.channelMessages();
    await editCard(w.h.store, 'plain', { card: card('Still plain'), dedupeKey: 'plain-2' });
    await w.h.flush();
    expect(textOf(message as FakeMessage)).toContain('Still plain');
    expect(w.fake.edits(message?.id as string)).toHaveLength(1);
    expect(w.fake.edits(message?.id as string)[0]).not.toHaveProperty('attachments');
    expect(message?.files ?? []).toEqual([]);
  });
});

describe('files Discord refuses, and galleries naming no file', () => {
  it('posts the card without its chart, saying so, when Discord refuses the file for good', async () => {
    w = await discordWorld();
    // No Attach Files permission in the channel: the multipart post is refused, the card still goes.
    w.fake.failNext('POST', /^\/channels\/\d+\/messages$/, 403);
    await postCard(w.h.store, { key: 'weekly', conversation, card: card('This week', [views(1204, 880)]) });
    await w.h.flush();
    const [message] = w.fake.channelMessages();
    if (!message) throw new Error('nothing posted');
    expect(message.files ?? []).toEqual([]);
    expect(galleriesOf(message)).toEqual([]);
    expect(textOf(message)).toContain('This week');
    expect(textOf(message)).toMatch(
      /I couldn't attach `chart-1\.png` to this card \(\d+\): check that I may attach files in this channel\./,
    );
  });

  it('leaves a post met by an outage for the outbox to retry, chart and all', async () => {
    w = await discordWorld();
    w.fake.failNext('POST', /^\/channels\/\d+\/messages$/, 502);
    await postCard(w.h.store, { key: 'weekly', conversation, card: card('This week', [views(1204, 880)]) });
    await w.h.flush();
    expect(w.fake.channelMessages()).toEqual([]);
    w.h.clock.advance(60_000);
    await w.h.flush();
    const [message] = w.fake.channelMessages();
    expect(chartFiles(message as FakeMessage).map((f) => f.filename)).toEqual(['chart-1.png']);
  });

  it('the fake refuses a V2 card whose gallery names a file the message does not hold', async () => {
    w = await discordWorld();
    const res = await fetch(`${w.fake.apiUrl}/v10/channels/${IDS.channel}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        flags: 1 << 15,
        components: [{ type: 12, items: [{ media: { url: 'attachment://chart-1.png' } }] }],
      }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('attachment://chart-1.png names no file');
    expect(w.fake.channelMessages()).toEqual([]);
  });
});

describe.each(['spec', 'real'] as const)('a click replacing a chart card, on the %s profile', (profile) => {
  for (const mode of ['gateway', 'http'] as const)
    for (const deferAfterMs of [undefined, 0]) {
      const how = deferAfterMs === 0 ? 'after a deferral' : 'at once';
      it(`drops the chart file when the new card has none (${mode}, ${how})`, async () => {
        w = await discordWorld({
          mode,
          harness: { simulator: { profile } },
          ...(deferAfterMs !== undefined ? { deferAfterMs } : {}),
        });
        const message = await postedChartCard({
          controls: [{ kind: 'button', action: 'videos.page', value: '1:all', label: 'Your videos' }],
        });
        expect(chartFiles(message)).toHaveLength(1);
        const click = await w.click(message, 'Your videos');
        // Deferred (type 6), the card is replaced by the edit of the interaction's message that follows.
        await w.fake.waitFor(() => click.events.some((e) => e === 'edit' || e === 'callback:7'));
        // The service's video list replaced the card in place, without a chart.
        expect(w.fake.channelMessages()).toHaveLength(1);
        expect(textOf(message)).not.toContain('Weekly views');
        expect(
          galleriesOf(message)
            .flat()
            .map((i) => i.url),
        ).not.toContain('attachment://chart-1.png');
        expect(chartFiles(message)).toEqual([]);
        expect(w.fake.view(message).attachments).toEqual([]);
      });
    }
});
