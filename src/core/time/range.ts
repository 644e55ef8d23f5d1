/**
 * Day ranges as people say them, read as ONE phrase in the caller's zone: `monday to friday`, `this week`,
 * `next week`, `last month`, `last 7 days`, `today`, `2026-12-01 to 2026-12-05`. `--from X --to Y` is the
 * phrase `X to Y`, so both ends are dated together instead of each one forward on its own (which made
 * `--from monday --to friday` a reversed range from Tuesday to Friday).
 *
 * The rules (weeks run Monday to Sunday):
 * - `today`, `tomorrow`, `yesterday`: that day. `this week` / `next week` / `last week`: Monday to Sunday of
 *   that week. `this month` / `next month` / `last month`: its first to last day. `last N days` / `past N days`:
 *   the N days ending today; `next N days`: the N days starting today.
 * - Weekday names are days of the current week: `monday to friday` on a Wednesday is this week's Monday to
 *   Friday. A weekday range that is already over (`monday to friday` on a Saturday or Sunday) is the coming
 *   week's; a lone weekday (`friday`) is its next date, today included. The end of `X to <weekday>` is the
 *   first such day on or after X's first day; the start of `<weekday> to Y` is this week's, or the last one
 *   on or before Y.
 * - Other words go through chrono (`next monday`, `dec 24`, `in 3 days`).
 * - An end before the start is an error only when both ends are explicit dates (`2026-12-05 to 2026-12-01`);
 *   with relative words the two ends are simply put in order.
 * A range's instants run from the start of its first day to the end (last millisecond) of its last day in
 * the zone, so a DST change inside it is counted as the zone counts it.
 */
import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import { parseDayPhrase } from './parse.js';
import { addDays, dayKey, startOfDay } from './zone.js';

/** Days `YYYY-MM-DD` (both included) and the instants they cover in the zone. */
export interface DayRange {
  from: string;
  to: string;
  /** Start of `from` in the zone. */
  start: number;
  /** Last millisecond of `to` in the zone. */
  end: number;
}

/** Where and when a phrase is read. */
export interface ReadAt {
  zone: string;
  now: number;
}

/** One end of a range as read. */
type End =
  | { kind: 'day'; day: string; explicit: boolean }
  | { kind: 'weekday'; offset: number } // 0 = Monday … 6 = Sunday
  | { kind: 'span'; from: string; to: string };

const WEEKDAYS: Record<string, number> = {
  monday: 0,
  mon: 0,
  tuesday: 1,
  tue: 1,
  tues: 1,
  wednesday: 2,
  wed: 2,
  thursday: 3,
  thu: 3,
  thur: 3,
  thurs: 3,
  friday: 4,
  fri: 4,
  saturday: 5,
  sat: 5,
  sunday: 6,
  sun: 6,
};

/** Monday = 0 … Sunday = 6 for a `YYYY-MM-DD`. */
function weekdayOf(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

const mondayOf = (day: string): string => addDays(day, -weekdayOf(day));

/** First and last day of the month `months` away from `day`'s. */
function monthOf(day: string, months: number): { from: string; to: string } {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const from = first.toISOString().slice(0, 10);
  const next = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1));
  return { from, to: addDays(next.toISOString().slice(0, 10), -1) };
}

/** At most this many days in `last N days`: beyond, a date is clearer. */
const MAX_COUNTED_DAYS = 366;

/** The named spans: weeks, months, counted days. */
function spanOf(text: string, today: string): { from: string; to: string } | undefined {
  const week = /^(this|next|last|previous|past) week$/.exec(text)?.[1];
  if (week) {
    const monday = addDays(mondayOf(today), week === 'this' ? 0 : week === 'next' ? 7 : -7);
    return { from: monday, to: addDays(monday, 6) };
  }
  const month = /^(this|next|last|previous|past) month$/.exec(text)?.[1];
  if (month) return monthOf(today, month === 'this' ? 0 : month === 'next' ? 1 : -1);
  const counted = /^(last|past|previous|next|coming) (\d{1,4}) days?$/.exec(text);
  if (counted) {
    const n = Number(counted[2]);
    if (n < 1 || n > MAX_COUNTED_DAYS) return undefined;
    return ['next', 'coming'].includes(counted[1] as string)
      ? { from: today, to: addDays(today, n - 1) }
      : { from: addDays(today, -(n - 1)), to: today };
  }
  return undefined;
}

const RELATIVE_DAYS: Record<string, number> = { today: 0, tomorrow: 1, yesterday: -1 };

function readEnd(text: string, at: ReadAt & { today: string }): Result<End> {
  const words = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const shift = RELATIVE_DAYS[words];
  if (shift !== undefined) return ok({ kind: 'day', day: addDays(at.today, shift), explicit: false });
  const span = spanOf(words, at.today);
  if (span) return ok({ kind: 'span', ...span });
  // `last 0 days`, `next 5000 days`: counted, but not a range to show.
  if (/^(?:last|past|previous|next|coming) \d+ days?$/.test(words))
    return err(userError('bad-date', { value: text }));
  const weekday = WEEKDAYS[words.replace(/^this /, '')];
  if (weekday !== undefined) return ok({ kind: 'weekday', offset: weekday });
  const r = parseDayPhrase(text, at.zone, at.now);
  return r.ok ? ok({ kind: 'day', ...r.value }) : r;
}

const firstDay = (e: Exclude<End, { kind: 'weekday' }>): string => (e.kind === 'day' ? e.day : e.from);
const lastDay = (e: Exclude<End, { kind: 'weekday' }>): string => (e.kind === 'day' ? e.day : e.to);

/** A lone end: a day or a span; a weekday is its next date (today included). */
function alone(e: End, today: string): { from: string; to: string } {
  if (e.kind !== 'weekday') return { from: firstDay(e), to: lastDay(e) };
  let day = addDays(mondayOf(today), e.offset);
  if (day < today) day = addDays(day, 7);
  return { from: day, to: day };
}

/** `a to b`, in days; `reversed` only when two explicit dates are in the wrong order. */
function joined(a: End, b: End, today: string): Result<{ from: string; to: string }> {
  if (a.kind === 'weekday' && b.kind === 'weekday') {
    let from = addDays(mondayOf(today), a.offset);
    let to = addDays(from, (b.offset - a.offset + 7) % 7);
    // A week's range that is over (monday to friday, read on the weekend) is the coming week's.
    if (to < today) [from, to] = [addDays(from, 7), addDays(to, 7)];
    return ok({ from, to });
  }
  if (a.kind === 'weekday' && b.kind !== 'weekday') {
    const end = lastDay(b);
    let from = addDays(mondayOf(today), a.offset);
    if (from > end) from = addDays(mondayOf(end), a.offset <= weekdayOf(end) ? a.offset : a.offset - 7);
    return ok({ from, to: end });
  }
  if (a.kind !== 'weekday' && b.kind === 'weekday') {
    const start = firstDay(a);
    return ok({ from: start, to: addDays(start, (b.offset - weekdayOf(start) + 7) % 7) });
  }
  const [x, y] = [a, b] as Exclude<End, { kind: 'weekday' }>[] as [
    Exclude<End, { kind: 'weekday' }>,
    Exclude<End, { kind: 'weekday' }>,
  ];
  const from = firstDay(x);
  const to = lastDay(y);
  if (to >= from) return ok({ from, to });
  const explicit = x.kind === 'day' && x.explicit && y.kind === 'day' && y.explicit;
  if (explicit) return err(userError('date-range-reversed', { from, to }));
  return ok({ from: firstDay(y) < from ? firstDay(y) : from, to: lastDay(x) > to ? lastDay(x) : to });
}

/** Splits `from X to Y` / `X - Y` / `between X and Y`; a single end has no second part. */
function splitPhrase(text: string): [string] | [string, string] {
  const value = text.trim();
  const between = /^between\s+(.+?)\s+and\s+(.+)$/i.exec(value);
  if (between) return [between[1] as string, between[2] as string];
  const bare = value.replace(/^from\s+/i, '');
  const parts = bare.split(/\s+(?:to|until|till|through|thru)\s+|\s*(?:\.\.|–|—)\s*|\s+-\s+/i);
  if (parts.length === 2 && parts[0] && parts[1]) return [parts[0], parts[1]];
  return [bare];
}

/** The instants of the days `from`..`to` in `zone`. */
export const dayRange = (days: { from: string; to: string }, zone: string): DayRange => ({
  ...days,
  start: startOfDay(days.from, zone),
  end: startOfDay(addDays(days.to, 1), zone) - 1,
});

/** What a phrase names: `single` when it is one day (`today`, `friday`, `2026-12-01`), not a span or range. */
interface Read {
  from: string;
  to: string;
  single: boolean;
}

function readPhrase(text: string, at: ReadAt & { today: string }): Result<Read> {
  const parts = splitPhrase(text);
  const ends: End[] = [];
  for (const part of parts) {
    const e = readEnd(part, at);
    if (!e.ok) return e;
    ends.push(e.value);
  }
  const [a, b] = ends as [End, End | undefined];
  if (!b) return ok({ ...alone(a, at.today), single: a.kind !== 'span' });
  const days = joined(a, b, at.today);
  return days.ok ? ok({ ...days.value, single: false }) : days;
}

/** `today` in the zone, from `now`. */
const todayIn = (at: ReadAt): string => dayKey(at.now, at.zone);

/**
 * The range a whole phrase names (`monday to friday`, `this week`, `2026-12-01`). Errors: `bad-date` (a part
 * unreadable), `date-range-reversed` (two explicit dates in the wrong order).
 */
export function parseRange(text: string, at: ReadAt): Result<DayRange> {
  if (text.trim() === '') return err(userError('bad-date', { value: text }));
  const r = readPhrase(text, { ...at, today: todayIn(at) });
  return r.ok ? ok(dayRange(r.value, at.zone)) : r;
}

/** `--from` / `--to` as typed. */
export interface RangeOptions {
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * `--from X --to Y` read as the phrase `X to Y`. `--from` alone may be a whole phrase (`this week`,
 * `monday to friday`); when it names a single day, `to` is left for the caller's default. `--to` alone gives
 * the last day of what it names. Days only (`YYYY-MM-DD`); see `dayRange` for the instants.
 */
export function parseRangeOptions(
  options: RangeOptions,
  at: ReadAt,
): Result<{ from?: string | undefined; to?: string | undefined }> {
  const ctx = { ...at, today: todayIn(at) };
  const { from, to } = options;
  if (from !== undefined && to !== undefined) {
    if (from.trim() === '') return err(userError('bad-date', { value: from }));
    if (to.trim() === '') return err(userError('bad-date', { value: to }));
    const [a, b] = [readEnd(from, ctx), readEnd(to, ctx)];
    if (!a.ok) return a;
    if (!b.ok) return b;
    return joined(a.value, b.value, ctx.today);
  }
  if (from !== undefined) {
    const r = from.trim() === '' ? err(userError('bad-date', { value: from })) : readPhrase(from, ctx);
    if (!r.ok) return r;
    return ok(r.value.single ? { from: r.value.from } : { from: r.value.from, to: r.value.to });
  }
  if (to !== undefined) {
    const r = to.trim() === '' ? err(userError('bad-date', { value: to })) : readPhrase(to, ctx);
    return r.ok ? ok({ to: r.value.to }) : r;
  }
  return ok({});
}
