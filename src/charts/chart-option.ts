/**
 * The ECharts option for a core chart description (src/core/text/chart.ts): one translation, shared by the
 * SVG the playground shows and the PNG Discord attaches. Drawn for a still image: no animation, no tooltip,
 * every category label shown (each point in the middle of its band, so no edge label is cut), values written
 * on bars and slices when they fit; slices are named by their labels, without a legend.
 */
import type { Chart } from '../core/text/chart.js';
import { chartNumber } from '../core/text/chart.js';

/** Colours that stay apart for the common colour-vision deficiencies (Okabe–Ito), then ECharts' own. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#000000',
];

/** The family the PNG renderer loads (src/charts/render-png.ts); SVG viewers fall back to sans-serif. */
export const FONT_FAMILY = 'DejaVu Sans, sans-serif';

/** The parts of an ECharts option this file writes (ECharts' own type is not loaded until a chart is drawn). */
export type ChartOption = Record<string, unknown>;

const label = (formatter: (value: number) => string, position: string) => ({
  show: true,
  position,
  formatter: (p: { value: number }) => formatter(p.value),
  fontSize: 11,
});

function axesOption(chart: Chart): ChartOption {
  const several = chart.series.length > 1;
  const bars = chart.kind === 'bar' && chart.categories.length * chart.series.length <= 24;
  return {
    // Room under the axis for its labels, and for its name only when it has one.
    grid: {
      left: 64,
      right: 24,
      top: several ? 72 : 56,
      bottom: chart.xLabel ? 64 : 36,
      containLabel: false,
    },
    legend: several ? { top: 32, itemGap: 24, data: chart.series.map((s) => s.name) } : undefined,
    xAxis: {
      type: 'category',
      data: chart.categories,
      name: chart.xLabel,
      nameLocation: 'middle',
      nameGap: 36,
      axisLabel: { interval: 0, hideOverlap: false, fontSize: 11 },
    },
    yAxis: {
      type: 'value',
      name: chart.unit,
      axisLabel: { formatter: (v: number) => chartNumber(v), fontSize: 11 },
    },
    series: chart.series.map((s) => ({
      name: s.name,
      type: chart.kind === 'bar' ? 'bar' : 'line',
      data: s.values,
      ...(chart.kind === 'area' ? { areaStyle: { opacity: 0.25 } } : {}),
      ...(bars ? { label: label(chartNumber, 'top') } : {}),
    })),
  };
}

function pieOption(chart: Chart): ChartOption {
  const values = chart.series[0]?.values ?? [];
  return {
    series: [
      {
        name: chart.series[0]?.name,
        type: 'pie',
        radius: ['0%', '62%'],
        center: ['50%', '52%'],
        data: chart.categories.map((name, i) => ({ name, value: values[i] ?? 0 })),
        label: {
          show: true,
          formatter: (p: { name: string; value: number }) => `${p.name}: ${chartNumber(p.value)}`,
        },
      },
    ],
  };
}

/** The ECharts option drawing `chart`. */
export function chartOption(chart: Chart): ChartOption {
  return {
    animation: false,
    backgroundColor: '#ffffff',
    color: PALETTE,
    textStyle: { fontFamily: FONT_FAMILY },
    title: { text: chart.title, left: 16, top: 8, textStyle: { fontSize: 15, fontWeight: 'bold' } },
    ...(chart.kind === 'pie' ? pieOption(chart) : axesOption(chart)),
  };
}
