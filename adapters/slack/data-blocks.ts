/**
 * Slack's data blocks for the core's charts and tables: `data_visualization`
 * (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block) and `data_table`
 * (https://docs.slack.dev/reference/block-kit/blocks/data-table-block). `@slack/types` 2.x types neither, so
 * their shapes are written here from the reference. Every limit is checked before sending: what does not fit
 * is shortened or left to the caller to move elsewhere, never sent for Slack to refuse.
 */
import type { types } from '@slack/bolt';
import {
  type Chart,
  type ChartLimits,
  cellText,
  fitChart,
  fitTable,
  isNumberCell,
  type Table,
  type TableLimits,
} from '../../src/core/index.js';
import { lineElements } from './rich-text.js';
import { toMrkdwn, toPlain } from './text.js';

/** Titles ≤ 50 and labels ≤ 20 characters; 1–6 series (or slices) of 1–20 categories; slices above zero. */
export const SLACK_CHART_LIMITS: ChartLimits = {
  title: 50,
  label: 20,
  series: 6,
  categories: 20,
  positiveSlices: true,
};

/** Slack takes at most two charts in one message (undocumented, and refused beyond). */
export const CHARTS_PER_MESSAGE = 2;

/** A header and 1–100 rows of 1–20 columns, and 10,000 characters across the message's table cells. */
export const SLACK_TABLE_LIMITS: TableLimits = { rows: 100, columns: 20, characters: 10_000 };

interface ChartPoint {
  label: string;
  value: number;
}

export interface DataVisualizationBlock {
  type: 'data_visualization';
  title: string;
  chart:
    | { type: 'pie'; segments: ChartPoint[] }
    | {
        type: 'bar' | 'line' | 'area';
        series: { name: string; data: ChartPoint[] }[];
        axis_config: { categories: string[]; x_label?: string; y_label?: string };
      };
}

type DataTableCell =
  | { type: 'raw_text'; text: string }
  | { type: 'raw_number'; value: number; text: string }
  | types.RichTextBlock;

export interface DataTableBlock {
  type: 'data_table';
  caption: string;
  page_size: number;
  rows: DataTableCell[][];
}

/** The chart as Slack's block, fitted to its limits; undefined when nothing is left to draw. */
export function chartBlock(chart: Chart): DataVisualizationBlock | undefined {
  const fitted = fitChart(chart, SLACK_CHART_LIMITS);
  if (!fitted) return undefined;
  const points = (values: number[]) =>
    fitted.categories.map((label, i) => ({ label, value: values[i] ?? 0 }));
  if (fitted.kind === 'pie') {
    return {
      type: 'data_visualization',
      title: fitted.title,
      chart: { type: 'pie', segments: points(fitted.series[0]?.values ?? []) },
    };
  }
  return {
    type: 'data_visualization',
    title: fitted.title,
    chart: {
      type: fitted.kind,
      series: fitted.series.map((s) => ({ name: s.name, data: points(s.values) })),
      axis_config: {
        categories: fitted.categories,
        ...(fitted.xLabel ? { x_label: fitted.xLabel } : {}),
        ...(fitted.unit ? { y_label: fitted.unit } : {}),
      },
    },
  };
}

/** A text cell: plain when it reads as plain text, else rich text (links, mentions, bold). */
function textCell(text: string): DataTableCell {
  const plain = toPlain(text);
  const elements = lineElements(toMrkdwn(text));
  const rich = elements?.some((e) => e.type !== 'text' || e.style !== undefined);
  if (!rich || !elements) return { type: 'raw_text', text: plain || ' ' };
  return { type: 'rich_text', elements: [{ type: 'rich_text_section', elements }] };
}

/**
 * The table as Slack's data table, as many rows as fit (`left` says how many did not), or undefined when
 * even its header does not. Number columns sort as numbers: Slack does so when every cell is a number.
 */
export function tableBlock(table: Table, pageSize = 10): { block: DataTableBlock; left: number } | undefined {
  const fitted = fitTable(table, SLACK_TABLE_LIMITS);
  if (!fitted || fitted.table.rows.length === 0) return undefined;
  const header = fitted.table.columns.map((c): DataTableCell => ({ type: 'raw_text', text: c.label || ' ' }));
  const rows = fitted.table.rows.map((row) =>
    fitted.table.columns.map((_, i): DataTableCell => {
      const cell = row[i];
      if (isNumberCell(cell))
        return { type: 'raw_number', value: cell.value, text: cell.text || String(cell.value) };
      return textCell(cellText(cell));
    }),
  );
  return {
    block: {
      type: 'data_table',
      caption: fitted.table.caption,
      page_size: Math.min(100, Math.max(1, pageSize)),
      rows: [header, ...rows],
    },
    left: fitted.left,
  };
}
