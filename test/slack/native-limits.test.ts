/**
 * Big tables and charts through the Slack adapter's outbox sender, real Web API client against the fake
 * Slack (which refuses anything beyond the documented limits of the newest blocks): what is sent always
 * fits, and a table cut short says how many rows it left out, in the data table and in the classic lines.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/text/cards.js';
import type { Chart } from '../../src/core/text/chart.js';
import type { Table } from '../../src/core/text/table.js';
import { literal, md } from '../../src/core/text/text.js';
import type { FakeMessage } from './fake-slack.js';
import { address, blocksText, expectValidBlocks, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
beforeEach(async () => {
  w = await slackWorld();
});
afterEach(() => w.close());

const ledger = (rows: number, note = ''): Table => ({
  caption: 'Credit ledger',
  columns: [{ label: 'Change' }, { label: 'Reason' }, { label: 'When' }],
  rows: Array.from({ length: rows }, (_, i) => [
    { value: -(i + 1), text: `−${i + 1}` },
    literal(`Video ${i + 1}${note}`),
    literal(`Nov ${(i % 28) + 1}`),
  ]),
});

const days = Array.from({ length: 30 }, (_, i) => `2026-11-${String(i + 1).padStart(2, '0')}`);
const views: Chart = {
  kind: 'line',
  title: 'Views gained every day over the last thirty days, per platform',
  categories: days,
  series: ['YouTube', 'TikTok', 'Instagram', 'Facebook', 'LinkedIn', 'X', 'Threads'].map((name, s) => ({
    name,
    values: days.map((_, i) => (s + 1) * (i + 1)),
  })),
  unit: 'views',
  xLabel: 'Day',
};
const share: Chart = {
  kind: 'pie',
  title: 'Views by platform',
  categories: ['YouTube', 'TikTok', 'Instagram', 'Facebook', 'LinkedIn', 'X', 'Threads', 'Vine'],
  series: [{ name: 'Views', values: [800, 400, 200, 100, 50, 25, 12, 0] }],
};

/** The card posted by the outbox sender, as the fake channel shows it. */
async function posted(card: Card, dedupeId: string): Promise<FakeMessage> {
  const at = await w.adapter.sender.post(address.channel(), card, { dedupeId });
  const message = w.fake.messages.find((m) => at.endsWith(`:${m.ts}`));
  if (!message) throw new Error('the card was not posted');
  return message;
}

const blocksOf = <T>(m: FakeMessage, type: string): T[] =>
  ((m.blocks ?? []) as { type: string }[]).filter((b) => b.type === type) as T[];

describe('the newest blocks within their limits', () => {
  it('sends 100 rows of a 150-row table and says how many more there are', async () => {
    const message = await posted({ title: md`Credits`, table: ledger(150) }, 'outbox:table');
    expect(w.fake.refusals).toEqual([]);
    expectValidBlocks(message.blocks);
    const [table] = blocksOf<{ rows: unknown[] }>(message, 'data_table');
    expect(table?.rows).toHaveLength(101); // the header and 100 rows
    expect(blocksText(message.blocks)).toContain('…and 50 more rows.');
  });

  it('cuts a table at 10,000 characters of cells and counts the rows left', async () => {
    const message = await posted(
      { title: md`Credits`, table: ledger(150, ` ${'x'.repeat(120)}`) },
      'outbox:wide',
    );
    expect(w.fake.refusals).toEqual([]);
    const [table] = blocksOf<{ rows: unknown[] }>(message, 'data_table');
    const shown = (table?.rows.length ?? 0) - 1;
    expect(shown).toBeLessThan(100);
    expect(blocksText(message.blocks)).toContain(`…and ${150 - shown} more rows.`);
  });

  it('fits charts of 30 days and 7 series, a pie of 8 slices, and a third chart as words', async () => {
    const card: Card = { title: md`Analytics`, charts: [views, share, { ...share, title: 'Third' }] };
    const message = await posted(card, 'outbox:charts');
    expect(w.fake.refusals).toEqual([]);
    expectValidBlocks(message.blocks);
    const charts = blocksOf<{
      title: string;
      chart: { axis_config?: { categories: string[] }; series?: unknown[]; segments?: { value: number }[] };
    }>(message, 'data_visualization');
    expect(charts).toHaveLength(2);
    const [line, pie] = charts;
    expect(line?.title.length).toBeLessThanOrEqual(50);
    expect(line?.chart.axis_config?.categories).toHaveLength(20);
    expect(line?.chart.axis_config?.categories.at(-1)).toBe('2026-11-30'); // the latest days kept
    expect(line?.chart.series).toHaveLength(6);
    expect(pie?.chart.segments?.length).toBeLessThanOrEqual(6);
    for (const segment of pie?.chart.segments ?? []) expect(segment.value).toBeGreaterThan(0);
    expect(blocksText(message.blocks)).toContain('Third');
  });

  it('shows the same rows as lines where the data table is refused, and says how many more', async () => {
    w.fake.refusedBlocks.add('data_table');
    const message = await posted({ title: md`Credits`, table: ledger(150) }, 'outbox:classic');
    expect(w.fake.refusals.map((r) => r.where)).toEqual(['chat.postMessage']);
    expect(blocksOf(message, 'data_table')).toEqual([]);
    expectValidBlocks(message.blocks);
    const said = blocksText(message.blocks);
    expect(said).toContain('Video 100');
    expect(said).not.toContain('Video 101');
    expect(said).toContain('…and 50 more rows.');
  });
});
