/**
 * A table as the core describes it: a caption, columns and rows. Slack shows it as a data table (sortable,
 * paged), the playground as an HTML `<table>`, Discord and any surface without tables as one line per row
 * (`tableLines`). Text cells are card text (escaped values, mentions, links); number cells carry their value,
 * so a surface can sort them, and the words to show.
 */

import type { CardText } from './text.js';

/** A number as shown ("+50", "1,204 views") with its value for sorting. */
export interface NumberCell {
  value: number;
  text: string;
}

/** Card text (made with the text helpers), or a number. */
export type TableCell = CardText | NumberCell;

export interface TableColumn {
  /** Plain words, not card text: headers are never formatted. */
  label: string;
}

export interface Table {
  /** What the table lists ("Credit ledger"), plain words. */
  caption: string;
  columns: TableColumn[];
  /** One cell per column in each row. */
  rows: TableCell[][];
}

/** How much of a table a surface can show. */
export interface TableLimits {
  rows: number;
  columns: number;
  /** Characters across every cell. */
  characters: number;
}

export const isNumberCell = (cell: TableCell | undefined): cell is NumberCell =>
  typeof cell === 'object' && cell !== null;

/** The words a cell shows. */
export const cellText = (cell: TableCell | undefined): string =>
  cell === undefined ? '' : isNumberCell(cell) ? cell.text : cell;

/**
 * The table as card text, one line per row: the first cell in bold, the others after a middle dot. What a
 * surface without tables shows, and what a refused table falls back to.
 */
export function tableLines(table: Table): string[] {
  return table.rows.map((row) => {
    const [first, ...rest] = row.map(cellText).filter((text) => text !== '');
    return [first === undefined ? '' : `**${first}**`, ...rest].filter(Boolean).join(' · ');
  });
}

/**
 * The table's lines (`tableLines`) a surface without tables shows: the first ones, as many as fit `rows` and
 * `characters` (the line breaks count); `left` rows did not fit (the surface says so: `table-more-rows`).
 */
export function fitTableLines(
  table: Table,
  limits: { rows: number; characters: number },
): { lines: string[]; left: number } {
  const all = tableLines(table);
  const lines: string[] = [];
  let budget = limits.characters;
  for (const line of all) {
    if (lines.length === limits.rows || line.length + 1 > budget) break;
    budget -= line.length + 1;
    lines.push(line);
  }
  return { lines, left: all.length - lines.length };
}

/**
 * The rows a surface with `limits` shows: the first ones, as many as fit the row count and the character
 * budget (the header counts too). The rest are the caller's to move (to the CSV, a thread or the next page);
 * columns beyond the limit are dropped from every row. Undefined when the header alone does not fit.
 */
export function fitTable(table: Table, limits: TableLimits): { table: Table; left: number } | undefined {
  const columns = table.columns.slice(0, limits.columns);
  let budget = limits.characters - columns.reduce((n, c) => n + c.label.length, 0);
  if (budget < 0 || columns.length === 0) return undefined;
  const rows: TableCell[][] = [];
  for (const row of table.rows) {
    const cells = row.slice(0, columns.length);
    const size = cells.reduce<number>((n, cell) => n + cellText(cell).length, 0);
    if (rows.length === limits.rows || size > budget) break;
    budget -= size;
    rows.push(cells);
  }
  return { table: { ...table, columns, rows }, left: table.rows.length - rows.length };
}
