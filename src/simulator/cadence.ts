/** Posting-slot arithmetic for series: "HH:mm on these weekdays in this IANA time zone". */
import { DAY, WEEKDAYS, type Weekday } from './vocabulary.js';

export interface Cadence {
  /** HH:mm, 24-hour */
  autoPostTime: string;
  timezone: string;
  /** lower-case weekday names; empty means every day */
  postingDays: readonly Weekday[];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** Offset of `timeZone` from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
function offsetAt(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant a local wall-clock time happens in `timeZone` (DST gaps resolve forward, overlaps to the first). */
function localToUtc(date: { y: number; m: number; d: number }, minutes: number, timeZone: string): number {
  const wall = Date.UTC(date.y, date.m, date.d) + minutes * 60_000;
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  return Math.min(first, second);
}

/** First posting slot strictly after `after`. */
export function nextSlot(after: number, cadence: Cadence): number {
  const [hours, minutes] = cadence.autoPostTime.split(':').map(Number) as [number, number];
  const localNow = new Date(after + offsetAt(after, cadence.timezone));
  // Walk local calendar days from "today" in the series' zone; a week and a day always contains a slot.
  for (let i = 0; i <= 8; i += 1) {
    const day = new Date(
      Date.UTC(localNow.getUTCFullYear(), localNow.getUTCMonth(), localNow.getUTCDate()) + i * DAY,
    );
    const weekday = WEEKDAYS[day.getUTCDay()]!;
    if (cadence.postingDays.length > 0 && !cadence.postingDays.includes(weekday)) continue;
    const slot = localToUtc(
      { y: day.getUTCFullYear(), m: day.getUTCMonth(), d: day.getUTCDate() },
      hours * 60 + minutes,
      cadence.timezone,
    );
    if (slot > after) return slot;
  }
  throw new Error('no posting slot within 8 days');
}

/** "Monday", "mon", "MONDAY" → "monday"; undefined when not a weekday. */
export function parseWeekday(value: string): Weekday | undefined {
  const lower = value.trim().toLowerCase();
  return WEEKDAYS.find((day) => day === lower || (lower.length === 3 && day.startsWith(lower)));
}
