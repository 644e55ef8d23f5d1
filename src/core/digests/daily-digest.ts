/**
 * The daily digest (DESIGN §10): one message a day per subscribed channel with today's posts still to go out,
 * yesterday's outcomes (posted, failed), the requests waiting for approval, and the credits spent yesterday
 * (the ledger's spends) and left (the balance). Days are the digest's zone's.
 */
import { plural } from '../format/account.js';
import { platformName } from '../platforms/names.js';
import type { ConversationAddress, Store } from '../ports/index.js';
import type { Card, Field } from '../text/cards.js';
import { type CardText, command, joinText, md } from '../text/text.js';
import { formatDay, formatTime } from '../time/format.js';
import { addDays, dayKey } from '../time/zone.js';
import type { CalendarEntry, VideoApi } from '../video-api/video-api.js';
import { calendarDays, creditsSpent, videoLabel, videoNames, waitingApprovals } from './digest-reads.js';
import type { DigestSchedule } from './digest-schedule.js';

/** Lines listed per part; beyond that a count. */
const MAX_LINES = 8;

export interface DigestInput {
  api: VideoApi;
  store: Store;
  conversation: ConversationAddress;
  schedule: DigestSchedule;
  /** The period: the day the digest is for (`YYYY-MM-DD` in its zone). */
  period: string;
}

export async function dailyDigest(input: DigestInput): Promise<Card> {
  const { api, schedule, period } = input;
  const zone = schedule.zone;
  const yesterday = addDays(period, -1);
  const entries = await calendarDays(api, { from: yesterday, to: period, zone });
  const today = entries.filter((e) => e.status === 'scheduled' && dayOf(e, zone, period));
  const outcomes = entries.filter(
    (e) => (e.status === 'posted' || e.status === 'failed') && !dayOf(e, zone, period),
  );
  const names = await videoNames(
    api,
    [...today, ...outcomes].map((e) => e.projectId),
  );
  const credits = await creditsSpent(api, { from: yesterday, to: yesterday, zone });
  const waiting = await waitingApprovals(input.store, input.conversation);

  const posted = outcomes.filter((e) => e.status === 'posted').length;
  const failed = outcomes.length - posted;
  const fields: Field[] = [
    { label: md`Today`, value: md`${plural(today.length, 'post')} scheduled`, short: true },
    { label: md`Yesterday`, value: md`${posted} posted · ${failed} failed`, short: true },
    { label: md`Waiting for approval`, value: plural(waiting, 'request'), short: true },
    {
      label: md`Credits`,
      value: credits
        ? md`${credits.spent} spent yesterday · ${credits.balance} left`
        : md`not readable with this key (it lacks credits:read)`,
      short: true,
    },
  ];
  const parts: CardText[] = [];
  if (today.length > 0) parts.push(md`**Today**\n${lines(today, (e) => todayLine(e, names, zone))}`);
  if (outcomes.length > 0)
    parts.push(md`**Yesterday**\n${lines(outcomes, (e) => outcomeLine(e, names, zone))}`);
  if (waiting > 0) parts.push(md`Decide the waiting requests with ${command('approvals')}.`);
  return {
    title: md`Daily digest · ${formatDay(period)}`,
    tone: failed > 0 ? 'warning' : 'info',
    ...(parts.length > 0
      ? { text: joinText(parts, '\n\n') }
      : { text: md`Nothing scheduled, posted or failed.` }),
    fields,
  };
}

const dayOf = (e: CalendarEntry, zone: string, day: string): boolean =>
  dayKey(Date.parse(e.scheduledTime), zone) === day;

function lines<T>(items: T[], line: (item: T) => CardText): CardText {
  const shown = items.slice(0, MAX_LINES).map(line);
  const more = items.length - shown.length;
  return joinText(more > 0 ? [...shown, md`…and ${more} more`] : shown, '\n');
}

const todayLine = (e: CalendarEntry, names: Map<string, string>, zone: string): CardText =>
  md`• ${formatTime(Date.parse(e.scheduledTime), zone)} · ${platformName(e.platform)} · ${videoLabel(names, e.projectId)}`;

const outcomeLine = (e: CalendarEntry, names: Map<string, string>, zone: string): CardText =>
  md`• ${e.status === 'posted' ? md`✅ posted` : md`❌ failed`} · ${platformName(e.platform)} · ${videoLabel(names, e.projectId)} (${formatTime(Date.parse(e.scheduledTime), zone)})`;
