/** The video card as a pure function of its model: headline, fields, controls and progress for every phase. */
import { describe, expect, it } from 'vitest';
import {
  etaText,
  progressBar,
  renderVideoCard,
  type VideoCardModel,
} from '../../../src/core/live/video-card.js';
import { sectionWords } from '../../../src/core/text/cards.js';
import { md } from '../../../src/core/text/text.js';
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
    expect(ai.sections?.map((s) => sectionWords(s))).toEqual([
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
    expect(user.sections?.[1]?.title).toContain('✅ in use (picked by bob)');
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

  it('the headline says where the video is after each step and what comes next', () => {
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
    // The video is the one way to the MP4: no field nor button links it again.
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
