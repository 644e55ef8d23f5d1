/** The core's chart description: its text alternative and how it is fitted to a surface, never refused. */
import { describe, expect, it } from 'vitest';
import { type Chart, type ChartLimits, chartText, fitChart, shorten } from '../../src/core/text/chart.js';

const SLACK: ChartLimits = { title: 50, label: 20, series: 6, categories: 20, positiveSlices: true };

const views: Chart = {
  kind: 'bar',
  title: 'Views gained per platform',
  categories: ['YouTube', 'TikTok'],
  series: [{ name: 'Views', values: [1204.4, 880] }],
  unit: 'views',
};

describe('chart text', () => {
  it('says every number of one series on a line', () => {
    expect(chartText(views)).toBe('Views gained per platform (views): YouTube 1,204.4 · TikTok 880.');
  });

  it('says several series one line each', () => {
    const two = { ...views, series: [...views.series, { name: 'Likes', values: [3, 4] }] };
    expect(chartText(two)).toBe(
      'Views gained per platform (views):\nViews: YouTube 1,204.4 · TikTok 880\nLikes: YouTube 3 · TikTok 4',
    );
  });
});

describe('fitting a chart to a surface', () => {
  it('shortens words with an ellipsis instead of refusing', () => {
    const long = 'x'.repeat(60);
    const fitted = fitChart({ ...views, title: long, categories: ['A very long platform name', 'B'] }, SLACK);
    expect(fitted?.title).toBe(`${'x'.repeat(49)}…`);
    expect(fitted?.categories[0]).toBe('A very long platfor…');
    expect([...(fitted?.categories[0] ?? '')]).toHaveLength(20);
  });

  it('keeps shortened labels apart, still within the limit', () => {
    const fitted = fitChart(
      { ...views, categories: ['Instagram Reels ABCDEFG', 'Instagram Reels ABCDEFH'] },
      SLACK,
    );
    expect(fitted?.categories).toEqual(['Instagram Reels ABC…', 'Instagram Reels A… 2']);
  });

  it('keeps the latest categories of a long time line and the first series', () => {
    const days = Array.from({ length: 30 }, (_, i) => `Day ${i + 1}`);
    const series = Array.from({ length: 8 }, (_, s) => ({
      name: `S${s}`,
      values: days.map((_, i) => i + s),
    }));
    const fitted = fitChart({ ...views, kind: 'line', categories: days, series }, SLACK);
    expect(fitted?.categories).toHaveLength(20);
    expect(fitted?.categories[0]).toBe('Day 11');
    expect(fitted?.series.map((s) => s.name)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S5']);
    expect(fitted?.series[0]?.values[0]).toBe(10);
  });

  it("adds a pie's smallest slices up as Other and drops empty ones", () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
    const pie: Chart = {
      ...views,
      kind: 'pie',
      categories: names,
      series: [{ name: 'Views', values: [8, 0, 6, 5, 4, 3, 2, 1] }],
    };
    const fitted = fitChart(pie, SLACK);
    expect(fitted?.categories).toEqual(['A', 'C', 'D', 'E', 'F', 'Other']);
    expect(fitted?.series[0]?.values).toEqual([8, 6, 5, 4, 3, 3]);
  });

  it('leaves nothing to draw for a pie without a positive slice', () => {
    expect(
      fitChart({ ...views, kind: 'pie', series: [{ name: 'Views', values: [0, 0] }] }, SLACK),
    ).toBeUndefined();
    expect(
      fitChart({ ...views, categories: [], series: [{ name: 'Views', values: [] }] }, SLACK),
    ).toBeUndefined();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(shorten('🎬🎬🎬', 2)).toBe('🎬…');
    expect(shorten('🎬🎬', 2)).toBe('🎬🎬');
  });
});
