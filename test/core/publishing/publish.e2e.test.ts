import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import { generateApiKey } from '../../../src/simulator/index.js';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { type CallLog, cardOf, completedVideo, formOf, spyCalls } from './helpers.js';

describe('publish', () => {
  let h: Harness;
  let alice: RequestInfo;
  let videoId: string;
  let calls: CallLog;

  beforeEach(async () => {
    h = await createHarness();
    alice = await h.user('alice');
    videoId = await completedVideo(h, 'Launch teaser', { render: true });
    await h.store.users.setLast(alice.user, 'video', videoId);
    calls = spyCalls(h);
  });
  afterEach(async () => h.close());

  it('publishes now, answers with the post URL in the channel and puts it on the video card', async () => {
    const r = await h.run('/reel publish last youtube --privacy unlisted');
    const card = cardOf(r);
    expect(r.kind === 'message' && r.visibility).toBe('channel');
    expect(card.title).toBe('Published to YouTube');
    const posts = h.sim.sim.publishedPosts();
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ videoId, platform: 'youtube', authId: 'acc_demo_youtube' });
    expect(card.text).toContain(`[View post](${posts[0]?.postUrl})`);

    const posted = h.chat.channelMessages.find((m) => m.card.title === 'Launch teaser');
    expect(posted?.card.fields?.find((f) => f.label === 'Posted: youtube')?.value).toBe(
      `[View post](${posts[0]?.postUrl})`,
    );
    expect(await h.store.cards.get(videoCardKey(videoId, h.conversation))).toBeDefined();
    expect(await h.store.audit.list({ workspacePrefix: 'playground:W1', videoId })).toMatchObject([
      {
        action: 'video.publish',
        actor: alice.user,
        details: { platform: 'youtube', authId: 'acc_demo_youtube' },
      },
    ]);
  });

  it('sends one post for a repeated command soon after (one idempotency key)', async () => {
    await h.run('/reel publish last tiktok');
    await h.run('/reel publish last tiktok');
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
    // The second is answered "Already published …" (typed-replay.ts) without sending anything.
    expect(calls.writes).toEqual(['posts.publish']);
  });

  it('uses the account named by label or id', async () => {
    h.sim.sim.connectAccount(h.sim.keys[0] as string, 'youtube', {
      authId: 'acc_second',
      label: 'Second Channel',
    });
    await h.run('/reel publish last youtube --account "second channel"');
    expect(h.sim.sim.publishedPosts()[0]?.authId).toBe('acc_second');
    const unknown = await h.run('/reel publish last youtube --account Nope');
    expect(textOf(unknown)).toContain('No YouTube account matches `Nope`');
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
  });

  it('refuses --privacy off YouTube before any API call', async () => {
    const r = await h.run('/reel publish last tiktok --privacy private');
    expect(textOf(r)).toContain('`--privacy` applies to YouTube only');
    expect(textOf(r)).toContain('Usage');
    // Not even the video is read: the arguments alone decide.
    expect(calls.all).toEqual([]);
  });

  it('refuses an unknown platform with usage', async () => {
    const r = await h.run('/reel publish last vine');
    expect(textOf(r)).toMatch(/`vine` isn't a platform/);
    expect(calls.all).toEqual([]);
  });

  it('says the video must be rendered first and offers the Render button', async () => {
    const raw = await completedVideo(h, 'Raw cut');
    calls.writes.length = 0;
    const r = await h.run('/reel publish "Raw cut" youtube');
    const card = cardOf(r);
    expect(card.title).toBe('Render it first');
    expect(card.controls?.find((c) => c.kind === 'button' && c.action === 'video.render')).toMatchObject({
      value: raw,
    });
    expect(calls.writes).toEqual([]);
  });

  it('opens a form from the Publish now button and publishes on submit', async () => {
    const form = formOf(await h.click('video.publish', videoId));
    expect(form.inputs.map((i) => i.id)).toEqual(['platform', 'account', 'privacy']);
    const bad = await h.submit(form.id, form.state, { platform: 'nope', account: '', privacy: 'public' });
    expect(bad.kind).toBe('form-errors');
    const ok = await h.submit(form.id, form.state, { platform: 'instagram', account: '', privacy: 'public' });
    expect(cardOf(ok).title).toBe('Published to Instagram');
    expect(h.sim.sim.publishedPosts()[0]?.platform).toBe('instagram');
  });

  it('names an account of another platform picked in the form, and says what to change there', async () => {
    const form = formOf(await h.click('video.publish', videoId));
    const account = form.inputs.find((i) => i.id === 'account');
    if (account?.kind !== 'select') throw new Error('expected an account select');
    const instagram = account.options.find((o) => o.label.startsWith('Instagram'));
    if (!instagram) throw new Error('no Instagram account offered');
    const r = await h.submit(form.id, form.state, {
      platform: 'youtube',
      account: instagram.value,
      privacy: 'public',
    });
    expect(r.kind).toBe('form-errors');
    const words = textOf(r);
    // The account by its label, the fix inside the form, never its id or a command to type.
    const label = instagram.label.replace(/^Instagram · /, '').replace(/ \(default\)$/, '');
    expect(words).toContain(`“${label}” is not a YouTube account`);
    expect(words).toContain('Under Account, pick');
    expect(words).not.toContain(instagram.value);
    expect(words).not.toContain('/reel');
    expect(h.sim.sim.publishedPosts()).toEqual([]);
  });

  it('opens the form when the platform is missing', async () => {
    const form = formOf(await h.run('/reel publish last'));
    expect(form.intro).toContain('Launch teaser');
    expect(calls.writes).toEqual([]);
  });
});

describe('publish with other account set-ups', () => {
  let h: Harness;
  let bob: RequestInfo;
  const key = generateApiKey();

  beforeEach(async () => {
    h = await createHarness({
      teams: [
        {
          name: 'Two Channels',
          keys: [{ key }],
          accounts: {
            youtube: [
              { authId: 'yt_a', label: 'Channel A', isDefault: false },
              { authId: 'yt_b', label: 'Channel B', isDefault: false },
            ],
          },
        },
      ],
    });
    bob = await h.user('bob', { key });
  });
  afterEach(async () => h.close());

  it('asks which account when several are connected and none is the default', async () => {
    const id = await completedVideo(h, 'Two accounts', { key, render: true });
    const r = await h.run(`/reel publish ${id} youtube`, bob);
    const select = cardOf(r).controls?.[0];
    if (select?.kind !== 'select') throw new Error('expected an account select');
    expect(select.options.map((o) => o.label)).toEqual(['Channel A', 'Channel B']);
    expect(h.sim.sim.publishedPosts()).toHaveLength(0);
    const chosen = await h.click(select.action, '', bob, select.options[1]?.value);
    expect(cardOf(chosen).title).toBe('Published to YouTube');
    expect(h.sim.sim.publishedPosts()[0]?.authId).toBe('yt_b');
  });

  it('says clearly when the platform has no connected account', async () => {
    const id = await completedVideo(h, 'No tiktok', { key, render: true });
    const r = await h.run(`/reel publish ${id} tiktok`, bob);
    expect(textOf(r)).toContain('Your team has no TikTok account connected');
    expect(h.sim.sim.publishedPosts()).toHaveLength(0);
  });
});
