/**
 * A chart as the core describes it: what is measured, not how it is drawn. Each adapter renders the one
 * description its own way (Slack's data-visualization block, SVG in the playground, a PNG in Discord's media
 * gallery), and every chart carries its numbers as text (`chartText`) for screen readers, notifications and
 * any surface that cannot draw it. A card holds charts like any other element (`Card.charts`), so the
 * analytics answer and the weekly digest use the same piece.
 *
 * Words in a chart are plain text, not card markdown: titles and labels are drawn, never formatted, and they
 * are already human (the labelling path names platforms and statuses before they reach a chart).
 */

/** Bars side by side, a line or a filled area over ordered categories, or a pie of parts of a whole. */
export type ChartKind = 'bar' | 'line' | 'area' | 'pie';

/** One named row of values, one value per category. */
export interface ChartSeries {
  name: string;
  values: number[];
}

export interface Chart {
  kind: ChartKind;
  /** What the chart shows ("Views gained per platform"). */
  title: string;
  /** The x axis's ordered categories; a pie's slices. */
  categories: string[];
  /** One or more series, each with a value per category; a pie reads the first. */
  series: ChartSeries[];
  /** What the values count ("views"), for the axis and the text alternative. */
  unit?: string;
  /** What the categories are ("Platform", "Day"). */
  xLabel?: string;
}

/** How much of a chart a surface can show. */
export interface ChartLimits {
  title: number;
  label: number;
  series: number;
  categories: number;
  /** Pie slices must be positive on surfaces that say so. */
  positiveSlices: boolean;
}

const ELLIPSIS = '…';

/** `text` cut to `max` characters (by code point), ending with "…" when it was longer. */
export function shorten(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}${ELLIPSIS}`;
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A value as the text alternative says it ("1,204"). */
export const chartNumber = (value: number): string => numberFormat.format(value);

/** The chart's numbers as lines of words: one line per series ("Views: YouTube 1,204 · TikTok 880"). */
export function chartPoints(chart: Chart): string[] {
  const several = chart.series.length > 1 && chart.kind !== 'pie';
  return (chart.kind === 'pie' ? chart.series.slice(0, 1) : chart.series).map((series) => {
    const points = chart.categories.map((c, i) => `${c} ${chartNumber(series.values[i] ?? 0)}`).join(' · ');
    return several ? `${series.name}: ${points}` : points;
  });
}

/** The chart's heading with its unit: "Views gained per platform (views)". */
export const chartHeading = (chart: Chart): string => `${chart.title}${chart.unit ? ` (${chart.unit})` : ''}`;

/**
 * The chart as words, with every number: "Views gained per platform (views): YouTube 1,204 · TikTok 880."
 * Several series read one line each.
 */
export function chartText(chart: Chart): string {
  const rows = chartPoints(chart);
  return rows.length === 1
    ? `${chartHeading(chart)}: ${rows[0]}.`
    : `${chartHeading(chart)}:\n${rows.join('\n')}`;
}

/** Keeps the `max` largest slices and adds the rest up as "Other". */
function foldSlices(chart: Chart, max: number): Chart {
  const values = chart.series[0]?.values ?? [];
  const order = chart.categories.map((_, i) => i).sort((a, b) => (values[b] ?? 0) - (values[a] ?? 0));
  const kept = order.slice(0, max - 1).sort((a, b) => a - b);
  const rest = order.slice(max - 1).reduce((sum, i) => sum + (values[i] ?? 0), 0);
  return {
    ...chart,
    categories: [...kept.map((i) => chart.categories[i] ?? ''), 'Other'],
    series: [{ name: chart.series[0]?.name ?? '', values: [...kept.map((i) => values[i] ?? 0), rest] }],
  };
}

/** A pie's slices, without the ones a surface cannot draw (zero or negative), folded to the limit. */
function fitSlices(chart: Chart, limits: ChartLimits): Chart {
  const values = chart.series[0]?.values ?? [];
  const shown = chart.categories
    .map((_, i) => i)
    .filter((i) => !limits.positiveSlices || (values[i] ?? 0) > 0);
  const pie: Chart = {
    ...chart,
    categories: shown.map((i) => chart.categories[i] ?? ''),
    series: [{ name: chart.series[0]?.name ?? '', values: shown.map((i) => values[i] ?? 0) }],
  };
  return pie.categories.length > limits.series ? foldSlices(pie, limits.series) : pie;
}

/**
 * The chart as a surface with `limits` can draw it, never refused: words shortened with "…", the latest
 * categories kept (a time line shows its end), the first series kept, a pie's smallest slices added up as
 * "Other". Undefined when nothing is left to draw (no category, or a pie with no positive slice); the
 * caller then shows the text alternative alone.
 */
export function fitChart(chart: Chart, limits: ChartLimits): Chart | undefined {
  const fitted = chart.kind === 'pie' ? fitSlices(chart, limits) : keepLatest(chart, limits);
  if (fitted.categories.length === 0 || fitted.series.length === 0) return undefined;
  return {
    ...fitted,
    title: shorten(fitted.title, limits.title),
    categories: uniqueLabels(fitted.categories, limits.label),
    series: fitted.series.map((s, i, all) => ({
      ...s,
      name: uniqueLabels(
        all.map((x) => x.name),
        limits.label,
      )[i] as string,
    })),
    ...(fitted.xLabel === undefined ? {} : { xLabel: shorten(fitted.xLabel, limits.title) }),
    ...(fitted.unit === undefined ? {} : { unit: shorten(fitted.unit, limits.title) }),
  };
}

function keepLatest(chart: Chart, limits: ChartLimits): Chart {
  const from = Math.max(0, chart.categories.length - limits.categories);
  return {
    ...chart,
    categories: chart.categories.slice(from),
    series: chart.series.slice(0, limits.series).map((s) => ({ ...s, values: s.values.slice(from) })),
  };
}

/**
 * Labels shortened to `max` and kept unique ("Instagram Re…", "Instagram R… 2"), since surfaces key points
 * by label.
 */
function uniqueLabels(labels: string[], max: number): string[] {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const short = shorten(label, max);
    const n = (seen.get(short) ?? 0) + 1;
    seen.set(short, n);
    return n === 1 ? short : `${shorten(label, max - String(n).length - 1)} ${n}`;
  });
}
