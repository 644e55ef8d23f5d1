/**
 * Compact, opaque state for the publishing forms and buttons. Discord limits a custom id to 100 characters,
 * so state is a few `|`-separated fields (ids, one letter per platform, base-36 numbers) rather than JSON.
 *
 * Idempotency (DESIGN §6, src/core/dispatch/request-id.ts): a form or picker carries the request id minted when it
 * opened, so a multi-step flow (schedule → metadata form → schedule) still sends the key it began with and a
 * double click or a retry reuses it. An empty request id means a typed command acting at once (content key).
 */
import { isRequestId } from '../dispatch/request-id.js';
import { PLATFORMS, type Platform } from '../video-api/video-api.js';

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

/** A schedule waiting for missing metadata; everything needed to send it once the forms are filled. */
export interface PendingSchedule {
  videoId: string;
  platforms: Platform[];
  /** The scheduled instant (ms, whole seconds). */
  at: number;
  /** The request id of the form the user started from; none for a typed command. */
  requestId?: string | undefined;
  /**
   * What to do with posts already pending on these platforms: `move` them (cancel and schedule again), or
   * `keep` them beside the new one. Unset: ask when there are any (move-flow.ts).
   */
  choice?: 'move' | 'keep' | undefined;
  /** `schedule … next`: each platform takes its next free queue slot, found again when it is sent (slots-flow.ts). */
  next?: boolean | undefined;
  /** The clash or daily-cap warning was answered "Schedule anyway" (slots-flow.ts). */
  confirmed?: boolean | undefined;
}

/** The flags of a pending schedule, one letter each; none for a plain one (older values had none). */
const flagsOf = (p: PendingSchedule): string =>
  `${p.next ? 'n' : ''}${p.confirmed ? 'c' : ''}${p.choice === 'move' ? 'm' : p.choice === 'keep' ? 'k' : ''}`;

function withFlags(p: PendingSchedule, flags: string | undefined): PendingSchedule {
  if (!flags) return p;
  const choice = flags.includes('m') ? 'move' : flags.includes('k') ? 'keep' : undefined;
  return {
    ...p,
    ...(flags.includes('n') ? { next: true } : {}),
    ...(flags.includes('c') ? { confirmed: true } : {}),
    ...(choice ? { choice } : {}),
  };
}

/** Old state carried a base-36 minute where the request id is now: read as none (a content key). */
const requestIdOf = (field: string | undefined): string | undefined =>
  isRequestId(field) ? field : undefined;

export const encodeSchedule = (p: PendingSchedule): string =>
  [
    p.videoId,
    encodePlatforms(p.platforms),
    Math.floor(p.at / 1000).toString(36),
    p.requestId ?? '',
    ...(flagsOf(p) ? [flagsOf(p)] : []),
  ].join('|');

export function decodeSchedule(parts: readonly string[]): PendingSchedule | undefined {
  const [videoId, codes, at, requestId, flags] = parts;
  if (!videoId || !codes || !at || requestId === undefined) return undefined;
  const platforms = decodePlatforms(codes);
  const atSec = Number.parseInt(at, 36);
  if (!platforms || !Number.isFinite(atSec)) return undefined;
  return withFlags({ videoId, platforms, at: atSec * 1000, requestId: requestIdOf(requestId) }, flags);
}

/** `<videoId>|<request id>` for forms that act on one video (the video may be empty: asked in the form). */
export const encodeVideoAction = (videoId: string, requestId: string): string => `${videoId}|${requestId}`;

export function decodeVideoAction(state: string): { videoId: string; requestId?: string } | undefined {
  const [videoId, requestId] = state.split('|');
  if (videoId === undefined || requestId === undefined) return undefined;
  const id = requestIdOf(requestId);
  return id ? { videoId, requestId: id } : { videoId };
}
