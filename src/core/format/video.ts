/**
 * Small formatting helpers shared by the video commands (excerpts, labels).
 */
import type { Voice } from '../video-api/video-api.js';

/** The first `max` characters on one line, cut at a word boundary when one is near. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** `Aria · en · female` */
export function voiceLabel(voice: Voice): string {
  return [voice.name, voice.labels?.language, voice.labels?.gender, voice.isCustom ? 'custom' : undefined]
    .filter(Boolean)
    .join(' · ');
}

const STATUS_LABELS: Record<string, string> = {
  pending: '⏳ pending',
  processing: '⚙️ generating',
  completed: '✅ completed',
  failed: '❌ failed',
};
export const statusLabel = (status: string | undefined): string =>
  status ? (STATUS_LABELS[status] ?? status) : 'unknown';

export const isTerminal = (status: string | undefined): boolean =>
  status === 'completed' || status === 'failed';

/** Display name of the caller for cards ("Requested by …"). */
export const displayName = (req: { userName?: string; user: string }): string => req.userName ?? req.user;
