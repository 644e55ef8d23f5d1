/**
 * When a digest goes out (`subscribe digest daily 09:00`, `subscribe digest weekly mon 09:00`): read from what
 * was typed, kept in the subscription row's `filters` (`at`, `day`, `zone`), told in words ("Daily digest at
 * 09:00 (Europe/Paris)"), and turned into instants. A digest subscription wakes every day at its time (the
 * weekly one to take its daily reading of the views, see weekly-digest.ts); its period is the day it was due,
 * in its zone, which names the store row that makes each period go out once.
 */
import { userError } from '../dispatch/context.js';
import type { ConversationAddress, DigestKind, Subscription, SubscriptionFilters } from '../ports/index.js';
import { parseTime, parseWeekday, WEEKDAYS, type Weekday } from '../series/cadence.js';
import { type CardText, literal, md } from '../text/text.js';
import { addDays, dayKey, fromWallClock } from '../time/zone.js';

export const DIGEST_KINDS = ['daily', 'weekly'] as const satisfies readonly DigestKind[];

export interface DigestSchedule {
  kind: DigestKind;
  /** `HH:mm` in `zone`. */
  at: string;
  /** The weekly digest's day. */
  day?: Weekday;
  zone: string;
}

const isDigestKind = (word: string | undefined): word is DigestKind =>
  (DIGEST_KINDS as readonly string[]).includes(word ?? '');

/** `daily 09:00`, `weekly mon 09:00` (also `weekly 9am monday`), read in `zone`; anything else is refused. */
export function readDigestSchedule(typed: string, zone: string): DigestSchedule {
  const [kind, ...words] = typed.trim().toLowerCase().split(/\s+/);
  const refuse = () => userError('digest-bad-schedule', { value: typed.trim() || 'digest' });
  if (!isDigestKind(kind)) throw refuse();
  let at: string | undefined;
  let day: Weekday | undefined;
  for (const word of words.filter((w) => w !== 'at' && w !== 'on')) {
    const time = parseTime(word);
    if (time.ok && at === undefined) at = time.value;
    else if (kind === 'weekly' && day === undefined && parseWeekday(word)) day = parseWeekday(word);
    else throw refuse();
  }
  if (!at || (kind === 'weekly' && !day)) throw refuse();
  return { kind, at, ...(day ? { day } : {}), zone };
}

/** The subscription row's filters for a schedule. */
export const scheduleFilters = (s: DigestSchedule): SubscriptionFilters => ({
  at: s.at,
  ...(s.day ? { day: s.day } : {}),
  zone: s.zone,
});

/** The schedule a digest subscription row holds; undefined for any other row or a malformed one. */
export function scheduleOf(
  sub: Pick<Subscription, 'kind' | 'target' | 'filters'>,
): DigestSchedule | undefined {
  const { at, day, zone } = sub.filters ?? {};
  if (sub.kind !== 'digest' || !isDigestKind(sub.target) || !at || !zone) return undefined;
  const weekday = day ? parseWeekday(day) : undefined;
  if (sub.target === 'weekly' && !weekday) return undefined;
  return { kind: sub.target, at, ...(sub.target === 'weekly' && weekday ? { day: weekday } : {}), zone };
}

const capital = (word: string): string => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * "Daily digest at 09:00 (Europe/Paris)", "Weekly digest on Mondays at 09:00 (Europe/Paris)"; inside a
 * sentence ("follows the daily digest at…") with `inSentence`.
 */
export function describeDigest(s: DigestSchedule, inSentence = false): CardText {
  const on = s.day ? md` on ${literal(capital(s.day))}s` : md``;
  const kind = inSentence ? s.kind : capital(s.kind);
  return md`${literal(kind)} digest${on} at ${literal(s.at)} (${literal(s.zone)})`;
}

/** The watch target of a digest subscription: one per conversation and kind. */
export const digestTarget = (kind: DigestKind, conversation: ConversationAddress): string =>
  `${kind}@${conversation}`;

export function parseDigestTarget(
  target: string,
): { kind: DigestKind; conversation: ConversationAddress } | undefined {
  const at = target.indexOf('@');
  const kind = target.slice(0, at);
  const conversation = target.slice(at + 1);
  return isDigestKind(kind) && conversation !== '' ? { kind, conversation } : undefined;
}

/** The instant of the schedule's time on calendar day `day` (`YYYY-MM-DD`) in its zone. */
function wakeOn(s: DigestSchedule, day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = s.at.split(':').map(Number) as [number, number];
  return fromWallClock({ year, month, day: date, hour, minute }, s.zone);
}

/** The first daily wake (the schedule's time, every day) strictly after `after`. */
export function nextWake(s: DigestSchedule, after: number): number {
  const today = dayKey(after, s.zone);
  for (let i = 0; i < 3; i++) {
    const wake = wakeOn(s, addDays(today, i));
    if (wake > after) return wake;
  }
  return wakeOn(s, addDays(today, 3));
}

/** Every daily wake in `[from, to]`, oldest first. */
export function wakesBetween(s: DigestSchedule, from: number, to: number): number[] {
  const out: number[] = [];
  for (let wake = nextWake(s, from - 1); wake <= to; wake = nextWake(s, wake)) out.push(wake);
  return out;
}

/** Whether a wake is one the digest goes out at: every day for a daily one, its day for a weekly one. */
export function isDue(s: DigestSchedule, wake: number): boolean {
  if (s.kind === 'daily') return true;
  const day = dayKey(wake, s.zone);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()] === s.day;
}

/** The first time strictly after `after` that the digest goes out (a weekly one's next day). */
export function nextDue(s: DigestSchedule, after: number): number {
  let wake = nextWake(s, after);
  for (let i = 0; i < 7 && !isDue(s, wake); i++) wake = nextWake(s, wake);
  return wake;
}

/** The period a due wake sends: the calendar day it falls on in the digest's zone. */
export const periodOf = (s: DigestSchedule, wake: number): string => dayKey(wake, s.zone);
