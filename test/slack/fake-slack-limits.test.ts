/**
 * The fake Slack refuses messages beyond the documented limits of carousel, card, data table and data
 * visualization blocks as Slack does (`invalid_blocks`, a json-pointer line per breach), so an adapter that
 * sends one fails its test. Driven over HTTP, as the Web API client calls it; a payload at each limit goes
 * through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeSlack } from './fake-slack.js';

let fake: FakeSlack;
beforeAll(async () => {
  fake = await FakeSlack.start();
});
afterAll(() => fake.close());

interface Answer {
  ok: boolean;
  error?: string;
  response_metadata?: { messages: string[] };
}

async function post(blocks: unknown[]): Promise<Answer> {
  const res = await fetch(`${fake.apiUrl}chat.postMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer xoxb-test' },
    body: JSON.stringify({ channel: 'C0VIDEOS', text: 'fallback', blocks }),
  });
  return (await res.json()) as Answer;
}

/** Refused as invalid_blocks, with exactly these json-pointer lines' pointers. */
async function expectRefused(blocks: unknown[], pointers: string[]): Promise<string[]> {
  const answer = await post(blocks);
  expect(answer.ok).toBe(false);
  expect(answer.error).toBe('invalid_blocks');
  const lines = answer.response_metadata?.messages ?? [];
  for (const line of lines) expect(line).toMatch(/^\[ERROR\] .+ \[json-pointer:\/blocks[^\]]*\]$/);
  expect(lines.map((line) => /json-pointer:([^\]]+)\]/.exec(line)?.[1])).toEqual(pointers);
  return lines;
}

const repeat = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const button = (i: number) => ({
  type: 'button',
  action_id: `thumbnail.pick|${i}`,
  text: { type: 'plain_text', text: 'Use this' },
  value: `v:${i}`,
});
const card = (over: Record<string, unknown> = {}) => ({
  type: 'card',
  hero_image: { type: 'image', image_url: 'https://media.example/t1.png', alt_text: 'Thumbnail option 1' },
  title: mrkdwn('*Option 1* ⭐ AI pick, in use'),
  body: mrkdwn('“Hook”\ngrade A · score 91'),
  actions: [button(0)],
  ...over,
});
const carousel = (cards: unknown[]) => ({ type: 'carousel', elements: cards });

describe('carousel and card blocks', () => {
  it('take 1–10 cards of at most 150 characters of title, 200 of body and 3 buttons', async () => {
    expect(await post([carousel(repeat(10, () => card()))])).toMatchObject({ ok: true });
    const full = card({
      title: mrkdwn('t'.repeat(150)),
      body: mrkdwn('b'.repeat(200)),
      actions: repeat(3, button),
    });
    expect(await post([{ type: 'section', text: mrkdwn('head') }, carousel([full])])).toMatchObject({
      ok: true,
    });
  });

  it('refuses more than 10 cards, or none', async () => {
    const lines = await expectRefused([carousel(repeat(11, () => card()))], ['/blocks/0/elements']);
    expect(lines[0]).toContain('no more than 10 items');
    await expectRefused([carousel([])], ['/blocks/0/elements']);
  });

  it('refuses a long title or body, a fourth button, a bad hero image, an empty card', async () => {
    await expectRefused(
      [
        { type: 'section', text: mrkdwn('head') },
        carousel([
          card({ title: mrkdwn('t'.repeat(151)) }),
          card({ body: mrkdwn('b'.repeat(201)) }),
          card({ actions: repeat(4, button) }),
          card({ hero_image: { type: 'image', image_url: 'https://media.example/t.png' } }),
          { type: 'card' },
        ]),
      ],
      [
        '/blocks/1/elements/0/title/text',
        '/blocks/1/elements/1/body/text',
        '/blocks/1/elements/2/actions',
        '/blocks/1/elements/3/hero_image/alt_text',
        '/blocks/1/elements/4',
      ],
    );
    await expectRefused([carousel([{ type: 'section', text: mrkdwn('x') }])], ['/blocks/0/elements/0/type']);
    await expectRefused([card({ title: mrkdwn('t'.repeat(151)) })], ['/blocks/0/title/text']);
  });
});

const cell = (text: string) => ({ type: 'raw_text', text });
const table = (rows: unknown[][]) => ({ type: 'data_table', caption: 'Credit ledger', page_size: 10, rows });
const grid = (rows: number, columns: number, text = 'x') =>
  table(repeat(rows + 1, (r) => repeat(columns, (c) => (r === 0 ? cell(`Column ${c}`) : cell(text)))));

describe('data table blocks', () => {
  it('take a header and 1–100 rows of 1–20 columns, up to 10,000 characters', async () => {
    expect(await post([grid(100, 20)])).toMatchObject({ ok: true });
    const number = { type: 'raw_number', value: 1204, text: '1,204' };
    expect(await post([table([[cell('Views')], [number]])])).toMatchObject({ ok: true });
  });

  it('refuses more than 100 rows, more than 20 columns, a header alone', async () => {
    await expectRefused([grid(101, 2)], ['/blocks/0/rows']);
    await expectRefused([grid(1, 21)], ['/blocks/0/rows/0', '/blocks/0/rows/1']);
    await expectRefused([table([[cell('Change'), cell('Reason')]])], ['/blocks/0/rows']);
  });

  it('refuses a row narrower or wider than the header, an empty caption, a rich header', async () => {
    const header = [cell('Change'), cell('Reason')];
    await expectRefused([table([header, [cell('+50')]])], ['/blocks/0/rows/1']);
    await expectRefused([{ ...table([header, header]), caption: '' }], ['/blocks/0/caption']);
    const rich = { type: 'rich_text', elements: [] };
    await expectRefused([table([[rich], [cell('x')]])], ['/blocks/0/rows/0/0/type']);
  });

  it('refuses more than 10,000 characters of cells, in a table and across the message', async () => {
    await expectRefused([grid(10, 10, 'x'.repeat(101))], ['/blocks/0/rows', '/blocks']);
    const half = grid(10, 10, 'x'.repeat(55));
    await expectRefused([half, half], ['/blocks']);
  });
});

const bars = (over: {
  title?: string;
  categories?: string[];
  series?: { name: string; values: number[] }[];
}) => {
  const categories = over.categories ?? ['YouTube', 'TikTok'];
  const series = over.series ?? [{ name: 'Views', values: categories.map((_, i) => 100 * (i + 1)) }];
  return {
    type: 'data_visualization',
    title: over.title ?? 'Views per platform',
    chart: {
      type: 'bar',
      series: series.map((s) => ({
        name: s.name,
        data: categories.map((label, i) => ({ label, value: s.values[i] ?? 0 })),
      })),
      axis_config: { categories, y_label: 'views' },
    },
  };
};
const pie = (values: number[]) => ({
  type: 'data_visualization',
  title: 'Views by platform',
  chart: { type: 'pie', segments: values.map((value, i) => ({ label: `Platform ${i}`, value })) },
});

describe('data visualization blocks', () => {
  it('take two charts of 1–6 series of 1–20 points, titles ≤ 50 and labels ≤ 20', async () => {
    const twenty = repeat(20, (i) => `Day ${i + 1}`.padEnd(20, '.'));
    const six = repeat(6, (i) => ({ name: `Series ${i}`.padEnd(20, '.'), values: twenty.map(() => 1) }));
    expect(
      await post([bars({ title: 'T'.repeat(50), categories: twenty, series: six }), pie([1, 2])]),
    ).toMatchObject({ ok: true });
  });

  it('refuses a third chart in a message', async () => {
    const lines = await expectRefused([bars({}), bars({}), bars({})], ['/blocks/2']);
    expect(lines[0]).toContain('no more than 2 charts');
  });

  it('refuses a long title, a long label, a long series name', async () => {
    await expectRefused([bars({ title: 'T'.repeat(51) })], ['/blocks/0/title']);
    await expectRefused(
      [bars({ categories: ['A very long platform name'] })],
      ['/blocks/0/chart/axis_config/categories/0'],
    );
    await expectRefused(
      [bars({ series: [{ name: 'Views gained this week', values: [1, 2] }] })],
      ['/blocks/0/chart/series/0/name'],
    );
  });

  it('refuses more than 6 series, more than 20 points, a point off the categories', async () => {
    const seven = repeat(7, (i) => ({ name: `S${i}`, values: [1, 2] }));
    await expectRefused([bars({ series: seven })], ['/blocks/0/chart/series']);
    const many = repeat(21, (i) => `D${i}`);
    await expectRefused(
      [bars({ categories: many })],
      ['/blocks/0/chart/axis_config/categories', '/blocks/0/chart/series/0/data'],
    );
    const off = bars({});
    off.chart.series[0]?.data.push({ label: 'Vine', value: 3 });
    await expectRefused([off], ['/blocks/0/chart/series/0/data/2/label']);
  });

  it('refuses a pie of more than 6 slices or a slice not above zero', async () => {
    await expectRefused([pie([1, 2, 3, 4, 5, 6, 7])], ['/blocks/0/chart/segments']);
    await expectRefused([pie([3, 0])], ['/blocks/0/chart/segments/1/value']);
  });
});

describe('every way in', () => {
  it('refuses an over-limit message on chat.update and response_url too, and logs each refusal', async () => {
    const posted = await post([{ type: 'section', text: mrkdwn('head') }]);
    expect(posted.ok).toBe(true);
    const before = fake.refusals.length;
    const ts = fake.messages.at(-1)?.ts;
    const update = await fetch(`${fake.apiUrl}chat.update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer xoxb-test' },
      body: JSON.stringify({ channel: 'C0VIDEOS', ts, text: 'x', blocks: [carousel([])] }),
    });
    expect(await update.json()).toMatchObject({ ok: false, error: 'invalid_blocks' });
    const url = fake.responseUrl();
    const reply = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', blocks: [pie([0])] }),
    });
    expect(await reply.json()).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(fake.responsesTo(url)).toEqual([]);
    expect(fake.refusals.slice(before).map((r) => [r.where, r.messages.length])).toEqual([
      ['chat.update', 1],
      ['response_url', 1],
    ]);
  });
});
