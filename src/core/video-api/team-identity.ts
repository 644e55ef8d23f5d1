/**
 * Which team a key belongs to. GET /me's `team.id` tells teams apart, but the newer reference drops it;
 * then the key's own fingerprint stands in (docs/api-tolerance.md). Two keys of one team then have two
 * identities, so `sameTeam` falls back to the team's name when either side has no real id.
 */
import { keyId } from './catalog-cache.js';
import type { Me } from './video-api.js';

const FINGERPRINT = 'key:';

/** `team.id` when the service gives it, else `key:<first 16 hex of the key's SHA-256>` (never the key). */
export function teamIdentity(me: Pick<Me, 'team'>, apiKey: string): string {
  return me.team.id ?? `${FINGERPRINT}${keyId(apiKey)}`;
}

/** Whether an identity is the service's team id rather than a key fingerprint. */
export const isServiceTeamId = (identity: string): boolean => !identity.startsWith(FINGERPRINT);

/** A stored link `{ teamId, teamName }` and the team a key answers for are the same team. */
export function sameTeam(
  previous: { teamId: string; teamName: string },
  current: { teamId: string; teamName: string },
): boolean {
  if (isServiceTeamId(previous.teamId) && isServiceTeamId(current.teamId)) {
    return previous.teamId === current.teamId;
  }
  return previous.teamId === current.teamId || previous.teamName === current.teamName;
}
