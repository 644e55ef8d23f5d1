/**
 * A chart drawn as SVG by Apache ECharts' server-side renderer: no browser, no canvas. ECharts is loaded on
 * the first chart (not at start-up) and only the pieces a chart uses are registered.
 */
import escapeHtml from 'escape-html';
import { type Chart, chartText } from '../core/text/chart.js';
import { chartOption } from './chart-option.js';

export interface ChartSize {
  width: number;
  height: number;
}

export const DEFAULT_CHART_SIZE: ChartSize = { width: 800, height: 400 };

type EChartsCore = typeof import('echarts/core');

let loading: Promise<EChartsCore> | undefined;

/** ECharts' core with the bar, line and pie charts, the title, grid and legend, and the SVG renderer. */
function loadEcharts(): Promise<EChartsCore> {
  loading ??= (async () => {
    const [core, charts, components, renderers, features] = await Promise.all([
      import('echarts/core'),
      import('echarts/charts'),
      import('echarts/components'),
      import('echarts/renderers'),
      import('echarts/features'),
    ]);
    core.use([
      charts.BarChart,
      charts.LineChart,
      charts.PieChart,
      components.TitleComponent,
      components.GridComponent,
      components.LegendComponent,
      components.AriaComponent,
      renderers.SVGRenderer,
      features.LabelLayout,
    ]);
    return core;
  })();
  return loading;
}

/** `chart` as a standalone SVG document of `size` pixels, with its numbers as the accessible description. */
export async function renderChartSvg(chart: Chart, size: ChartSize = DEFAULT_CHART_SIZE): Promise<string> {
  const echarts = await loadEcharts();
  const instance = echarts.init(null, null, { renderer: 'svg', ssr: true, ...size });
  try {
    instance.setOption(chartOption(chart));
    return described(instance.renderToSVGString(), chartText(chart));
  } finally {
    instance.dispose();
  }
}

/**
 * The SVG as an image with its numbers as its accessible name: `role="img"`, an `aria-label` and a `<title>`
 * (ECharts' own aria option needs a DOM, which server-side rendering has not).
 */
function described(svg: string, text: string): string {
  const safe = escapeHtml(text);
  return svg
    .replace(/^<svg /, `<svg role="img" aria-label="${safe}" `)
    .replace(/>/, `><title>${safe}</title>`);
}
