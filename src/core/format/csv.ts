/**
 * CSV files for `--csv` exports (audit, calendar, videos), sent as a card's `attachment` (`cards.ts`), never
 * as message text. RFC 4180: fields separated by commas, records by CRLF; every field is quoted, its quotes
 * doubled. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return, which
 * some strip first) as a formula (OWASP "CSV injection"), so such a cell gets a leading apostrophe: shown as
 * text, never run. A spreadsheet in a `;`-separator locale (or one guessing the separator) splits a cell at
 * `;`, `,`, a tab or a line break, so a formula character right after one of these is neutralised the same way.
 *
 * Twenty lines do this; a library would add a dependency for nothing the exports need (no parsing here).
 */
import type { Attachment, Card } from '../text/cards.js';
import { say } from '../text/messages.js';
import { type CardText, md } from '../text/text.js';

/** Rows a `--csv` export holds at most (the store's page for audit; the same bound for calendar and videos). */
export const CSV_MAX_ROWS = 1000;

const FORMULA_START = /^[=+\-@\t\r]/;
/** A formula character after something some spreadsheet reads as a cell or row separator. */
const FORMULA_AFTER_SEPARATOR = /([;,\t\r\n])(?=[=+\-@])/g;

/** One field: neutralised wherever a spreadsheet would run it, always quoted. */
export function csvCell(value: string | number | undefined | null): string {
  const text = value === undefined || value === null ? '' : String(value);
  const safe = (FORMULA_START.test(text) ? `'${text}` : text).replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return `"${safe.replace(/"/g, '""')}"`;
}

/** One record (no line break at the end). */
export const csvLine = (cells: readonly (string | number | undefined | null)[]): string =>
  cells.map(csvCell).join(',');

/** A whole file: the header, then each row, every record ending in CRLF. */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | undefined | null)[])[],
) {
  return [header, ...rows].map((r) => `${csvLine(r)}\r\n`).join('');
}

/** `audit-2026-11-26.csv`: a name that says what and when (the caller's day), safe on every platform. */
export function csvFilename(what: string, day: string): string {
  return `${what.replace(/[^a-z0-9-]+/gi, '-')}-${day.replace(/[^0-9-]/g, '')}.csv`;
}

/** The card attachment for a CSV file. */
export function csvAttachment(options: {
  filename: string;
  header: readonly string[];
  rows: readonly (readonly (string | number | undefined | null)[])[];
}): Attachment {
  return {
    filename: options.filename,
    content: toCsv(options.header, options.rows),
    contentType: 'text/csv; charset=utf-8',
  };
}

/** `1 row`, `25 rows`. */
export const rowCount = (n: number): CardText => md`${n} ${n === 1 ? md`row` : md`rows`}`;

/**
 * The card for a message that cannot carry its file (an edit of an earlier message, a platform path without
 * uploads): the file is left out and the text says so, never pasted into the text instead.
 */
export function withoutAttachment(card: Card): Card {
  const { attachment, ...rest } = card;
  if (!attachment) return card;
  const notice = say('file-not-carried', { filename: attachment.filename });
  return { ...rest, text: rest.text ? md`${rest.text}\n${notice}` : notice };
}
