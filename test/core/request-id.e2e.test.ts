/**
 * One idempotency key per user action (DESIGN §6, src/core/dispatch/request-id.ts), end to end: the same request
 * retried 90 s later — across a minute boundary, as a retry after a timeout would be — charges or creates
 * once; a form or confirm card keys on the request id it opened with; a typed command is a new action only
 * after the retry window.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CREATE_FORM_ID } from '../../src/core/commands/series/create-form.js';
import { TYPED_RETRY_WINDOW_MS } from '../../src/core/dispatch/request-id.js';
import type { Response } from '../../src/core/text/cards.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../support/harness.js';
import { completedVideo } from './publishing/helpers.js';

const RETRY_AFTER_MS = 90_000;

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.user('alice');
  // 08:00:30: the retry 90 s later lands in another minute (the old minute buckets gave it a new key).
  h.clock.advance(30_000);
});
afterEach(() => h.close());

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);
const api = () => h.deps.apiFor(DEMO_KEY);

function card(r: Response) {
  if (r.kind !== 'message' && r.kind !== 'update') throw new Error(`expected a card, got ${r.kind}`);
  return r.card;
}
function form(r: Response) {
  if (r.kind !== 'form') throw new Error(`expected a form, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.form;
}
function buttonValue(r: Response, action: string): string {
  const b = card(r).controls?.find((c) => c.kind === 'button' && c.action === action);
  if (b?.kind !== 'button') throw new Error(`no ${action} button`);
  return b.value;
}

/** Presses Confirm on a `series create` cost card (the key was minted when the card opened). */
async function confirmCreate(r: Response | Promise<Response>): Promise<Response> {
  return h.click('series.create.confirm', buttonValue(await r, 'series.create.confirm'));
}

describe('a typed command retried 90 s later is the same action', () => {
  it('series create: one series, one charge; after the window it is a new series', async () => {
    await confirmCreate(h.run('series create Retried --source ai_story'));
    h.clock.advance(RETRY_AFTER_MS);
    // The first one went through: the member is told so (typed-replay.ts), with no cost card to confirm.
    const again = card(await h.run('series create Retried --source ai_story'));
    expect(again.text).toContain('Already started this series at 08:00 (same command, 1 minute ago)');
    expect(await api().series.list()).toHaveLength(1);
    expect(spends()).toHaveLength(1);

    h.clock.advance(TYPED_RETRY_WINDOW_MS);
    await confirmCreate(h.run('series create Retried --source ai_story'));
    expect(await api().series.list()).toHaveLength(2);
  });

  it('caption: one video', async () => {
    await h.run('caption https://cdn.example.com/interview.mp4 --name Interview');
    h.clock.advance(RETRY_AFTER_MS);
    await h.run('caption https://cdn.example.com/interview.mp4 --name Interview');
    expect((await api().videos.list({ page: 1, limit: 20 })).items).toHaveLength(1);
  });

  it('publish: one post', async () => {
    const videoId = await completedVideo(h, 'Teaser', { render: true });
    await h.run(`publish ${videoId} tiktok`);
    h.clock.advance(RETRY_AFTER_MS);
    await h.run(`publish ${videoId} tiktok`);
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
  });

  it('schedule: one post; the same schedule typed again after an unschedule is a new one', async () => {
    const videoId = await completedVideo(h, 'Again', { render: true });
    await api().videos.update(videoId, { posts: { youtube: { title: 'Again' } } });
    const text = `schedule ${videoId} youtube tomorrow 9am`;
    const scheduled = async () =>
      (await api().posts.calendar({ startDate: '2026-11-23', endDate: '2026-11-30' })).filter(
        (e) => e.projectId === videoId && e.status === 'scheduled',
      );
    await h.run(text);
    h.clock.advance(RETRY_AFTER_MS);
    await h.run(text);
    expect(await scheduled()).toHaveLength(1);

    expect(card(await h.run(`unschedule ${videoId}`)).title).toBe('Unscheduled');
    expect(await scheduled()).toHaveLength(0);
    // Within the retry window, yet not a replay of the cancelled post.
    expect(card(await h.run(text)).title).toBe('Scheduled');
    expect(await scheduled()).toHaveLength(1);
  });

  it('asset: one asset', async () => {
    const text = 'asset https://cdn.example.com/logo.png --name Logo';
    const id = (r: Response) => card(r).fields?.find((f) => f.label === 'Id')?.value;
    expect(id(await h.run(text))).toBeDefined();
    h.clock.advance(RETRY_AFTER_MS);
    expect(card(await h.run(text)).text).toMatch(
      /^Already registered this asset at \d\d:\d\d \(same command, 1 minute ago\)/,
    );
  });
});

describe('a form or confirm card keys on the request id it opened with', () => {
  it('series create form: a submit retried 90 s later creates and charges once; a new form is a new action', async () => {
    const opened = form(await h.run('series create --model motion_lite'));
    expect(opened.id).toBe(CREATE_FORM_ID);
    const values = { name: 'Form Series', source: 'ai_story' };
    await confirmCreate(h.submit(CREATE_FORM_ID, opened.state, values));
    h.clock.advance(RETRY_AFTER_MS);
    await confirmCreate(h.submit(CREATE_FORM_ID, opened.state, values));
    expect(await api().series.list()).toHaveLength(1);
    expect(spends()).toHaveLength(1);

    const again = form(await h.run('series create --model motion_lite'));
    expect(again.state).not.toBe(opened.state);
    await confirmCreate(h.submit(CREATE_FORM_ID, again.state, values));
    expect(await api().series.list()).toHaveLength(2);
  });

  it('series generate: a Generate click retried 90 s later charges once', async () => {
    await confirmCreate(h.run('series create Gen --source ai_story'));
    const before = spends().length;
    const ask = await h.run('series generate Gen');
    const value = buttonValue(ask, 'series.generate.confirm');
    const first = await h.click('series.generate.confirm', value);
    expect(textOf(first)).toContain('were charged');
    h.clock.advance(RETRY_AFTER_MS);
    await h.click('series.generate.confirm', value);
    expect(spends()).toHaveLength(before + 1);
  });

  it('publish form: a submit retried 90 s later posts once', async () => {
    const videoId = await completedVideo(h, 'Formed', { render: true });
    const opened = form(await h.click('video.publish', videoId));
    await h.submit(opened.id, opened.state, { platform: 'tiktok' });
    h.clock.advance(RETRY_AFTER_MS);
    await h.submit(opened.id, opened.state, { platform: 'tiktok' });
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
  });

  it('video create: a Create click retried 90 s later charges once', async () => {
    const ask = await h.run('create Octopuses have three hearts and blue blood.');
    const value = buttonValue(ask, 'video.create.confirm');
    await h.click('video.create.confirm', value);
    h.clock.advance(RETRY_AFTER_MS);
    await h.click('video.create.confirm', value);
    expect(spends()).toHaveLength(1);
  });
});
