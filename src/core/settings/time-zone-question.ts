/**
 * The time-zone question: where the platform does not share members' zones (Discord) and a member
 * with none runs something that reads times in theirs, they get a one-click select of common zones instead
 * of a silent UTC. Each option carries the zone and the request to run again (command, click or form
 * submission); choosing saves the zone and runs it (`tz.pick`, commands/account/tz-question.ts).
 */
import type { Bot } from '../dispatch/bot.js';
import type { RequestInfo } from '../dispatch/context.js';
import type { RawArgs } from '../parse/command-spec.js';
import type { Card, Response } from '../text/cards.js';
import { command, hole, md } from '../text/text.js';
import { localTime } from '../time/format.js';
import { TimeZoneNeeded } from './time-zone.js';

/** The action of the question's select. */
export const TZ_PICK_ACTION = 'tz.pick';

/** Common zones, west to east after UTC (one select holds at most 25). */
export const COMMON_ZONES: readonly string[] = [
  'UTC',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/Mexico_City',
  'America/New_York',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Madrid',
  'Africa/Lagos',
  'Africa/Johannesburg',
  'Europe/Moscow',
  'Asia/Dubai',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
];

/** What to run again once the zone is known: a command, a click, or a form submission. */
export type Replay =
  | { c: string; a: RawArgs }
  | { x: string; v: string; h?: string }
  | { f: string; s: string; v: Record<string, string> };

/** `zone|replay` as an option value (long ones go through the adapter's memory on Discord). */
export const pickValue = (zone: string, replay: Replay): string => `${zone}|${JSON.stringify(replay)}`;

const isStrings = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');

function replayOf(json: string): Replay | undefined {
  let r: unknown;
  try {
    r = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof r !== 'object' || r === null) return undefined;
  const o = r as Record<string, unknown>;
  if (typeof o.c === 'string' && typeof o.a === 'object' && o.a !== null)
    return { c: o.c, a: o.a as RawArgs };
  if (typeof o.x === 'string' && typeof o.v === 'string')
    return { x: o.x, v: o.v, ...(typeof o.h === 'string' ? { h: o.h } : {}) };
  if (typeof o.f === 'string' && typeof o.s === 'string' && isStrings(o.v)) return { f: o.f, s: o.s, v: o.v };
  return undefined;
}

/** The zone and request an option value carries; undefined when it is not one (or an expired stand-in). */
export function parsePick(value: string): { zone: string; replay: Replay } | undefined {
  const bar = value.indexOf('|');
  if (bar <= 0) return undefined;
  const replay = replayOf(value.slice(bar + 1));
  return replay ? { zone: value.slice(0, bar), replay } : undefined;
}

/** The question: a select of common zones, each running `replay` again once chosen. */
export function timeZoneQuestion(replay: Replay, now: number): Response {
  const card: Card = {
    title: md`Which time zone are you in?`,
    tone: 'info',
    text: md`This reads or shows times in your time zone, and your chat platform does not tell me yours. Pick it once: I save it and carry on with what you asked.`,
    controls: [
      {
        kind: 'select',
        action: TZ_PICK_ACTION,
        placeholder: 'Choose your time zone…',
        options: COMMON_ZONES.map((zone) => ({
          label: zone,
          value: pickValue(zone, replay),
          description: `${localTime(now, zone)} there now`,
        })),
      },
    ],
    context: md`Not listed? ${command('tz', [hole('zone')])}, e.g. ${command('tz', ['Africa/Nairobi'])}, then run it again.`,
  };
  return { kind: 'message', visibility: 'ephemeral', card };
}

/** Runs `run`; when it needs the member's zone and there is none, answers with the question instead. */
export async function askingTimeZone(
  job: { replay: Replay; now: () => number },
  run: () => Promise<Response> | Response,
): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TimeZoneNeeded) return timeZoneQuestion(job.replay, job.now());
    throw error;
  }
}

/** Runs a carried request again, as the member who chose (a command without the question's message). */
export function runAgain(bot: Bot, req: RequestInfo, replay: Replay): Promise<Response> {
  if ('c' in replay) {
    const { message: _question, ...fresh } = req;
    return bot.handleCommand(fresh, replay.c, replay.a);
  }
  if ('x' in replay)
    return bot.handleAction(req, {
      action: replay.x,
      value: replay.v,
      ...(replay.h ? { choice: replay.h } : {}),
    });
  return bot.handleForm(req, { formId: replay.f, state: replay.s, values: replay.v });
}
