/** Pure pieces: the video card, the ETA estimate and intervals, voice choice, argument helpers. */
import { describe, expect, it } from 'vitest';
import { isAudioUrl, nameFromUrl } from '../../../src/core/commands/videos/caption.js';
import { parsePickValue } from '../../../src/core/commands/videos/thumbnail-pick.js';
import { UserError } from '../../../src/core/dispatch/context.js';
import { excerpt } from '../../../src/core/format/video.js';
import { duration, percentStep, readGenerationState } from '../../../src/core/live/generation-watcher.js';
import {
  estimateRemainingMs,
  GENERATION_BOUNDS,
  nextCheckIn,
  planNextLook,
} from '../../../src/core/live/progress-estimate.js';
import { RENDER_BOUNDS } from '../../../src/core/live/render-watcher.js';
import {
  etaText,
  progressBar,
  renderVideoCard,
  type VideoCardModel,
} from '../../../src/core/live/video-card.js';
import { md } from '../../../src/core/text/text.js';
import type { Voice } from '../../../src/core/video-api/video-api.js';
import { defaultVoice, pickVoice, speaks } from '../../../src/core/videos/catalog-choices.js';
import { commandsAsTyped } from '../../support/commands-as-typed.js';

const base: VideoCardModel = {
  videoId: 'v1',
  name: 'Octopus facts',
  phase: 'generating',
  requestedBy: 'alice',
  model: 'motion_pro',
  credits: 100,
};
const variants = [
  { id: 'a', url: 'https://img/a.png', hookText: 'Three hearts', score: 91, grade: 'A' },
  { id: 'b', url: 'https://img/b.png', hookText: 'Blue blood', score: 80, grade: 'B' },
  { id: 'c', url: 'https://img/c.png', score: 60, grade: 'D' },
];
const actions = (m: VideoCardModel) =>
  [
    ...(renderVideoCard(m).controls ?? []),
    ...(renderVideoCard(m).sections ?? []).flatMap((s) => s.controls ?? []),
  ].map((c) =>
    c.kind === 'link' ? `link:${c.label}` : c.kind === 'button' ? `${c.action}:${c.label}` : c.action,
  );

describe('renderVideoCard', () => {
  it('generating: progress bar with the ETA, no buttons', () => {
    const card = renderVideoCard({ ...base, percent: 42, etaMs: 125_000 });
    expect(card).toMatchObject({
      title: 'Octopus facts',
      tone: 'progress',
      progress: { percent: 42, label: '▓▓▓▓░░░░░░ 42% · about 2 min left' },
    });
    expect(card.fields).toEqual([
      { label: 'Model', value: 'Motion pro', short: true },
      { label: 'Credits', value: '100', short: true },
    ]);
    expect(card.controls).toBeUndefined();
    expect(card.context).toBe('Requested by alice · id `v1`');
  });

  it('captions say so while running', () => {
    expect(renderVideoCard({ ...base, kind: 'caption' }).text).toBe(
      'Transcribing and captioning your media…',
    );
  });

  it('completed with thumbnails on the way, then with options and Use this on all but a user pick', () => {
    const waiting = renderVideoCard({
      ...base,
      phase: 'completed',
      thumbnails: { status: 'queued', variants: [] },
    });
    expect(waiting.text).toContain('Thumbnails are on the way');
    expect(actions({ ...base, phase: 'completed' })).toEqual([
      'video.render:Render',
      'video.schedule:Schedule',
      'video.publish:Publish now',
    ]);

    const ai = renderVideoCard({
      ...base,
      phase: 'completed',
      thumbnails: { status: 'ready', variants, selectedVariantId: 'a', selectedBy: 'ai' },
    });
    expect(ai.sections?.map((s) => s.text)).toEqual([
      '**Option 1** ⭐ AI pick, in use\n“Three hearts”\ngrade A · score 91',
      '**Option 2**\n“Blue blood”\ngrade B · score 80',
      '**Option 3**\ngrade D · score 60',
    ]);
    expect(ai.sections?.every((s) => s.controls?.[0]?.kind === 'button')).toBe(true);
    expect(ai.sections?.[1]?.controls?.[0]).toMatchObject({
      action: 'thumbnail.pick',
      value: 'v1:b',
      label: 'Use this',
    });
    expect(ai.sections?.[0]?.image).toEqual({
      url: 'https://img/a.png',
      alt: 'Thumbnail option 1: Three hearts',
    });

    const user = renderVideoCard({
      ...base,
      phase: 'completed',
      thumbnails: { status: 'ready', variants, selectedVariantId: 'b', selectedBy: 'user', pickedBy: 'bob' },
    });
    expect(user.sections?.[1]?.text).toContain('✅ in use (picked by bob)');
    expect(user.sections?.[1]?.controls).toBeUndefined();
    expect(user.text).toContain('Your thumbnail pick is marked ✅');
  });

  it('partial and failed thumbnails are explained', () => {
    const partial = renderVideoCard({
      ...base,
      phase: 'completed',
      thumbnails: { status: 'partial', variants: variants.slice(0, 2) },
    });
    expect(partial.text).toContain('Only 2 of 3 thumbnail options came out');
    const failed = renderVideoCard({
      ...base,
      phase: 'completed',
      thumbnails: { status: 'failed', variants: [] },
    });
    expect(failed.text).toContain('Thumbnails could not be made; the video is fine');
  });

  it('the headline says where the video is after each step and what comes next (issue 27)', () => {
    const generated: VideoCardModel = {
      ...base,
      phase: 'completed',
      thumbnails: { status: 'ready', selectedVariantId: 'a', selectedBy: 'ai', variants },
    };
    const text = (m: VideoCardModel) => renderVideoCard(m).text;
    expect(text(generated)).toBe(
      'Generated. The ⭐ AI pick is used unless you choose another with **Use this**. Then render or schedule.',
    );
    const rendering = { ...generated, render: { renderId: 'r', status: 'in-progress', progress: 0.2 } };
    expect(text(rendering)).toMatch(
      /^Generated\. \*\*Rendering the MP4…\*\* .* The MP4 shows here when it is done/,
    );
    const rendered = {
      ...generated,
      render: { renderId: 'r', status: 'done', progress: 1, url: 'https://cdn/r.mp4' },
    };
    expect(text(rendered)).toBe(
      '**Rendered.** The ⭐ AI pick is used unless you choose another with **Use this**. ' +
        'Watch it here or download the MP4, then **Schedule** or **Publish now**.',
    );
    expect(text(rendered)).not.toMatch(/Then render or schedule/);
    const failedRender = { ...generated, render: { renderId: 'r', status: 'error', progress: 0.4 } };
    expect(text(failedRender)).toMatch(/^Generated\. \*\*The render failed\.\*\*/);
    const scheduled = {
      ...rendered,
      schedule: { platforms: ['youtube', 'tiktok'], at: 'Mon 1 Dec 2026, 09:00', zone: 'UTC' },
    };
    expect(text(scheduled)).toMatch(
      /^\*\*Scheduled\*\* for Mon 1 Dec 2026, 09:00 UTC on YouTube, TikTok\. .* It posts then; nothing else to do\.$/,
    );
    const posted = {
      ...scheduled,
      schedule: { ...scheduled.schedule, statuses: { youtube: 'posted', tiktok: 'posted' } },
      posts: [{ platform: 'youtube', status: 'posted', url: 'https://yt/1' }],
    };
    expect(text(posted)).toMatch(/^\*\*Posted\*\* to YouTube\. The ⭐ AI pick/);
    expect(text({ ...generated, thumbnails: { status: 'generating', variants: [] } })).toBe(
      'Generated. Thumbnails are on the way… Meanwhile you can render or schedule.',
    );
  });

  it('render in progress hides Render; done shows the MP4; error offers Render again', () => {
    const running = {
      ...base,
      phase: 'completed' as const,
      render: { renderId: 'r', status: 'in-progress', progress: 0.3, codec: 'h264' },
    };
    expect(renderVideoCard(running).fields?.at(-1)).toEqual({
      label: 'Render',
      value: '▓▓▓░░░░░░░ 30% (h264)',
    });
    expect(actions(running)).toEqual(['video.schedule:Schedule', 'video.publish:Publish now']);
    const done = {
      ...running,
      render: { renderId: 'r', status: 'done', progress: 1, url: 'https://cdn/r.mp4' },
    };
    // The video is the one way to the MP4: no field nor button links it again (issue 27).
    expect(renderVideoCard(done).fields?.find((f) => f.label === 'Render')).toBeUndefined();
    expect(renderVideoCard(done).video).toEqual({ url: 'https://cdn/r.mp4', alt: 'Octopus facts, rendered' });
    expect(actions(done)).toEqual([
      'video.render:Render again',
      'video.schedule:Schedule',
      'video.publish:Publish now',
    ]);
    const error = { ...running, render: { renderId: 'r', status: 'error', progress: 0.4 } };
    expect(renderVideoCard(error).fields?.at(-1)?.value).toContain('Failed');
    expect(actions(error)[0]).toBe('video.render:Render again');
  });

  it('failed: reasons and what to do; deleted: a tombstone; notices in italics', () => {
    const failed = renderVideoCard({ ...base, phase: 'failed', errorMessages: ['Scene 3 timed out.'] });
    expect(failed.tone).toBe('danger');
    expect(failed.text).toContain('• Scene 3 timed out.');
    expect(commandsAsTyped(failed.text ?? '')).toContain('run `/reel create` again');
    const deleted = renderVideoCard({
      ...base,
      phase: 'completed',
      thumbnails: { status: 'ready', variants },
      deletedBy: 'carol',
    });
    expect(deleted.text).toContain('Deleted by carol');
    expect(deleted.sections).toBeUndefined();
    expect(deleted.controls).toBeUndefined();
    expect(renderVideoCard({ ...base, notice: md`Stopped watching` }).text).toContain('\n_Stopped watching_');
  });

  it('formats bars and ETAs', () => {
    expect(progressBar(0)).toBe('░░░░░░░░░░ 0%');
    expect(progressBar(100)).toBe('▓▓▓▓▓▓▓▓▓▓ 100%');
    expect(progressBar(140)).toBe('▓▓▓▓▓▓▓▓▓▓ 100%');
    expect(etaText(30_000)).toBe('under a minute left');
    expect(etaText(150_000)).toBe('about 3 min left');
  });
});

describe('ETA and adaptive intervals', () => {
  it('estimates the time left from the percent rate', () => {
    expect(estimateRemainingMs([])).toBeUndefined();
    expect(estimateRemainingMs([{ at: 0, percent: 10 }])).toBeUndefined();
    expect(
      estimateRemainingMs([
        { at: 0, percent: 10 },
        { at: 10_000, percent: 20 },
      ]),
    ).toBe(80_000);
    expect(
      estimateRemainingMs([
        { at: 0, percent: 10 },
        { at: 5_000, percent: 12 },
        { at: 20_000, percent: 30 },
      ]),
    ).toBe(70_000);
    // Stalled or going backwards: no estimate.
    expect(
      estimateRemainingMs([
        { at: 0, percent: 40 },
        { at: 10_000, percent: 40 },
      ]),
    ).toBeUndefined();
  });

  it("plans in the service's time: a service 20 times faster is looked at 20 times as often (issue 27)", () => {
    // The same job as below, seen on a clock where the service runs 20× faster: every answer is 20× shorter.
    expect(planNextLook([{ at: 0, percent: 5 }], GENERATION_BOUNDS, 20)).toEqual({
      inMs: 500,
      finishing: false,
    });
    const fast = (samples: { at: number; percent: number }[]) =>
      nextCheckIn(
        samples.map((s) => ({ ...s, at: s.at / 20 })),
        GENERATION_BOUNDS,
        20,
      );
    expect(
      fast([
        { at: 0, percent: 10 },
        { at: 10_000, percent: 20 },
      ]),
    ).toBe(GENERATION_BOUNDS.max / 20);
    expect(
      fast([
        { at: 0, percent: 30 },
        { at: 10_000, percent: 50 },
        { at: 20_000, percent: 65 },
      ]),
    ).toBe(21_000 / 20);
  });

  it('asks to look soon without a rate, slowly when stalled, near the finish otherwise, within bounds', () => {
    const { min, max } = GENERATION_BOUNDS;
    expect(nextCheckIn([{ at: 0, percent: 5 }])).toBe(min);
    expect(
      nextCheckIn([
        { at: 0, percent: 40 },
        { at: 10_000, percent: 40 },
      ]),
    ).toBe(max);
    // 80 s left: one full interval, then the finish is within reach.
    expect(
      nextCheckIn([
        { at: 0, percent: 10 },
        { at: 10_000, percent: 20 },
      ]),
    ).toBe(max);
    // 20 s left (rate over the whole window): just after the finish.
    expect(
      nextCheckIn([
        { at: 0, percent: 30 },
        { at: 10_000, percent: 50 },
        { at: 20_000, percent: 65 },
      ]),
    ).toBe(21_000);
    // 37 s left: one short interval before it, so the next look lands right after the finish.
    expect(
      nextCheckIn([
        { at: 0, percent: 0 },
        { at: 40_000, percent: 52 },
      ]),
    ).toBe(Math.round((48 * 40_000) / 52) - min);
    // 14 s left: just after it.
    expect(
      nextCheckIn([
        { at: 0, percent: 40 },
        { at: 10_000, percent: 65 },
      ]),
    ).toBe(15_000);
    // 1 s left: never below the bound.
    expect(
      nextCheckIn([
        { at: 0, percent: 90 },
        { at: 10_000, percent: 99 },
      ]),
    ).toBe(min);
    expect(
      nextCheckIn(
        [
          { at: 0, percent: 90 },
          { at: 10_000, percent: 99 },
        ],
        RENDER_BOUNDS,
      ),
    ).toBe(RENDER_BOUNDS.min);
  });

  it('plans the finish look a second or one percent after the expected finish, only when in reach', () => {
    // A slow job: 4.8 s per percent, 9.6 s left; percents are floored, so look one percent's worth after.
    expect(
      planNextLook([
        { at: 0, percent: 88 },
        { at: 48_000, percent: 98 },
      ]),
    ).toEqual({ inMs: 14_400, finishing: true });
    // 29 s left + 1 s is still in reach (30 s); 29.5 s + 1 s is not: look 10 s before the finish instead.
    expect(
      planNextLook([
        { at: 0, percent: 0 },
        { at: 29_000, percent: 50 },
      ]),
    ).toEqual({ inMs: 30_000, finishing: true });
    expect(
      planNextLook([
        { at: 0, percent: 0 },
        { at: 29_500, percent: 50 },
      ]),
    ).toEqual({ inMs: 19_500, finishing: false });
    // No rate: not a finish look.
    expect(planNextLook([{ at: 0, percent: 5 }])).toEqual({ inMs: 10_000, finishing: false });
  });

  it('steps, durations and tolerant state', () => {
    expect([0, 4, 5, 49, 99, 100].map(percentStep)).toEqual([0, 0, 5, 45, 95, 100]);
    expect(duration(6 * 3600_000)).toBe('6 h');
    expect(duration(90 * 60_000)).toBe('90 min');
    expect(duration(30_000)).toBe('30 s');
    expect(readGenerationState({ samples: [{ at: 1, percent: 2 }, 'junk'], phase: 'weird' })).toEqual({
      name: '',
      phase: 'generating',
      samples: [{ at: 1, percent: 2 }],
      lastStep: -1,
    });
  });
});

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
