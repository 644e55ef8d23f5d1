/** A card's table and charts in the playground's HTML: a real table, and a drawn chart with its numbers. */
import { describe, expect, it } from 'vitest';
import { drawCharts } from '../../adapters/playground/html/data.js';
import { renderCard } from '../../adapters/playground/render.js';
import type { Card } from '../../src/core/index.js';
import { literal, md, mention } from '../../src/core/text/text.js';

const card: Card = {
  title: md`Analytics`,
  table: {
    caption: 'Top posts',
    columns: [{ label: 'Post' }, { label: 'Views' }, { label: 'By' }],
    rows: [
      [literal('<b>Octopus</b> facts'), { value: 1204, text: '1,204' }, mention('playground:local:alice')],
    ],
  },
  charts: [
    {
      kind: 'bar',
      title: 'Views gained per platform',
      categories: ['YouTube', 'TikTok'],
      series: [{ name: 'Views', values: [1204, 880] }],
      unit: 'views',
    },
  ],
};

describe('tables and charts in HTML', () => {
  it('renders a table with a caption, headers and sortable numbers, escaping what it shows', () => {
    const html = renderCard(card);
    expect(html).toContain('<caption>Top posts</caption>');
    // A column of numbers: its header right-aligned over them, like its cells.
    expect(html).toContain('<th scope="col" class="num">Views</th>');
    expect(html).toContain('<th scope="col">Post</th>');
    expect(html).toContain('<td class="num" data-value="1204">1,204</td>');
    expect(html).toContain('&lt;b&gt;Octopus&lt;/b&gt; facts');
    expect(html).not.toContain('<b>Octopus');
  });

  it('shows a chart not drawn yet as its numbers, and drawn as an SVG image with them as alt text', async () => {
    const before = renderCard(card);
    expect(before).toContain(
      '<figcaption>Views gained per platform (views): YouTube 1,204 · TikTok 880.</figcaption>',
    );
    expect(before).not.toContain('<img class="chart-image"');
    await drawCharts([card]);
    const after = renderCard(card);
    const src = /<img class="chart-image" src="data:image\/svg\+xml;base64,([^"]+)" alt="([^"]+)">/.exec(
      after,
    );
    expect(src?.[2]).toBe('Views gained per platform (views): YouTube 1,204 · TikTok 880.');
    const svg = Buffer.from(src?.[1] ?? '', 'base64').toString('utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('YouTube');
  });
});
