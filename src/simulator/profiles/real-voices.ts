/**
 * Voice ids as the real service hands them out: opaque provider-prefixed strings such as
 * `eleven_quality:EXAVITQu4vr4xnSDxMaL`. Each simulator voice has one, derived from its plain id; both are
 * accepted as `voiceId` / `voice`, and responses show the opaque one.
 */
import type { VoiceRec } from '../catalog.js';
import { Prng } from '../random.js';
import type { TeamRec } from '../records.js';
import { voicesFor } from '../routes/team-voices.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function fnv1a(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The opaque id of a voice (stable: the same plain id always maps to the same opaque id). */
export function opaqueVoiceId(plainId: string): string {
  const rng = new Prng(fnv1a(plainId));
  let tail = '';
  for (let i = 0; i < 20; i += 1) tail += BASE62[rng.int(0, BASE62.length - 1)];
  return `${plainId.startsWith('voice_custom_') ? 'eleven_clone' : 'eleven_quality'}:${tail}`;
}

/** The plain id behind an opaque one of the team's voices; anything else comes back unchanged. */
export function plainVoiceId(team: TeamRec, value: unknown): unknown {
  if (typeof value !== 'string' || !value.includes(':')) return value;
  return voicesFor(team).find((v) => opaqueVoiceId(v.id) === value)?.id ?? value;
}

/** A voice id in a response: opaque when it is one of the team's voices, unchanged otherwise. */
export function shownVoiceId(team: TeamRec, value: unknown): unknown {
  if (typeof value !== 'string' || !voicesFor(team).some((v) => v.id === value)) return value;
  return opaqueVoiceId(value);
}

/** GET /voices: opaque ids, the full shape and the older short shape alternating, with extra fields. */
export function realVoices(voices: readonly VoiceRec[]): Record<string, unknown>[] {
  return voices.map((v, i) => {
    const category = v.isCustom ? 'cloned' : 'premade';
    const id = opaqueVoiceId(v.id);
    if (i % 2 === 1) return { id, name: v.name, previewUrl: v.previewUrl, isCustom: v.isCustom, category };
    return {
      ...v,
      id,
      baseVoiceId: opaqueVoiceId(v.baseVoiceId),
      labels: { ...v.labels, useCase: 'narration' },
      category,
      settings: { stability: 0.5, similarityBoost: 0.75 },
    };
  });
}
