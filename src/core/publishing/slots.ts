/**
 * Queue slots (DESIGN §10) as pure time arithmetic: a platform's slots are wall-clock times on some weekdays in
 * one zone (`mon-fri 09:00,17:00` in Europe/Paris), so each slot is an exact instant found afresh for every day
 * — 09:00 Paris is 08:00 UTC in winter and 07:00 UTC in summer, and the slot follows the change.
 *
 * What is taken is a list of instants (posts of the same account, series times); a slot is free when no post
 * is within the clash window of it and its day (in the slots' zone) is under the daily cap.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import type { SlotRule } from '../ports/index.js';
import { describeDays, parseDays, parseTime, WEEKDAYS, type Weekday } from '../series/cadence.js';
import { addDays, dayKey, fromWallClock } from '../time/zone.js';

/** Two posts of one account closer than this clash (DESIGN §10). */
export const CLASH_WINDOW_MS = 30 * 60_000;
/** How far ahead a free slot is looked for. */
export const SLOT_HORIZON_DAYS = 35;
/** A slot this close is too near to schedule (the request, an approval, the service's own checks). */
export const SLOT_LEAD_MS = 2 * 60_000;
/** What `settings slots` shows as an example, in its refusals too. */
export const SLOTS_EXAMPLE = 'mon-fri 09:00,17:00';
/** At most this many times a day. */
const MAX_TIMES = 24;

/** `mon-fri 09:00,17:00`, `daily 9am 6pm`, `weekends 10:00`, `12:00` (every day) → days and times. */
export function parseSlots(text: string): Result<Omit<SlotRule, 'zone'>> {
  const words = text
    .trim()
    .split(/[\s,;]+/)
    .filter(Boolean);
  const times: string[] = [];
  const dayWords: string[] = [];
  const bad = () => err(userError('slots-bad', { value: text, example: SLOTS_EXAMPLE }));
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (!/^\d/.test(word)) {
      if (/^(at|on|every)$/i.test(word)) continue;
      dayWords.push(word);
      continue;
    }
    // "9 am" arrives as two words.
    const next = words[i + 1]?.toLowerCase();
    const joined = next && /^(am|pm)$/.test(next) ? `${word}${next}` : word;
    if (joined !== word) i++;
    const time = parseTime(joined);
    if (!time.ok) return bad();
    times.push(time.value);
  }
  if (times.length === 0 || times.length > MAX_TIMES) return bad();
  let days: Weekday[] = [];
  if (dayWords.length > 0) {
    const parsed = parseDays(dayWords.join(','));
    if (!parsed.ok) return bad();
    days = parsed.value.length === 7 ? [] : parsed.value;
  }
  return ok({ days, times: [...new Set(times)].sort() });
}

/** "Weekdays at 09:00, 17:00 (Europe/Paris)". */
export const describeSlots = (rule: SlotRule): string =>
  `${describeDays(rule.days as Weekday[])} at ${rule.times.join(', ')} (${rule.zone})`;

/** Every slot instant of `rule` from the day `after` falls on, for `days` days, ascending. */
export function slotInstants(rule: SlotRule, after: number, days = SLOT_HORIZON_DAYS): number[] {
  const first = dayKey(after, rule.zone);
  const out: number[] = [];
  for (let i = 0; i <= days; i++) {
    const day = addDays(first, i);
    const [year, month, date] = day.split('-').map(Number) as [number, number, number];
    const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, date)).getUTCDay()] as Weekday;
    if (rule.days.length > 0 && !rule.days.includes(weekday)) continue;
    for (const time of rule.times) {
      const [hour, minute] = time.split(':').map(Number) as [number, number];
      out.push(fromWallClock({ year, month, day: date, hour, minute }, rule.zone));
    }
  }
  return out.sort((a, b) => a - b);
}

/** What is already there for one account of one platform: the instants of its posts, and its daily cap. */
export interface Occupancy {
  taken: readonly number[];
  cap?: number | undefined;
  /** The zone a day is cut in for the cap. */
  zone: string;
}

/** Why `at` is not free: a post within the clash window, or the day already at its cap. */
export type Conflict =
  | { kind: 'clash'; at: number }
  | { kind: 'cap'; day: string; count: number; cap: number };

export function conflictAt(at: number, o: Occupancy): Conflict | undefined {
  const near = o.taken.find((t) => Math.abs(t - at) < CLASH_WINDOW_MS);
  if (near !== undefined) return { kind: 'clash', at: near };
  if (o.cap === undefined) return undefined;
  const day = dayKey(at, o.zone);
  const count = o.taken.filter((t) => dayKey(t, o.zone) === day).length;
  return count >= o.cap ? { kind: 'cap', day, count, cap: o.cap } : undefined;
}

/** The first slot of `rule` after `after` (plus the lead) with no conflict; undefined within the horizon. */
export function nextFreeSlot(rule: SlotRule, o: Occupancy, after: number): number | undefined {
  const earliest = after + SLOT_LEAD_MS;
  return slotInstants(rule, earliest).find((at) => at >= earliest && conflictAt(at, o) === undefined);
}

/** `Tue 09:00` in `zone`: a slot on a button or a form option. */
export const slotLabel = (at: number, zone: string): string =>
  formatInTimeZone(new Date(at), zone, 'EEE HH:mm');
