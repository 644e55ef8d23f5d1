import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { apiOf, type CallLog, cardOf, completedVideo, formOf, spyCalls } from './helpers.js';

describe('meta', () => {
  let h: Harness;
  let alice: RequestInfo;
  let videoId: string;
  let calls: CallLog;

  beforeEach(async () => {
    h = await createHarness();
    alice = await h.user('alice');
    videoId = await completedVideo(h, 'Launch teaser');
    await h.store.users.setLast(alice.user, 'video', videoId);
    calls = spyCalls(h);
  });
  afterEach(async () => h.close());

  it('sets the main field from text and confirms with a preview', async () => {
    const r = await h.run('/reel meta last x New drop today 🚀');
    expect(cardOf(r).title).toBe('X post details saved');
    expect(textOf(r)).toContain('New drop today 🚀');
    expect((await apiOf(h).videos.get(videoId)).posts.x).toEqual({ text: 'New drop today 🚀' });
  });

  it('accepts a unique name prefix and a platform alias', async () => {
    await h.run('/reel meta launch ig Caption here');
    expect((await apiOf(h).videos.get(videoId)).posts.instagram).toEqual({ caption: 'Caption here' });
  });

  it('changes a YouTube title and keeps the stored description and visibility', async () => {
    await apiOf(h).videos.update(videoId, {
      posts: { youtube: { title: 'Old', description: 'Long description', privacyStatus: 'unlisted' } },
    });
    await h.run('/reel meta last youtube A better title');
    expect((await apiOf(h).videos.get(videoId)).posts.youtube).toEqual({
      title: 'A better title',
      description: 'Long description',
      privacyStatus: 'unlisted',
    });
  });

  it('refuses over-long text before any API call, even the look-up of the video by name', async () => {
    const r = await h.run(`/reel meta launch x ${'a'.repeat(281)}`);
    expect(cardOf(r).tone).toBe('danger');
    expect(textOf(r)).toContain('281 characters; X allows 280');
    expect(textOf(r)).toContain('Usage');
    const yt = await h.run(`/reel meta "Launch teaser" youtube ${'t'.repeat(101)}`);
    expect(textOf(yt)).toContain('YouTube allows 100');
    expect(calls.all).toEqual([]);
    expect((await apiOf(h).videos.get(videoId)).posts).toEqual({});
  });

  it('answers an unknown platform with usage and sends nothing', async () => {
    const r = await h.run('/reel meta last myspace hello');
    expect(textOf(r)).toMatch(/`myspace` isn't a platform/);
    expect(textOf(r)).toContain('/reel meta <video> <platform> [text…]');
    expect(calls.all).toEqual([]);
  });

  it('opens the platform form prefilled, with limits, and validates inline', async () => {
    await apiOf(h).videos.update(videoId, {
      posts: { youtube: { title: 'Stored title', privacyStatus: 'private' } },
    });
    const form = formOf(await h.run('/reel meta last youtube'));
    expect(form.title).toBe('YouTube post details');
    expect(form.inputs.map((i) => [i.id, i.kind === 'select' ? 'select' : i.maxLength, i.initial])).toEqual([
      ['title', 100, 'Stored title'],
      ['description', 5000, undefined],
      // A description may also come as a text file.
      ['description_file', 5000, undefined],
      ['privacyStatus', 'select', 'private'],
    ]);

    const writesBefore = calls.writes.length;
    const bad = await h.submit(form.id, form.state, {
      title: 'x'.repeat(101),
      description: '',
      privacyStatus: 'public',
    });
    expect(bad.kind).toBe('form-errors');
    if (bad.kind === 'form-errors') expect(bad.errors.title).toContain('101 characters');
    const missing = await h.submit(form.id, form.state, {
      title: '  ',
      description: 'd',
      privacyStatus: 'public',
    });
    expect(missing.kind === 'form-errors' && missing.errors.title).toBe('YouTube needs a title.');
    expect(calls.writes.length).toBe(writesBefore);

    const ok = await h.submit(form.id, form.state, {
      title: 'New',
      description: 'Desc',
      privacyStatus: 'unlisted',
    });
    expect(cardOf(ok).title).toBe('YouTube post details saved');
    expect((await apiOf(h).videos.get(videoId)).posts.youtube).toEqual({
      title: 'New',
      description: 'Desc',
      privacyStatus: 'unlisted',
    });
  });

  it('prefills a new block from the video name and edits it again from the saved card', async () => {
    const form = formOf(await h.run('/reel meta last threads'));
    expect(form.inputs[0]).toMatchObject({
      id: 'text',
      maxLength: 500,
      initial: 'Launch teaser',
      multiline: true,
    });
    const saved = cardOf(await h.submit(form.id, form.state, { text: 'Threads text' }));
    const edit = saved.controls?.find((c) => c.kind === 'button' && c.action === 'meta.edit');
    if (edit?.kind !== 'button') throw new Error('no Edit button');
    const again = formOf(await h.click(edit.action, edit.value));
    expect(again.inputs[0]?.initial).toBe('Threads text');
  });

  it('asks for the video and platform when they are missing', async () => {
    const pick = formOf(await h.run('/reel meta'));
    expect(pick.id).toBe('meta.pick');
    expect(pick.inputs.find((i) => i.id === 'video')?.initial).toBe('last');
    const bad = await h.submit(pick.id, pick.state, { video: 'no such video', platform: 'x' });
    expect(bad.kind === 'form-errors' && bad.errors.video).toMatch(/No video matches/);
    const next = formOf(await h.submit(pick.id, pick.state, { video: 'last', platform: 'linkedin' }));
    expect(next.title).toBe('LinkedIn post details');
    expect(next.inputs[0]).toMatchObject({ id: 'description', maxLength: 3000 });
  });

  it('opens the pick form with the video kept when only the platform is missing', async () => {
    const pick = formOf(await h.run('/reel meta "Launch teaser"'));
    expect(pick.inputs.find((i) => i.id === 'video')?.initial).toBe('Launch teaser');
  });
});
