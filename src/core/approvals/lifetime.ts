/**
 * How long a request that is not tied to a scheduled time (publish now, a spend) waits for an approver
 * before it expires (DESIGN §5, `settings lifetime`). Schedule requests expire at their scheduled time.
 */
import type { ChannelSettings } from '../ports/index.js';

export const DEFAULT_REQUEST_LIFETIME_MS = 24 * 60 * 60_000;

/** The workspace's request lifetime, or the default when none is set (or the setting is not readable). */
export function requestLifetimeMs(settings: ChannelSettings): number {
  // Read defensively: older stored settings (and builds without the `lifetime` key) have no such field.
  const value = (settings as ChannelSettings & { requestLifetimeMs?: unknown }).requestLifetimeMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? value
    : DEFAULT_REQUEST_LIFETIME_MS;
}

/** "24 hours", "90 minutes": the lifetime as the card and the notice say it. */
export function describeLifetime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes % 60 !== 0 || minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = minutes / 60;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}
