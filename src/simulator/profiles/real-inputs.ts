/**
 * Request bodies as the real service takes them, turned into what the common handlers validate: opaque voice
 * ids, and for series both documented forms of postingDays (names or numbers 0–6), destinationAccounts (a
 * list or an object per platform) and duration (number or numeric string), plus `platformPostTimes`.
 */
import { invalidInput } from '../errors.js';
import type { Reply, RouteContext } from '../router.js';
import { PLATFORMS, type Platform, WEEKDAYS } from '../vocabulary.js';
import { plainVoiceId } from './real-voices.js';

type Json = Record<string, unknown>;

export interface PreparedInput {
  body: unknown;
  /** runs after the handler succeeded */
  after?: (reply: Reply) => void;
}

export type InputStep = (body: unknown, ctx: RouteContext) => PreparedInput;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Numbers 0–6 (0 = Sunday) become weekday names; names pass through to the common validation. */
function postingDays(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((day, i) => {
    if (typeof day !== 'number') return day;
    if (!Number.isInteger(day) || day < 0 || day > 6) {
      throw invalidInput(`postingDays[${i}]: must be a weekday name or a number 0–6 (0 = Sunday)`);
    }
    return WEEKDAYS[day];
  });
}

/** `{ youtube: ['authId'] }` becomes the flat list, each id checked against that platform's accounts. */
function destinationAccounts(value: unknown, ctx: RouteContext): unknown {
  if (!isObject(value)) return value;
  const flat: string[] = [];
  for (const [platform, ids] of Object.entries(value)) {
    if (!isPlatform(platform)) {
      throw invalidInput(`destinationAccounts.${platform}: unknown platform; use ${PLATFORMS.join(', ')}`);
    }
    if (!Array.isArray(ids)) throw invalidInput(`destinationAccounts.${platform}: must be an array`);
    ids.forEach((id, i) => {
      const field = `destinationAccounts.${platform}[${i}]`;
      if (typeof id !== 'string' || id === '') throw invalidInput(`${field}: must be a non-empty string`);
      if (!ctx.team.accounts[platform].some((a) => a.authId === id)) {
        throw invalidInput(`${field}: no connected ${platform} account '${id}'; see GET /accounts`);
      }
      flat.push(id);
    });
  }
  return flat;
}

function duration(value: unknown): unknown {
  return typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value;
}

function platformPostTimes(value: unknown): Partial<Record<Platform, string>> {
  if (!isObject(value))
    throw invalidInput('platformPostTimes: must be an object such as {"youtube":"09:05"}');
  const times: Partial<Record<Platform, string>> = {};
  for (const [platform, time] of Object.entries(value)) {
    if (!isPlatform(platform)) throw invalidInput(`platformPostTimes.${platform}: unknown platform`);
    if (typeof time !== 'string' || !HH_MM.test(time)) {
      throw invalidInput(`platformPostTimes.${platform}: must be HH:mm (24-hour), e.g. 09:30`);
    }
    times[platform] = time;
  }
  return times;
}

/**
 * POST /series and PATCH /series/{id}. `platformPostTimes` is kept on the series (GET shows it); the time of
 * the series' destination (else the first given) drives the cadence unless `autoPostTime` is sent too.
 */
function seriesInput(mode: 'create' | 'patch'): InputStep {
  return (raw, ctx) => {
    if (!isObject(raw)) return { body: raw };
    const body: Json = { ...raw };
    if ('postingDays' in body) body.postingDays = postingDays(body.postingDays);
    if ('destinationAccounts' in body)
      body.destinationAccounts = destinationAccounts(body.destinationAccounts, ctx);
    if ('duration' in body) body.duration = duration(body.duration);
    if ('voice' in body) body.voice = plainVoiceId(ctx.team, body.voice);
    if (!('platformPostTimes' in body)) return { body };

    const times = platformPostTimes(body.platformPostTimes);
    delete body.platformPostTimes;
    const existing = mode === 'patch' ? ctx.engine.store.series.get(ctx.params.id ?? '') : undefined;
    const destination = body.destination ?? existing?.config.destination ?? 'youtube';
    const time =
      (typeof destination === 'string' && isPlatform(destination) ? times[destination] : undefined) ??
      Object.values(times)[0];
    if (body.autoPostTime === undefined && time !== undefined) body.autoPostTime = time;
    return {
      body,
      after: (reply) => {
        const data = reply.data as Json;
        const id = mode === 'create' ? String(data.id) : (ctx.params.id ?? '');
        const series = ctx.engine.store.series.get(id);
        if (series) series.config.platformPostTimes = { ...times };
        if (mode === 'patch') data.platformPostTimes = { ...times };
      },
    };
  };
}

export const REAL_INPUTS: Record<string, InputStep> = {
  'POST /videos': (raw, ctx) =>
    isObject(raw) && 'voiceId' in raw
      ? { body: { ...raw, voiceId: plainVoiceId(ctx.team, raw.voiceId) } }
      : { body: raw },
  'POST /series': seriesInput('create'),
  'PATCH /series/{id}': seriesInput('patch'),
};
