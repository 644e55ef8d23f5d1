/** caption, status, videos, show, thumbnails (+ pick), rename, render, delete — end to end. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { md } from '../../../src/core/text/text.js';
import { cardText, tableRows, textOf } from '../../support/harness.js';
import {
  apiVideo,
  button,
  buttons,
  card,
  completeVideo,
  createThroughChat,
  idFrom,
  liveCard,
  liveCards,
  MINUTE,
  OTHER_KEY,
  twoTeamsHarness,
  type VideosHarness,
  videosHarness,
  writes,
} from './helpers.js';

let h: VideosHarness;
beforeEach(async () => {
  h = await twoTeamsHarness();
});
afterEach(() => h.close());

const usageError = (r: Awaited<ReturnType<VideosHarness['run']>>) => {
  const c = card(r);
  expect(c.tone).toBe('danger');
  expect(c.fields?.[0]?.label).toBe('Usage');
  return c.text ?? '';
};

describe('caption', () => {
  it('sends audio as audioUrl and video as videoUrl, free, with a live card', async () => {
    const a = card(await h.run('caption https://cdn.example.com/podcasts/ep12.MP3?dl=1 --language English'));
    expect(a.title).toBe('Captioning “ep12.MP3”…');
    expect(a.text).toContain('Sent as audio (free)');
    const v = card(await h.run('caption https://cdn.example.com/interview.mp4 --name "Founder interview"'));
    expect(v.text).toContain('Sent as video');
    const bodies = h.calls.filter((c) => c.name === 'videos.caption').map((c) => c.args[0]);
    expect(bodies).toEqual([
      { audioUrl: 'https://cdn.example.com/podcasts/ep12.MP3?dl=1', language: 'en' },
      { videoUrl: 'https://cdn.example.com/interview.mp4', name: 'Founder interview' },
    ]);
    expect(h.sim.sim.ledger('Demo Team').filter((e) => e.credits < 0)).toEqual([]);

    const id = idFrom(v);
    const live = liveCard(h, id);
    expect(live.card.text).toContain('Transcribing and captioning');
    await h.until(() => live.card.tone === 'success', { maxMs: 5 * MINUTE });
    expect(live.card.text).toContain('Captioned.');
    expect(h.chat.repliesTo(live.message).map((r) => r.card.title)).toEqual([
      '✅ Founder interview is ready',
    ]);
  });

  it('rejects a non-http URL and a missing URL with usage, sending nothing', async () => {
    expect(usageError(await h.run('caption ftp://cdn.example.com/a.mp4'))).toContain(
      "isn't a public http(s) URL",
    );
    expect(usageError(await h.run('caption'))).toContain('needs `url`');
    expect(usageError(await h.run('caption https://x.example/a.mp4 --name ' + 'n'.repeat(121)))).toContain(
      'Name is 121 characters, 1 over its limit of 120.',
    );
    expect(writes(h)).toEqual([]);
  });
});

describe('status', () => {
  it('starts a live card for a running video once, and shows a finished one', async () => {
    const id = await apiVideo(h, 'Running one');
    h.clock.advance(30_000);
    const first = card(await h.run('status Running'));
    expect(first.text).toMatch(/generating: 3\d% done\. I posted a status card/);
    expect(liveCards(h, id)).toHaveLength(1);
    const again = card(await h.run(`status ${id}`));
    expect(again.text).toContain('being kept up to date');
    expect((await h.store.watches.active()).filter((w) => w.kind === 'generation')).toHaveLength(1);
    expect(liveCards(h, id)).toHaveLength(1);
    expect(await h.store.users.getLast('playground:W1:alice', 'video')).toBe(id);

    await completeVideo(h, id);
    await h.advance(30_000);
    const done = card(await h.run('status last'));
    expect(done.tone).toBe('success');
    expect(done.sections).toHaveLength(3);
  });

  it('shows a failed video with its reasons', async () => {
    h.sim.sim.setKnobs({ generationFailureRate: 1 });
    const id = await apiVideo(h, 'Doomed');
    h.clock.advance(5 * MINUTE);
    const c = card(await h.run(`status ${id}`));
    expect(c.tone).toBe('danger');
    expect(c.text).toContain('Generation failed');
    // The video's card is live here now, showing the failure too.
    expect(liveCards(h, id)).toHaveLength(1);
  });

  it('answers unknown and ambiguous references, and no argument, without guessing', async () => {
    await apiVideo(h, 'Moon facts');
    await apiVideo(h, 'Moon landing');
    expect(textOf(await h.run('status Mars'))).toContain('No video matches `Mars`');
    expect(textOf(await h.run('status Moon'))).toContain('`Moon` matches several videos');
    expect(textOf(await h.run('status 0123456789abcdef01234567'))).toContain('No video matches');
    expect(usageError(await h.run('status'))).toContain('needs `video`');
    expect(textOf(await h.run('status last', await h.user('carol')))).toContain('no recent video');
  });
});

describe('videos', () => {
  it('lists newest first with pagination buttons and times in the caller zone', async () => {
    h.sim.sim.setKnobs({ rateLimits: false });
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++) {
      ids.push(await apiVideo(h, `Clip ${i}`));
      h.clock.advance(MINUTE);
    }
    await h.user('alice', { timeZone: 'Asia/Tokyo' });
    const page1 = card(await h.run('videos'));
    expect(page1.table?.columns.map((c) => c.label)).toEqual(['Video', 'Model', 'Created', 'MP4', 'Id']);
    expect(tableRows(page1)).toHaveLength(10);
    expect(tableRows(page1)[0]).toEqual([
      'Clip 12',
      expect.any(String),
      'Today, 17:11',
      '',
      `\`${ids[11]}\``,
    ]);
    expect(page1.context).toBe('Page 1 of 2 · times in Asia/Tokyo');
    expect(page1.text).toContain('1–10 of 12 videos');
    expect(buttons(page1).map((b) => b.label)).toEqual(['Next →']);

    const page2 = await h.click('videos.page', button(page1, 'videos.page').value);
    expect(page2.kind).toBe('update');
    const p2 = card(page2);
    expect(tableRows(p2).map(([name]) => name)).toEqual(['Clip 2', 'Clip 1']);
    expect(buttons(p2).map((b) => b.label)).toEqual(['← Prev']);

    expect(tableRows(card(await h.run('videos --page 2')))).toHaveLength(2);
    expect(usageError(await h.run('videos --page 3'))).toContain('There is no page 3: the list has 2 pages');
    expect(usageError(await h.run('videos --page 0'))).toContain('between 1');
    expect(usageError(await h.run('videos --sort name'))).toContain('no option `--sort`');
  });

  it('has helpful empty states, archived included', async () => {
    expect(card(await h.run('videos')).title).toBe('No videos yet');
    const id = await apiVideo(h, 'Old one');
    expect(card(await h.run('videos --archived')).title).toBe('No archived videos');
    h.sim.sim.archiveVideo(id);
    const archived = card(await h.run('videos --archived'));
    expect(archived.title).toBe('Archived videos');
    expect(tableRows(archived)[0]?.[0]).toBe('Old one');
  });
});

describe('show', () => {
  it('shows script, voice, model, status, every post block, thumbnails and the MP4', async () => {
    const id = await apiVideo(h, 'Showcase', { complete: true, model: 'motion_lite' });
    await h.api.videos.update(id, {
      posts: {
        youtube: {
          title: 'Showcase on YouTube',
          description: 'A long description',
          privacyStatus: 'unlisted',
        },
        x: { text: 'Watch this' },
      },
    });
    const before = card(await h.run('show Showcase'));
    const fields = Object.fromEntries((before.fields ?? []).map((f) => [f.label, f.value]));
    expect(fields).toMatchObject({
      Status: '✅ completed',
      Model: 'motion_lite',
      Voice: 'Aria · en · female',
      Rendered: 'Not yet',
      'YouTube post': '**Showcase on YouTube**\nA long description\nprivacy: unlisted',
      'X post': 'Watch this',
    });
    expect(fields.Thumbnails).toMatch(/^ready, 3 options · option \d in use \(AI pick\)$/);
    expect(before.text).toContain('A short script about Showcase');
    expect(before.image?.url).toBeTruthy();
    expect(buttons(before).map((b) => b.action)).toEqual([
      'video.thumbnails',
      'video.show-here',
      'video.render',
    ]);

    await h.click('video.render', id);
    await h.until(async () => (await h.store.watches.active()).length === 0, { maxMs: 5 * MINUTE });
    const after = card(await h.run(`show ${id}`));
    const url = (await h.api.videos.get(id)).renderedVideoUrl as string;
    expect(after.fields?.find((f) => f.label === 'Rendered')?.value).toBe(`[Download MP4](${url})`);
    expect(after.controls?.some((c) => c.kind === 'link' && c.url === url)).toBe(true);
  });

  it('says when there is no post metadata yet', async () => {
    await apiVideo(h, 'Bare');
    expect(cardText(card(await h.run('show Bare')))).toContain('Post metadata: None yet');
  });

  it('leaves out the creation time when the real service’s detail has none the bot can read', async () => {
    await h.close();
    // The real profile's detail carries `createdAt` as epoch milliseconds: not a timestamp string.
    h = await videosHarness({ simulator: { profile: 'real' } });
    await apiVideo(h, 'Undated', { complete: true });
    const shown = card(await h.run('show Undated'));
    expect(shown.fields?.map((f) => f.label)).not.toContain('Created');
    expect(cardText(shown)).not.toContain('unknown');
    expect(shown.fields?.find((f) => f.label === 'Status')?.value).toBe('✅ completed');
  });
});

describe('thumbnails', () => {
  it('explains a video still generating, then offers the options with Use this', async () => {
    const id = await apiVideo(h, 'Thumbs');
    expect(card(await h.run('thumbnails Thumbs')).text).toContain(
      'Thumbnails are made once generation completes',
    );
    for (let i = 0; i < 40 && (await h.api.videos.status(id)).status !== 'completed'; i++)
      h.clock.advance(5_000);
    expect(card(await h.run('thumbnails Thumbs')).text).toMatch(/Thumbnails are (queued|being generated)/);
    await completeVideo(h, id);
    const c = card(await h.run('thumbnails Thumbs'));
    expect(c.sections).toHaveLength(3);
    for (const s of c.sections ?? []) {
      expect(s.image?.url).toBeTruthy();
      expect(s.text).toMatch(/grade [A-D] · score \d+/);
    }
    expect(c.sections?.some((s) => s.text?.includes('“'))).toBe(true);
    expect(buttons(c).filter((b) => b.label === 'Use this')).toHaveLength(3);

    // Pick from this card: the card is redrawn with the pick marked; the service records a user pick.
    const unpicked = (c.sections ?? []).find((s) => !s.text?.includes('AI pick'));
    const value = button({ title: md``, sections: [unpicked ?? {}] }, 'thumbnail.pick').value;
    const r = await h.click('thumbnail.pick', value);
    expect(r.kind).toBe('update');
    expect(cardText(card(r))).toContain('✅ in use (picked by alice)');
    expect(buttons(card(r)).filter((b) => b.label === 'Use this')).toHaveLength(2);
    const t = (await h.api.videos.get(id)).thumbnails;
    expect(t).toMatchObject({ selectedBy: 'user', selectedVariantId: value.split(':')[1] });

    // The pick survives a regeneration.
    h.sim.sim.regenerateThumbnails(id);
    await completeVideo(h, id);
    expect((await h.api.videos.get(id)).thumbnails?.selectedVariantId).toBe(value.split(':')[1]);
  });

  it('explains partial and failed thumbnails', async () => {
    h.sim.sim.setKnobs({ thumbnailFailureRate: 1 });
    await apiVideo(h, 'No thumbs', { complete: true });
    expect(card(await h.run('thumbnails No thumbs')).text).toContain(
      'Thumbnail generation failed. The video is fine',
    );
    h.sim.sim.setKnobs({ thumbnailFailureRate: 0.5 });
    for (let i = 0; i < 8; i++) {
      const id = await apiVideo(h, `Some thumbs ${i}`, { complete: true });
      if ((await h.api.videos.get(id)).thumbnails?.status !== 'partial') continue;
      const c = card(await h.run(`thumbnails ${id}`));
      expect(c.text).toMatch(/Only [12] of 3 options came out; they are still usable/);
      return;
    }
    throw new Error('no partial thumbnails drawn');
  });

  it('a pick by someone of another team is not found and changes nothing', async () => {
    const id = await apiVideo(h, 'Ours', { complete: true });
    const other = await h.user('mallory', { key: OTHER_KEY });
    const variant = (await h.api.videos.get(id)).thumbnails?.variants[0]?.id as string;
    const r = await h.click('thumbnail.pick', `${id}:${variant}`, other);
    expect(card(r).tone).toBe('danger');
    expect(textOf(r)).toContain('not found in your team');
    expect((await h.api.videos.get(id)).thumbnails?.selectedBy).toBe('ai');
  });
});

describe('rename', () => {
  it('renames, retitles the live card, and checks the length first', async () => {
    const id = await createThroughChat(h, 'create --name Draft A script long enough to be a video.');
    const r = card(await h.run(`rename ${id} Final cut, part 1`));
    expect(r.text).toBe('“Draft” is now “Final cut, part 1”.');
    expect((await h.api.videos.get(id)).name).toBe('Final cut, part 1');
    expect(liveCard(h, id).card.title).toBe('Final cut, part 1');
    const before = writes(h).length;
    expect(usageError(await h.run(`rename ${id} ${'n'.repeat(121)}`))).toContain(
      'Name is 121 characters, 1 over its limit of 120.',
    );
    expect(usageError(await h.run(`rename ${id}`))).toContain('needs `name`');
    expect(writes(h).length).toBe(before);
  });
});

describe('render', () => {
  it('explains a video that is not ready or failed, and rejects a bad codec', async () => {
    const id = await apiVideo(h, 'Not yet');
    expect(textOf(await h.run(`render ${id}`))).toMatch(
      /can't be rendered yet: generation is processing \(\d+%\)/,
    );
    expect(usageError(await h.run(`render ${id} --codec av1`))).toContain("`av1` isn't a valid `codec`");
    h.sim.sim.setKnobs({ generationFailureRate: 1 });
    const failed = await apiVideo(h, 'Broken');
    h.clock.advance(5 * MINUTE);
    expect(textOf(await h.run(`render ${failed}`))).toContain(
      'failed to generate, so there is nothing to render',
    );
    expect(writes(h)).toEqual([]);
  });

  it('renders with the codec asked, posts a card if none is here, and answers a second request while running', async () => {
    const id = await apiVideo(h, 'Render me', { complete: true });
    const r = card(await h.run(`render "Render me" --codec vp8`));
    expect(r.title).toBe('Rendering “Render me” (vp8)…');
    expect(h.calls.find((c) => c.name === 'videos.render')?.args[1]).toEqual({ codec: 'vp8' });
    const live = liveCard(h, id);
    expect(cardText(live.card)).toContain('Render: ░░░░░░░░░░ 0% (vp8)');
    expect(live.card.sections).toHaveLength(3);
    expect(textOf(await h.click('video.render', id))).toContain('Already rendering');
    expect(writes(h)).toEqual(['videos.render']);
    await h.until(async () => (await h.store.watches.active()).length === 0, { maxMs: 5 * MINUTE });
    expect(live.card.video?.url).toBe((await h.api.videos.get(id)).renderedVideoUrl);
    expect(h.chat.repliesTo(live.message).map((x) => x.card.text)).toEqual([
      `Rendered: ${(await h.api.videos.get(id)).renderedVideoUrl}`,
    ]);
  });

  it('the same typed render again after it finished (its answer lost) is told so, and renders nothing twice', async () => {
    const id = await apiVideo(h, 'Once', { complete: true });
    await h.run(`render ${id}`);
    const live = liveCard(h, id);
    await h.until(async () => (await h.store.watches.active()).length === 0, { maxMs: 5 * MINUTE });
    const again = card(await h.run(`render ${id}`));
    expect(again.title).toBe('Already done');
    expect(again.controls?.map((c) => c.kind === 'button' && c.label)).toEqual(['Render again']);
    expect(writes(h)).toEqual(['videos.render']);
    expect(h.chat.repliesTo(live.message).filter((x) => x.card.title.startsWith('🎞️'))).toHaveLength(1);
  });

  it('a failed render says so with a Render again button that starts a new render', async () => {
    const id = await apiVideo(h, 'Flaky', { complete: true });
    h.sim.sim.setKnobs({ renderFailureRate: 1 });
    await h.click('video.render', id);
    const live = liveCard(h, id);
    await h.until(async () => (await h.store.watches.active()).length === 0, { maxMs: 5 * MINUTE });
    expect(cardText(live.card)).toContain('Render: Failed. Press **Render again**');
    const reply = h.chat.repliesTo(live.message)[0];
    expect(reply?.card.title).toBe('⚠️ Render of Flaky failed');
    const again = button(reply?.card ?? { title: md`` }, 'video.render');
    expect(again.label).toBe('Render again');

    h.sim.sim.setKnobs({ renderFailureRate: 0 });
    await h.click('video.render', again.value);
    await h.until(async () => (await h.store.watches.active()).length === 0, { maxMs: 5 * MINUTE });
    expect(live.card.video?.url).toBe((await h.api.videos.get(id)).renderedVideoUrl);
    expect(writes(h)).toEqual(['videos.render', 'videos.render']);
    const renderIds = new Set(
      (await h.store.audit.list({ workspacePrefix: 'playground:W1' })).map((e) => e.details?.renderId),
    );
    expect(renderIds.size).toBe(2);
  });
});

describe('delete', () => {
  it('asks first with a danger button, then deletes, stops watching and tombstones the card', async () => {
    const id = await createThroughChat(h, 'create --name Doomed A script long enough to be a video.');
    const ask = card(await h.run('delete Doomed'));
    expect(ask.text).toContain('**Credits are not refunded.**');
    const del = button(ask, 'video.delete.confirm');
    expect(del.style).toBe('danger');
    expect(del.confirm?.text).toContain('No credits are refunded');
    expect(writes(h)).toEqual(['videos.create']);

    const done = await h.click('video.delete.confirm', del.value);
    expect(done.kind).toBe('update');
    expect(card(done).title).toBe('Deleted “Doomed”');
    expect(await h.store.watches.active()).toEqual([]);
    expect(liveCard(h, id).card.text).toContain('Deleted by alice');
    expect(buttons(liveCard(h, id).card)).toEqual([]);
    expect(textOf(await h.run(`show ${id}`))).toContain('No video matches');

    // A second click (a stale copy of the question) says who deleted it, and when; nothing more.
    const late = await h.click('video.delete.confirm', del.value);
    expect(card(late).title).toBe('Already done');
    expect(textOf(late)).toContain(': Deleted “Doomed”.');
    // A question asked before cards carried an id (the bare video id) still answers as it did.
    expect(card(await h.click('video.delete.confirm', id)).title).toBe('Nothing to delete');
  });

  it('Keep it deletes nothing', async () => {
    await apiVideo(h, 'Keeper');
    const ask = card(await h.run('delete Keeper'));
    expect(card(await h.click('video.delete.cancel', button(ask, 'video.delete.cancel').value)).title).toBe(
      'Not deleted',
    );
    expect(writes(h)).toEqual([]);
    expect((await h.api.videos.list()).items).toHaveLength(1);
  });
});
