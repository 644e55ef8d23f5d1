/**
 * A series' posting schedule as people say it ("daily 09:00 Europe/Paris", "mon,wed,fri 6pm") and as the
 * API stores it (autoPostTime HH:mm, postingDays weekday names, timezone IANA); plus its words and next slot.
 */
import { fromZonedTime } from 'date-fns-tz';
import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import { formatDateTime } from '../time/format.js';
import { dayKey } from '../time/zone.js';

/** Index = `Date#getUTCDay()`; the API takes lower-case full names. */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const WORKDAYS: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const WEEKEND: Weekday[] = ['saturday', 'sunday'];
const EVERY_DAY_WORDS = new Set(['daily', 'day', 'days', 'everyday', 'all', 'every-day']);
const FILLER = new Set(['at', 'on', 'every', 'each', 'in', 'and', '@']);

export interface Cadence {
  autoPostTime?: string;
  /** `[]` = every day. */
  postingDays?: Weekday[];
  timezone?: string;
}

/** "Mon", "tues", "Fridays" → the API's name. */
export function parseWeekday(word: string): Weekday | undefined {
  const w = word.trim().toLowerCase().replace(/s$/, '');
  if (w.length < 2) return undefined;
  return WEEKDAYS.find(
    (d) => d === w || (w.length >= 3 && d.startsWith(w)) || (w === 'th' && d === 'thursday'),
  );
}

/**
 * `daily` → [] (every day), `weekdays`, `weekends`, `mon,wed,fri`, `mon-fri`, `mon wed`. Order follows the week.
 */
export function parseDays(text: string): Result<Weekday[]> {
  const words = text
    .toLowerCase()
    .split(/[\s,;/+&]+/)
    .filter((w) => w && w !== 'and' && w !== 'every');
  if (words.length === 0) return err(userError('series-bad-days', { value: text }));
  const picked = new Set<Weekday>();
  for (const word of words) {
    if (EVERY_DAY_WORDS.has(word)) return ok([]);
    if (word === 'weekdays' || word === 'weekday' || word === 'workdays')
      for (const d of WORKDAYS) picked.add(d);
    else if (word === 'weekends' || word === 'weekend') for (const d of WEEKEND) picked.add(d);
    else if (word.includes('-')) {
      const [from, to] = word.split('-').map((w) => (w ? parseWeekday(w) : undefined));
      if (!from || !to) return err(userError('series-bad-days', { value: word }));
      for (let i = WEEKDAYS.indexOf(from); ; i = (i + 1) % 7) {
        picked.add(WEEKDAYS[i] as Weekday);
        if (WEEKDAYS[i] === to) break;
      }
    } else {
      const day = parseWeekday(word);
      if (!day) return err(userError('series-bad-days', { value: word }));
      picked.add(day);
    }
  }
  // Seven named days is every day; say it the API's way (omitted = every day) is left to the caller.
  return ok(sortDays([...picked]));
}

/** Monday-first order, as people read a week. */
export const sortDays = (days: Weekday[]): Weekday[] =>
  [...days].sort((a, b) => ((WEEKDAYS.indexOf(a) + 6) % 7) - ((WEEKDAYS.indexOf(b) + 6) % 7));

/** `09:00`, `9:00`, `9am`, `6:30 pm`, `18h`, `18h30` → `HH:mm`. */
export function parseTime(text: string): Result<string> {
  const m = /^(\d{1,2})(?:[:h.](\d{2})?)?\s*(am|pm|a\.m\.|p\.m\.)?$/i.exec(text.trim());
  const hasMarker = m && (m[2] !== undefined || m[3] !== undefined || /h/i.test(text));
  if (!m || !hasMarker) return err(userError('series-bad-time', { value: text }));
  let hours = Number(m[1]);
  const minutes = m[2] === undefined ? 0 : Number(m[2]);
  const meridiem = m[3]?.toLowerCase().replace(/\./g, '');
  if (meridiem) {
    if (hours < 1 || hours > 12) return err(userError('series-bad-time', { value: text }));
    hours = (hours % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return err(userError('series-bad-time', { value: text }));
  return ok(`${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`);
}

/** The canonical IANA name (`europe/paris` → `Europe/Paris`), or undefined when the runtime does not know it. */
export function canonicalZone(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed || /\s/.test(trimmed)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const looksLikeZone = (word: string) =>
  word.includes('/') || /^(utc|gmt|z)$/i.test(word) || /^etc\//i.test(word);

/**
 * A whole schedule phrase. Pieces not mentioned stay undefined (the caller decides defaults): "mon,wed"
 * changes only the days, "18:00" only the time.
 */
export function parseSchedule(text: string): Result<Cadence> {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const out: Cadence = {};
  const dayWords: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const lower = word.toLowerCase();
    if (FILLER.has(lower)) continue;
    if (looksLikeZone(word)) {
      const zone = canonicalZone(lower === 'z' ? 'UTC' : word);
      if (!zone) return err(userError('bad-timezone', { value: word }));
      out.timezone = zone;
      continue;
    }
    if (/^\d/.test(word)) {
      // "9 am" arrives as two words.
      const next = words[i + 1]?.toLowerCase();
      const joined = next && /^(am|pm|a\.m\.|p\.m\.)$/.test(next) ? `${word}${next}` : word;
      if (joined !== word) i++;
      const time = parseTime(joined);
      if (!time.ok || out.autoPostTime) return err(userError('series-bad-schedule', { value: text }));
      out.autoPostTime = time.value;
      continue;
    }
    dayWords.push(word);
  }
  if (dayWords.length > 0) {
    const days = parseDays(dayWords.join(','));
    // Nothing recognisable at all reads better as "not a schedule" than as "not a weekday".
    if (!days.ok) return out.autoPostTime ? days : err(userError('series-bad-schedule', { value: text }));
    out.postingDays = days.value;
  }
  if (out.autoPostTime === undefined && out.postingDays === undefined && out.timezone === undefined) {
    return err(userError('series-bad-schedule', { value: text }));
  }
  return ok(out);
}

const SHORT: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

/** Normalises whatever the API returned for postingDays (names, abbreviations) into weekdays. */
export function daysOf(value: unknown): Weekday[] {
  if (!Array.isArray(value)) return [];
  return sortDays(value.map((v) => parseWeekday(String(v))).filter((d): d is Weekday => d !== undefined));
}

/** "Every day at 09:00 (Europe/Paris)", "Mon, Wed, Fri at 18:00 (UTC)". */
export function describeSchedule(c: Cadence): string {
  const at = c.autoPostTime ? ` at ${c.autoPostTime}` : ' (service default time)';
  return `${describeDays(c.postingDays ?? [])}${at}${c.timezone ? ` (${c.timezone})` : ''}`;
}

/** "Every day", "Weekdays", "Weekends", "Mon, Wed, Fri". */
export function describeDays(days: Weekday[]): string {
  return days.length === 0 || days.length === 7
    ? 'Every day'
    : days.length === 5 && WORKDAYS.every((d) => days.includes(d))
      ? 'Weekdays'
      : days.length === 2 && WEEKEND.every((d) => days.includes(d))
        ? 'Weekends'
        : sortDays(days)
            .map((d) => SHORT[d])
            .join(', ');
}

/** The first posting slot strictly after `now`, or undefined when the time is unknown. */
export function nextPostTime(c: Cadence, now: number): number | undefined {
  const zone = c.timezone ?? 'UTC';
  if (!c.autoPostTime || !canonicalZone(zone)) return undefined;
  const days = c.postingDays ?? [];
  const [y, m, d] = dayKey(now, zone).split('-').map(Number) as [number, number, number];
  // A week and a day always contains a slot, whatever the days and DST do.
  for (let i = 0; i <= 8; i++) {
    const day = new Date(Date.UTC(y, m - 1, d + i));
    if (days.length > 0 && !days.includes(WEEKDAYS[day.getUTCDay()] as Weekday)) continue;
    const slot = fromZonedTime(`${day.toISOString().slice(0, 10)}T${c.autoPostTime}:00`, zone).getTime();
    if (slot > now) return slot;
  }
  return undefined;
}

/** "Tue 3 Mar 2026, 09:00 (Europe/Paris)". */
export const formatWhen = (ms: number | string, zone: string): string =>
  `${formatDateTime(ms, zone)} (${zone})`;
