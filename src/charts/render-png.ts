/**
 * A chart as a PNG, for surfaces that show images but not charts (Discord's media gallery): the SVG of
 * render-svg.ts rasterised by resvg. resvg draws only the fonts it is given, and a host without fonts would
 * lose every word silently, so the DejaVu Sans files shipped with the `dejavu-fonts-ttf` package are loaded
 * and the system's fonts are not: the image is the same on every machine.
 */
import { createRequire } from 'node:module';
import type { Chart } from '../core/text/chart.js';
import { type ChartSize, DEFAULT_CHART_SIZE, renderChartSvg } from './render-svg.js';

const require = createRequire(import.meta.url);

/** The bundled regular and bold faces (titles are bold). */
export const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) =>
  require.resolve(`dejavu-fonts-ttf/ttf/${file}`),
);

type Resvg = typeof import('@resvg/resvg-js');
let loading: Promise<Resvg> | undefined;

/** `chart` as PNG bytes, twice the pixels of `size` so it stays sharp on dense screens. */
export async function renderChartPng(chart: Chart, size: ChartSize = DEFAULT_CHART_SIZE): Promise<Buffer> {
  const svg = await renderChartSvg(chart, size);
  loading ??= import('@resvg/resvg-js');
  const { Resvg } = await loading;
  const image = new Resvg(svg, {
    fitTo: { mode: 'width', value: size.width * 2 },
    background: '#ffffff',
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: 'DejaVu Sans' },
  });
  return image.render().asPng();
}
