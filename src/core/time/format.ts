/**
 * How times read in chat: always the reader's zone first, with UTC beside it when that differs, so a
 * scheduled post is never off by an offset nobody noticed.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { dayKey } from './zone.js';

const isUtc = (zone: string): boolean =>
  ['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal'].includes(zone);

/** `Tue 1 Dec 2026, 18:00` in `zone`. */
export const formatDateTime = (instant: number, zone: string): string =>
  formatInTimeZone(new Date(instant), zone, 'EEE d MMM yyyy, HH:mm');

/** `18:00` in `zone`. */
export const formatTime = (instant: number, zone: string): string =>
  formatInTimeZone(new Date(instant), zone, 'HH:mm');

/**
 * `Tue 1 Dec 2026, 18:00 Europe/Paris (17:00 UTC)`; the UTC part names its own day when it differs
 * (`Wed 2 Dec 01:00 UTC`); in UTC itself just `Tue 1 Dec 2026, 18:00 UTC`.
 */
export function formatBoth(instant: number, zone: string): string {
  const local = `${formatDateTime(instant, zone)} ${zone}`;
  if (isUtc(zone)) return local;
  const sameDay = dayKey(instant, zone) === dayKey(instant, 'UTC');
  const utc = formatInTimeZone(new Date(instant), 'UTC', sameDay ? 'HH:mm' : 'EEE d MMM HH:mm');
  return `${local} (${utc} UTC)`;
}

/** Day heading for a `YYYY-MM-DD`: `Tue 1 Dec 2026`, or `Today · Tue 1 Dec 2026` / `Tomorrow · …`. */
export function formatDay(day: string, today?: string, tomorrow?: string): string {
  const label = formatInTimeZone(new Date(`${day}T12:00:00Z`), 'UTC', 'EEE d MMM yyyy');
  if (day === today) return `Today · ${label}`;
  if (day === tomorrow) return `Tomorrow · ${label}`;
  return label;
}
