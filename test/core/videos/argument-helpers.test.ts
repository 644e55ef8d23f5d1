/** Argument helpers of the video commands: audio told from video by URL, thumbnail pick values, excerpts. */
import { describe, expect, it } from 'vitest';
import { isAudioUrl, nameFromUrl } from '../../../src/core/commands/videos/caption.js';
import { parsePickValue } from '../../../src/core/commands/videos/thumbnail-pick.js';
import { UserError } from '../../../src/core/dispatch/context.js';
import { excerpt } from '../../../src/core/format/video.js';

describe('argument helpers', () => {
  it('tells audio from video by the path extension', () => {
    expect(isAudioUrl('https://x.example/a/b.mp3')).toBe(true);
    expect(isAudioUrl('https://x.example/a/b.WAV?x=1#t')).toBe(true);
    expect(isAudioUrl('https://x.example/a/b.m4a')).toBe(true);
    expect(isAudioUrl('https://x.example/a/b.mp4')).toBe(false);
    expect(isAudioUrl('https://x.example/mp3')).toBe(false);
    expect(nameFromUrl('https://x.example/a/My%20talk.mp4')).toBe('My talk.mp4');
    expect(nameFromUrl('https://x.example/')).toBe('Captioned video');
  });

  it('splits pick values at the first colon', () => {
    expect(parsePickValue('v1:abc')).toEqual({ videoId: 'v1', variantId: 'abc' });
    expect(parsePickValue('v1:https://img/a.png')).toEqual({ videoId: 'v1', variantId: 'https://img/a.png' });
    expect(() => parsePickValue('nocolon')).toThrow(UserError);
    expect(() => parsePickValue('v1:')).toThrow(UserError);
  });

  it('cuts excerpts at a word', () => {
    expect(excerpt('short', 10)).toBe('short');
    expect(excerpt('one two three four five six', 15)).toBe('one two three…');
  });
});
