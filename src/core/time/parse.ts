/**
 * Natural-language times and dates ("tomorrow 9am", "friday 18:00", "in 2 hours", "2026-12-01 18:00",
 * ISO 8601) read in the caller's IANA zone, deterministically from an injected `now`.
 *
 * chrono only knows fixed offsets, so it reads the text with the zone's offset at `now`, and the wall-clock
 * fields it found are then placed in the real zone: "tomorrow 9am" stays 9am across a DST change.
 * Durations ("in 2 hours") and texts with their own offset ("…Z", "+02:00", "EST") are instants already.
 */
import * as chrono from 'chrono-node';
import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import { formatBoth, formatTime } from './format.js';
import { dayKey, fromWallClock, isCalendarDate, offsetMinutes } from './zone.js';

type Parsed = chrono.ParsedResult;

// Words chrono leaves around a time that carry no meaning ("on friday at 9am").
const FILLER = /^(?:\s|,|\.|\bat\b|\bon\b|\bthe\b|@)*$/i;

/** The one result covering the whole text (bar filler words), or undefined. */
function parseWhole(text: string, zone: string, now: number): Parsed | undefined {
  const reference = { instant: new Date(now), timezone: offsetMinutes(zone, now) };
  const results = chrono.parse(text, reference, { forwardDate: true });
  if (results.length !== 1) return undefined;
  const r = results[0] as Parsed;
  const rest = text.slice(0, r.index) + text.slice(r.index + r.text.length);
  return FILLER.test(rest) ? r : undefined;
}

const isRelative = (r: Parsed): boolean => r.tags().has('result/relativeDate');

/**
 * The last instant a post may be scheduled for: one year after `now` (the same UTC date and time next year).
 * Further out is a typo or a joke ("in 300 years"), and an approval would wait that long.
 */
export function latestSchedulable(now: number): number {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.getTime();
}

/**
 * A phrase for the next time the wall clock in `zone` shows `hhmm` after `now` (`today 18:00`, else
 * `tomorrow 18:00`): the hint for a time that is already past, checked to read as a future time.
 */
function nextOccurrence(hhmm: string, zone: string, now: number): string {
  for (const day of ['today', 'tomorrow']) {
    const phrase = `${day} ${hhmm}`;
    const r = parseWhole(phrase, zone, now);
    if (r && !r.end && instantOf(r, zone) > now) return phrase;
  }
  return `tomorrow ${hhmm}`;
}

/**
 * Whether a post may be scheduled at `instant`: in the future (a past one is refused with a future time to
 * try) and at most a year ahead. Errors: `past-time`, `too-far-ahead`.
 */
export function schedulable(instant: number, zone: string, now: number): Result<number> {
  if (instant <= now) {
    const suggestion = nextOccurrence(formatTime(instant, zone), zone, now);
    return err(userError('past-time', { when: formatBoth(instant, zone), suggestion }));
  }
  const latest = latestSchedulable(now);
  if (instant > latest) {
    return err(
      userError('too-far-ahead', { when: formatBoth(instant, zone), latest: formatBoth(latest, zone) }),
    );
  }
  return ok(instant);
}

/** The instant a parsed phrase names in `zone`: wall-clock fields placed in the zone, unless already an instant. */
function instantOf(r: Parsed, zone: string): number {
  const c = r.start;
  return isRelative(r) || c.isCertain('timezoneOffset')
    ? c.date().getTime()
    : fromWallClock(
        {
          year: c.get('year') as number,
          month: c.get('month') as number,
          day: c.get('day') as number,
          hour: c.get('hour') ?? 0,
          minute: c.get('minute') ?? 0,
          second: c.get('second') ?? 0,
        },
        zone,
      );
}

/**
 * A day without a time of day: asks for one, offering only times still ahead (`today 9am` at 10:00 is not
 * offered); a day already past is said to be past, with a future time to try.
 */
function needsTime(value: string, zone: string, now: number): Result<number> {
  const ahead = ['9am', '18:00']
    .map((t) => `${value} ${t}`)
    .filter((phrase) => parseWhen(phrase, zone, now).ok);
  const [first, second] = ahead;
  if (first) return err(userError('when-needs-time', { value, first, ...(second ? { second } : {}) }));
  const tried = parseWhen(`${value} 9am`, zone, now);
  if (!tried.ok && tried.error.code === 'too-far-ahead') return tried;
  return err(userError('past-day', { value, suggestion: nextOccurrence('09:00', zone, now) }));
}

/**
 * The instant `text` names in `zone`, which must be after `now` and at most a year ahead.
 * Errors: `bad-when` (unreadable, or several times in one text), `when-needs-time` (a day without a time
 * of day), `past-day` (such a day already past), `past-time` (with the time echoed and a future one to
 * try), `too-far-ahead`.
 */
export function parseWhen(text: string, zone: string, now: number): Result<number> {
  const value = text.trim();
  if (value === '') return err(userError('bad-when', { value: text }));
  const r = parseWhole(value, zone, now);
  if (!r || r.end) return err(userError('bad-when', { value }));
  const c = r.start;
  // "friday" alone would post at whatever hour chrono implies; a schedule needs a time of day.
  if (!isRelative(r) && !c.isCertain('hour')) return needsTime(value, zone, now);
  const instant = instantOf(r, zone);
  if (!Number.isFinite(instant)) return err(userError('bad-when', { value }));
  return schedulable(instant, zone, now);
}

/**
 * A calendar day `YYYY-MM-DD` as the caller means it in `zone`: `2026-12-01`, `today`, `tomorrow`,
 * `next monday`, `dec 24`. Past days are allowed (a calendar can look back). Error: `bad-date`.
 */
export function parseDate(text: string, zone: string, now: number): Result<string> {
  const r = parseDayPhrase(text, zone, now);
  return r.ok ? ok(r.value.day) : r;
}

/**
 * `parseDate`, also telling whether the text was an explicit date (`2026-12-01`, `dec 24`: its day and month
 * written out) rather than words relative to today (`next monday`, `in 3 days`).
 */
export function parseDayPhrase(
  text: string,
  zone: string,
  now: number,
): Result<{ day: string; explicit: boolean }> {
  const value = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return isCalendarDate(value) ? ok({ day: value, explicit: true }) : err(userError('bad-date', { value }));
  }
  const r = value === '' ? undefined : parseWhole(value, zone, now);
  if (!r || r.end) return err(userError('bad-date', { value }));
  const c = r.start;
  // A relative day ("in 3 days") is counted from now in the caller's zone, like the named ones.
  const day =
    isRelative(r) || c.isCertain('timezoneOffset')
      ? dayKey(c.date().getTime(), zone)
      : `${String(c.get('year')).padStart(4, '0')}-${String(c.get('month')).padStart(2, '0')}-${String(c.get('day')).padStart(2, '0')}`;
  const explicit = !isRelative(r) && c.isCertain('day') && c.isCertain('month');
  return isCalendarDate(day) ? ok({ day, explicit }) : err(userError('bad-date', { value }));
}
