/** Voice choice: a voice matched by id, name or prefix within a language, and the default voice. */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/dispatch/context.js';
import type { Voice } from '../../../src/core/video-api/video-api.js';
import { defaultVoice, pickVoice, speaks } from '../../../src/core/videos/catalog-choices.js';

describe('voices', () => {
  const v = (id: string, name: string, language: string, extra: Partial<Voice> = {}): Voice => ({
    id,
    name,
    isCustom: false,
    labels: { language },
    ...extra,
  });
  const voices = [
    v('aria', 'Aria', 'en', { isRecommended: true, targetLanguages: ['en', 'es'] }),
    v('lukas', 'Lukas', 'de'),
    v('lucia', 'Lucía', 'es', { isRecommended: true }),
    v('luis', 'Luis', 'es'),
  ];

  it('matches id, name case-insensitively, unique prefix; within a language when asked', () => {
    expect(pickVoice(voices, 'lucia').id).toBe('lucia');
    expect(pickVoice(voices, 'ARIA').id).toBe('aria');
    expect(pickVoice(voices, 'luc').id).toBe('lucia');
    expect(pickVoice(voices, 'lu', 'de').id).toBe('lukas');
    expect(() => pickVoice(voices, 'lu')).toThrow(UserError);
    expect(() => pickVoice(voices, 'Lukas', 'es')).toThrow(
      expect.objectContaining({ code: 'voice-wrong-language' }),
    );
    expect(() => pickVoice(voices, 'zed')).toThrow(expect.objectContaining({ code: 'not-found-voice' }));
  });

  it('defaults to a recommended native speaker, then any speaker, then the first voice', () => {
    expect(defaultVoice(voices)?.id).toBe('aria');
    expect(defaultVoice(voices, 'es')?.id).toBe('lucia');
    expect(defaultVoice(voices, 'es-MX')?.id).toBe('lucia');
    expect(defaultVoice(voices, 'de')?.id).toBe('lukas');
    expect(defaultVoice(voices, 'ja')?.id).toBe('aria');
    expect(defaultVoice([], 'en')).toBeUndefined();
    expect(speaks(voices[0] as Voice, 'ES')).toBe(true);
  });
});
