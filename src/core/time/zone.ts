/**
 * IANA time zones without the host's zone leaking in: every conversion names its zone, so the bot answers
 * the same on a UTC server and on a laptop in Paris.
 */
import { formatInTimeZone, getTimezoneOffset } from 'date-fns-tz';

/** Wall-clock fields in some zone (month 1–12). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

/** True for names the runtime's tz database knows (`Europe/Paris`, `UTC`); false for offsets-free junk. */
export function isValidZone(tz: string): boolean {
  if (tz.trim() === '' || tz !== tz.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instant`, in minutes (Paris in summer: 120). */
export function offsetMinutes(zone: string, instant: number): number {
  return Math.round(getTimezoneOffset(zone, new Date(instant)) / 60_000);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * The instant a wall-clock reading in `zone` names. In a DST gap (02:30 on a spring-forward night) the
 * reading is moved forward by the gap (03:30), as calendars do; in a fall-back overlap the earlier instant wins.
 */
export function fromWallClock(wall: WallClock, zone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second ?? 0);
  const text = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)} ${pad(wall.hour)}:${pad(wall.minute)}`;
  // The zone's offset half a day either side covers any single transition around the reading.
  const before = offsetMinutes(zone, asUtc - 12 * 3600_000);
  const after = offsetMinutes(zone, asUtc + 12 * 3600_000);
  const fits = [before, after]
    .map((offset) => asUtc - offset * 60_000)
    .filter((t) => formatInTimeZone(new Date(t), zone, 'yyyy-MM-dd HH:mm') === text)
    .sort((a, b) => a - b);
  return fits[0] ?? asUtc - before * 60_000;
}

/** `YYYY-MM-DD` of the calendar day `instant` falls on in `zone`. */
export const dayKey = (instant: number, zone: string): string =>
  formatInTimeZone(new Date(instant), zone, 'yyyy-MM-dd');

/** Midnight starting the calendar day `YYYY-MM-DD` in `zone`. */
export function startOfDay(day: string, zone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return fromWallClock({ year: y, month: m, day: d, hour: 0, minute: 0 }, zone);
}

/** `YYYY-MM-DD` plus `n` days (pure calendar arithmetic, no zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`). */
export function daysBetween(from: string, to: string): number {
  const at = (day: string) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((at(to) - at(from)) / 86_400_000);
}

/** A real calendar date written `YYYY-MM-DD` (rejects 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** The ISO weekday (1 = Monday … 7 = Sunday) and hour (0–23) an instant falls on in `zone`. */
export function weekdayHour(instant: number, zone: string): { weekday: number; hour: number } {
  const [weekday = 1, hour = 0] = formatInTimeZone(new Date(instant), zone, 'i H').split(' ').map(Number);
  return { weekday, hour };
}
