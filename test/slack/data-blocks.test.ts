/** Slack's data blocks for the core's charts and tables, within every limit Slack checks. */
import { describe, expect, it } from 'vitest';
import { chartBlock, tableBlock } from '../../adapters/slack/data-blocks.js';
import type { Chart, Table } from '../../src/core/index.js';
import { literal, mention } from '../../src/core/text/text.js';

const views: Chart = {
  kind: 'bar',
  title: 'Views gained per platform over the last seven days of the month',
  categories: ['YouTube', 'TikTok'],
  series: [{ name: 'Views', values: [1204, 880] }],
  unit: 'views',
};

describe('data visualization blocks', () => {
  it('draws a bar chart with one point per category, its title within 50 characters', () => {
    expect(chartBlock(views)).toEqual({
      type: 'data_visualization',
      title: 'Views gained per platform over the last seven day…',
      chart: {
        type: 'bar',
        series: [
          {
            name: 'Views',
            data: [
              { label: 'YouTube', value: 1204 },
              { label: 'TikTok', value: 880 },
            ],
          },
        ],
        axis_config: { categories: ['YouTube', 'TikTok'], y_label: 'views' },
      },
    });
  });

  it('draws a pie as segments, without the empty ones', () => {
    const pie = chartBlock({
      ...views,
      kind: 'pie',
      categories: ['A', 'B', 'C'],
      series: [{ name: 'V', values: [3, 0, 1] }],
    });
    expect(pie?.chart).toEqual({
      type: 'pie',
      segments: [
        { label: 'A', value: 3 },
        { label: 'C', value: 1 },
      ],
    });
  });

  it('sends no chart when nothing is left to draw', () => {
    expect(chartBlock({ ...views, kind: 'pie', series: [{ name: 'V', values: [0, 0] }] })).toBeUndefined();
  });
});

describe('data table blocks', () => {
  const ledger: Table = {
    caption: 'Credit ledger',
    columns: [{ label: 'Change' }, { label: 'What' }, { label: 'Who' }],
    rows: [
      [{ value: -50, text: '−50' }, literal('motion_lite *render*'), mention('slack:T1:U1')],
      [{ value: 200, text: '+200' }, literal('Top-up'), literal('')],
    ],
  };

  it('keeps numbers sortable, plain text plain and mentions as rich text', () => {
    const { block, left } = tableBlock(ledger) ?? {};
    expect(left).toBe(0);
    expect(block?.rows[0]).toEqual([
      { type: 'raw_text', text: 'Change' },
      { type: 'raw_text', text: 'What' },
      { type: 'raw_text', text: 'Who' },
    ]);
    expect(block?.rows[1]?.[0]).toEqual({ type: 'raw_number', value: -50, text: '−50' });
    expect(block?.rows[1]?.[1]).toEqual({ type: 'raw_text', text: 'motion_lite *render*' });
    expect(block?.rows[1]?.[2]).toEqual({
      type: 'rich_text',
      elements: [{ type: 'rich_text_section', elements: [{ type: 'user', user_id: 'U1' }] }],
    });
    // Slack refuses an empty raw_text.
    expect(block?.rows[2]?.[2]).toEqual({ type: 'raw_text', text: ' ' });
  });

  it('sends at most 100 rows and 10,000 characters, and says how many were left', () => {
    const many: Table = {
      ...ledger,
      rows: Array.from({ length: 150 }, (_, i) => [
        literal(`row ${i}`),
        literal('x'.repeat(20)),
        literal(''),
      ]),
    };
    const { block, left } = tableBlock(many) ?? {};
    expect(block?.rows).toHaveLength(101);
    expect(left).toBe(50);
    const wide: Table = {
      ...ledger,
      rows: Array.from({ length: 60 }, () => [literal('y'.repeat(300)), literal(''), literal('')]),
    };
    const fitted = tableBlock(wide);
    const chars =
      fitted?.block.rows
        .slice(1)
        .flat()
        .reduce((n, c) => n + ('text' in c ? c.text.length : 0), 0) ?? 0;
    expect(chars).toBeLessThanOrEqual(10_000);
    expect(fitted?.left).toBe(60 - (fitted?.block.rows.length ?? 0) + 1);
  });
});
