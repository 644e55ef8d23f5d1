import { customVoice, STOCK_VOICES, type VoiceRec } from '../catalog.js';
import { invalidInput } from '../errors.js';
import type { TeamRec } from '../records.js';

/** Stock voices plus the team's own cloned voice. */
export function voicesFor(team: TeamRec): VoiceRec[] {
  return [...STOCK_VOICES, customVoice(team.customVoiceId, team.name)];
}

export function requireVoice(team: TeamRec, field: string, voiceId: string | undefined): void {
  if (voiceId === undefined || voicesFor(team).some((v) => v.id === voiceId)) return;
  throw invalidInput(`${field}: unknown voice '${voiceId}'; pick an id from GET /voices`);
}
