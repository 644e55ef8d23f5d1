/**
 * How times read in chat: always the reader's zone first, with UTC beside it when that differs, so a
 * scheduled post is never off by an offset nobody noticed.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { type CardText, code, literal, md } from '../text/text.js';
import { addDays, dayKey } from './zone.js';

const isUtc = (zone: string): boolean =>
  ['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal'].includes(zone);

/**
 * `Tue 1 Dec 2026, 18:00` in `zone`: the one way a date and time reads in chat (cards, lists, the ledger, the
 * calendar, the dashboard); the zone is named once per card. A timestamp from the API that does not parse is
 * shown as given. CSV files use `formatCsvDateTime` (sortable, for spreadsheets).
 */
export function formatDateTime(instant: number | string, zone: string): CardText {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return literal(instant);
  return literal(formatInTimeZone(at, zone, 'EEE d MMM yyyy, HH:mm'));
}

/** `Tue 1 Dec, 18:00`: the same family without the year, where a button label has little room. */
export const formatShortDateTime = (instant: number, zone: string): string =>
  formatInTimeZone(new Date(instant), zone, 'EEE d MMM, HH:mm');

/** `2026-12-01 18:00:00` in `zone`: a CSV cell (sortable; the UTC column beside it is ISO 8601). */
export const formatCsvDateTime = (instant: number, zone: string): string =>
  formatInTimeZone(new Date(instant), zone, 'yyyy-MM-dd HH:mm:ss');

/** `Tue 09:00` in `zone`, as plain words: a queue slot on a button or a form option. */
export const formatSlot = (instant: number, zone: string): string =>
  formatInTimeZone(new Date(instant), zone, 'EEE HH:mm');

/** The wall-clock time in `zone` with its weekday, e.g. `Tue 14:05` (what "your time" reads). */
export const localTime = (instant: number, zone: string): CardText =>
  literal(formatInTimeZone(new Date(instant), zone, 'EEE HH:mm'));

/**
 * What a CSV's two time columns hold: "`time` is in Europe/Paris, `time_utc` in UTC", or, for a reader in UTC,
 * "`time` and `time_utc` are both in UTC" (never "in UTC, … in UTC").
 */
export const csvTimesNote = (local: string, utc: string, zone: string): CardText =>
  isUtc(zone)
    ? md`${code(local)} and ${code(utc)} are both in UTC`
    : md`${code(local)} is in ${literal(zone)}, ${code(utc)} in UTC`;

/** When something happened, as its reader sees it: `10:02` today in `zone`, else `Tue 1 Dec 2026, 10:02`. */
export const formatSeen = (instant: number, zone: string, now: number): CardText =>
  dayKey(instant, zone) === dayKey(now, zone) ? formatTime(instant, zone) : formatDateTime(instant, zone);

/**
 * When a row of a list happened or will: `Today, 18:00`, `Yesterday, 09:05`, `Tomorrow, 09:00`, `Tue 1 Dec, 18:00`
 * this year, else `Tue 1 Dec 2026, 18:00`. A table's time column, where the zone is named once on the card.
 */
export function formatListTime(instant: number, zone: string, now: number): CardText {
  const day = dayKey(instant, zone);
  const today = dayKey(now, zone);
  const near: Record<string, string> = {
    [today]: 'Today',
    [addDays(today, -1)]: 'Yesterday',
    [addDays(today, 1)]: 'Tomorrow',
  };
  const label = near[day];
  if (label !== undefined) return md`${literal(label)}, ${formatTime(instant, zone)}`;
  if (day.slice(0, 4) === today.slice(0, 4)) return literal(formatShortDateTime(instant, zone));
  return formatDateTime(instant, zone);
}

/** `18:00` in `zone`. */
export const formatTime = (instant: number, zone: string): CardText =>
  literal(formatInTimeZone(new Date(instant), zone, 'HH:mm'));

/**
 * `Tue 1 Dec 2026, 18:00 Europe/Paris (17:00 UTC)`; the UTC part names its own day when it differs
 * (`Wed 2 Dec 01:00 UTC`); in UTC itself just `Tue 1 Dec 2026, 18:00 UTC`.
 */
export function formatBoth(instant: number, zone: string): CardText {
  const local = md`${formatDateTime(instant, zone)} ${literal(zone)}`;
  if (isUtc(zone)) return local;
  const sameDay = dayKey(instant, zone) === dayKey(instant, 'UTC');
  const utc = literal(formatInTimeZone(new Date(instant), 'UTC', sameDay ? 'HH:mm' : 'EEE d MMM HH:mm'));
  return md`${local} (${utc} UTC)`;
}

/** Day heading for a `YYYY-MM-DD`: `Tue 1 Dec 2026`, or `Today · Tue 1 Dec 2026` / `Tomorrow · …`. */
export function formatDay(day: string, today?: string, tomorrow?: string): CardText {
  const label = literal(formatInTimeZone(new Date(`${day}T12:00:00Z`), 'UTC', 'EEE d MMM yyyy'));
  if (day === today) return md`Today · ${label}`;
  if (day === tomorrow) return md`Tomorrow · ${label}`;
  return label;
}

/** `Tue 1 Dec` for a `YYYY-MM-DD`, as plain words: a chart's category (a digest's day). */
export const formatDayLabel = (day: string): string =>
  formatInTimeZone(new Date(`${day}T12:00:00Z`), 'UTC', 'EEE d MMM');
