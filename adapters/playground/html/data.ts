/**
 * A card's table and charts in HTML: a real `<table>` (caption, column headers, numbers right-aligned with
 * their value for sorting), and each chart as an SVG image drawn by src/charts with its numbers as the alt
 * text and a caption. The SVG is an `<img>` from a data URL, not markup in the page: the page's content
 * security policy allows no inline styles (which ECharts' SVG carries), and an image document runs nothing.
 *
 * Drawing is asynchronous (the chart libraries load on first use) while rendering HTML is not: `drawCharts`
 * draws a card's charts before it is shown, and `renderCharts` reads what was drawn; a chart not drawn yet
 * shows its numbers alone.
 */
import escapeHtml from 'escape-html';
import type { Card, Chart, Table } from '../../../src/core/index.js';
import { cellText, chartText, isNumberCell } from '../../../src/core/index.js';
import { markdownToHtml } from '../text.js';

const drawn = new WeakMap<Chart, string>();

/** Draws the card's charts (and those of the cards answered with it) as SVG, once per chart. */
export async function drawCharts(cards: readonly Card[]): Promise<void> {
  const charts = cards.flatMap((card) => card.charts ?? []).filter((chart) => !drawn.has(chart));
  if (charts.length === 0) return;
  const { renderChartSvg } = await import('../../../src/charts/render-svg.js');
  for (const chart of charts) drawn.set(chart, await renderChartSvg(chart, { width: 640, height: 320 }));
}

export function renderCharts(charts: readonly Chart[]): string {
  return charts
    .map((chart) => {
      const text = escapeHtml(chartText(chart));
      const svg = drawn.get(chart);
      const image = svg
        ? `<img class="chart-image" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}" alt="${text}">`
        : '';
      return `<figure class="card-chart" data-testid="card-chart">${image}<figcaption>${text}</figcaption></figure>`;
    })
    .join('');
}

export function renderTable(table: Table): string {
  // A column of numbers has its header right-aligned over them, as its cells are.
  const numeric = table.columns.map(
    (_, i) => table.rows.length > 0 && table.rows.every((row) => isNumberCell(row[i])),
  );
  const head = table.columns
    .map((c, i) => `<th scope="col"${numeric[i] ? ' class="num"' : ''}>${escapeHtml(c.label)}</th>`)
    .join('');
  const rows = table.rows.map((row) => {
    const cells = table.columns.map((_, i) => {
      const cell = row[i];
      if (isNumberCell(cell))
        return `<td class="num" data-value="${cell.value}">${escapeHtml(cell.text)}</td>`;
      return `<td>${markdownToHtml(cellText(cell))}</td>`;
    });
    return `<tr>${cells.join('')}</tr>`;
  });
  return (
    `<table class="card-table" data-testid="card-table"><caption>${escapeHtml(table.caption)}</caption>` +
    `<thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}
