/**
 * Compact, opaque state for the publishing forms and buttons, and the idempotency action names derived
 * from it. Discord limits a custom id to 100 characters, so state is a few `|`-separated fields (ids,
 * one letter per platform, base-36 numbers) rather than JSON.
 *
 * Idempotency (DESIGN §6): one key per user action. The action is named by who, what, and the minute it
 * started (`bucket`); the bucket travels in form state so a multi-step flow (schedule → metadata form →
 * schedule) still sends the key it began with, and a double click or a retry reuses it, while the same
 * schedule made again later (after an `unschedule`) is a new action.
 */
import { PLATFORMS, type Platform } from '../../video-api.js';

const CODE: Record<Platform, string> = {
  youtube: 'y',
  tiktok: 't',
  instagram: 'i',
  x: 'x',
  facebook: 'f',
  linkedin: 'l',
  threads: 'h',
};
const BY_CODE = new Map(Object.entries(CODE).map(([p, c]) => [c, p as Platform]));

export const encodePlatforms = (platforms: readonly Platform[]): string =>
  platforms.map((p) => CODE[p]).join('');

export function decodePlatforms(codes: string): Platform[] | undefined {
  const out: Platform[] = [];
  for (const c of codes) {
    const p = BY_CODE.get(c);
    if (!p) return undefined;
    out.push(p);
  }
  return out.length > 0 ? out : undefined;
}

export const isPlatform = (v: string): v is Platform => (PLATFORMS as readonly string[]).includes(v);

/** The minute a user action started. */
export const minuteOf = (now: number): number => Math.floor(now / 60_000);

/** A schedule waiting for missing metadata; everything needed to send it once the forms are filled. */
export interface PendingSchedule {
  videoId: string;
  platforms: Platform[];
  /** The scheduled instant (ms, whole seconds). */
  at: number;
  /** `minuteOf` when the user asked. */
  started: number;
}

export const encodeSchedule = (p: PendingSchedule): string =>
  [
    p.videoId,
    encodePlatforms(p.platforms),
    Math.floor(p.at / 1000).toString(36),
    p.started.toString(36),
  ].join('|');

export function decodeSchedule(parts: readonly string[]): PendingSchedule | undefined {
  const [videoId, codes, at, started] = parts;
  if (!videoId || !codes || !at || !started) return undefined;
  const platforms = decodePlatforms(codes);
  const atSec = Number.parseInt(at, 36);
  const minute = Number.parseInt(started, 36);
  if (!platforms || !Number.isFinite(atSec) || !Number.isFinite(minute)) return undefined;
  return { videoId, platforms, at: atSec * 1000, started: minute };
}

/** `<videoId>|<minute>` for forms and selects that act on one video. */
export const encodeVideoAction = (videoId: string, started: number): string =>
  `${videoId}|${started.toString(36)}`;

export function decodeVideoAction(state: string): { videoId: string; started: number } | undefined {
  const [videoId, started] = state.split('|');
  const minute = Number.parseInt(started ?? '', 36);
  return videoId !== undefined && Number.isFinite(minute) ? { videoId, started: minute } : undefined;
}

export const scheduleActionName = (user: string, p: PendingSchedule): string =>
  `schedule:${user}:${p.videoId}:${p.platforms.join(',')}:${new Date(p.at).toISOString()}:${p.started}`;

export const publishActionName = (
  user: string,
  input: { videoId: string; platform: Platform; authId?: string; privacy?: string; started: number },
): string =>
  `publish:${user}:${input.videoId}:${input.platform}:${input.authId ?? 'default'}:${input.privacy ?? ''}:${input.started}`;
