/**
 * Charts drawn for real by ECharts' server-side SVG renderer and resvg: the words and numbers are in the
 * image, user text cannot become markup, and the PNG carries its text even on a host without fonts.
 */
import { describe, expect, it } from 'vitest';
import { renderChartPng } from '../../src/charts/render-png.js';
import { renderChartSvg } from '../../src/charts/render-svg.js';
import type { Chart } from '../../src/core/text/chart.js';

const views: Chart = {
  kind: 'bar',
  title: 'Views gained per platform',
  categories: ['YouTube', 'TikTok', 'Instagram'],
  series: [{ name: 'Views', values: [1204, 880, 75] }],
  unit: 'views',
};

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('SVG charts', () => {
  it('draws every category and value, and describes the chart with its numbers', async () => {
    const svg = await renderChartSvg(views);
    expect(svg.startsWith('<svg')).toBe(true);
    for (const word of ['Views gained per platform', 'YouTube', 'TikTok', 'Instagram', '1,204', '880']) {
      expect(svg).toContain(word);
    }
    expect(svg).toMatch(/aria-label="[^"]*YouTube 1,204 · TikTok 880 · Instagram 75/);
  });

  it('draws lines, areas and pies', async () => {
    const days = ['Mon', 'Tue', 'Wed', 'Thu'];
    const line = await renderChartSvg({
      ...views,
      kind: 'line',
      categories: days,
      series: [{ name: 'Views', values: [1, 5, 3, 9] }],
    });
    expect(line).toContain('<path');
    const area = await renderChartSvg({
      ...views,
      kind: 'area',
      categories: days,
      series: [{ name: 'Views', values: [1, 5, 3, 9] }],
    });
    expect(area).not.toEqual(line);
    const pie = await renderChartSvg({ ...views, kind: 'pie' });
    expect(pie).toContain('YouTube: 1,204');
  });

  it('leaves no empty band under the category labels when the axis has no name', async () => {
    const svg = await renderChartSvg(views, { width: 640, height: 320 });
    const labelY = (word: string, image = svg) =>
      Number(new RegExp(`translate\\(\\S+ (\\S+)\\)"[^>]*>${word}<`).exec(image)?.[1] ?? Number.NaN);
    // The labels' line ends about 11 px under its anchor; what is left under it is margin, not a blank strip.
    expect(320 - labelY('YouTube')).toBeLessThanOrEqual(32);
    const named = await renderChartSvg({ ...views, xLabel: 'Platform' }, { width: 640, height: 320 });
    // With a name, the axis keeps room for it under the labels, inside the image.
    expect(labelY('Platform', named)).toBeLessThan(320 - 8);
    expect(labelY('Platform', named)).toBeGreaterThan(labelY('YouTube', named) + 11);
  });

  it('keeps a title or label full of markup as text', async () => {
    const svg = await renderChartSvg({
      ...views,
      title: '<script>alert(1)</script> & "x"',
      categories: ['<b>', 'TikTok', 'a&b'],
    });
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;script&gt;');
  });
});

describe('PNG charts', () => {
  it('is a PNG at twice the asked width', async () => {
    const png = await renderChartPng(views, { width: 400, height: 200 });
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(pngSize(png)).toEqual({ width: 800, height: 400 });
  });

  it('draws its words with the bundled font: a different title gives a different image', async () => {
    // Without a font resvg drops text silently, and both images would be the same bars.
    const size = { width: 400, height: 200 };
    const a = await renderChartPng({ ...views, title: 'Views gained per platform' }, size);
    const b = await renderChartPng({ ...views, title: 'Something else entirely' }, size);
    expect(a.equals(b)).toBe(false);
  });
});
