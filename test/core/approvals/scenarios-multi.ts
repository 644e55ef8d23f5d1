/**
 * Publishing to several platforms at once (issue 31): one POST /posts per platform with its account and the
 * video's own post details, one approval for the set, one line per platform, and a Retry now for the platform
 * that failed (the simulator's `publishFailurePlatforms` knob) that posts it once. And `--video-url`.
 */
import { expect } from 'vitest';
import type { Reply } from './driver.js';
import { type ApprovalScenario, approvalCards, button, lastApproval, setup, text } from './scenario-kit.js';

const THREE = ['youtube', 'tiktok', 'instagram'];

export const MULTI_SCENARIOS: readonly ApprovalScenario[] = [
  {
    name: 'publish to three platforms: one approval, three posts, a failed one retried once with Retry now',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Launch teaser', { captions: true });
      await setup(d);
      d.fixtures.failPublishOn(['tiktok']);
      const sent = await d.run('alice', `publish ${id} youtube,tiktok,instagram`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(d.fixtures.sentBodies('/posts')).toEqual([]);

      const cards = await approvalCards(d);
      expect(cards).toHaveLength(1);
      const card = await lastApproval(d);
      expect(card.title).toMatch(
        /^Approval needed: Publish “Launch teaser” to YouTube.*TikTok.*Instagram.* now/,
      );
      for (const p of THREE)
        expect(card.text).toContain((await d.fixtures.accountLabel(`acc_demo_${p}`)) ?? p);
      expect(card.text).toContain('Launch teaser — launch');
      expect(card.text).toContain('Launch teaser on TikTok');
      expect(card.text).toContain('Launch teaser on Instagram');

      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Published to 2 of 3 platforms');
      expect(approved.card?.text).toContain('TikTok');
      expect(approved.card?.text).toContain('authorization has expired');
      const bodies = d.fixtures.sentBodies('/posts');
      expect(bodies.map((b) => [b.platform, b.authId])).toEqual(THREE.map((p) => [p, `acc_demo_${p}`]));
      expect(bodies.every((b) => b.title === undefined && b.videoId === id)).toBe(true);
      expect(d.fixtures.publishedTitles()).toEqual([
        { videoId: id, platform: 'youtube', title: 'Launch teaser — launch' },
        { videoId: id, platform: 'instagram', title: 'Launch teaser on Instagram' },
      ]);
      const after = await lastApproval(d);
      expect(after.title).toMatch(/^Approved: /);
      expect(after.text).toContain('authorization has expired');

      // The platform is fixed; the approver's Retry now posts TikTok once, under the same approval.
      d.fixtures.failPublishOn([]);
      const retry = button(approved.card, 'publish.retry');
      expect(retry.label).toBe('Retry now: TikTok');
      const retried = await d.click('bob', retry);
      expect(retried.kind, text(retried)).toBe('update');
      expect(retried.card?.title).toBe('Published to YouTube, TikTok, Instagram');
      expect(retried.card?.buttons.map((b) => b.action)).not.toContain('publish.retry');
      expect(d.fixtures.publishedPosts().map((p) => p.platform)).toEqual(['youtube', 'instagram', 'tiktok']);
      const last = d.fixtures.sentBodies('/posts').slice(3);
      expect(last).toEqual([expect.objectContaining({ platform: 'tiktok', authId: 'acc_demo_tiktok' })]);
      expect(await approvalCards(d)).toHaveLength(1);
      expect((await lastApproval(d)).text).not.toContain('authorization has expired');

      // A second click of the same button posts nothing more.
      await d.click('bob', retry);
      expect(d.fixtures.publishedPosts()).toHaveLength(3);
    },
  },
  {
    name: 'publish to several platforms without a policy: one card in the channel, one line per platform',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Night facts', { captions: true });
      d.fixtures.failPublishOn(['instagram']);
      const sent = await d.run('alice', `publish ${id} youtube,instagram --privacy unlisted`);
      expect(sent.visibility, text(sent)).toBe('channel');
      expect(sent.card?.title).toBe('Published to 1 of 2 platforms');
      expect(sent.card?.text).toContain('Instagram');
      const bodies = d.fixtures.sentBodies('/posts');
      expect(bodies.map((b) => [b.platform, b.privacyStatus])).toEqual([
        ['youtube', 'unlisted'],
        ['instagram', undefined],
      ]);
      d.fixtures.failPublishOn([]);
      // Sent without an approval: once the workspace asks for one, Retry now does not go around it.
      await setup(d);
      const refused = await d.click('alice', button(sent.card, 'publish.retry'));
      expect(text(refused)).toContain('needs an approver');
      expect(d.fixtures.sentBodies('/posts')).toHaveLength(2);
      const off = await d.run('alice', 'settings approval off');
      expect(off.card?.title, text(off)).toBe('Workspace settings updated');
      const retried = await d.click('alice', button(sent.card, 'publish.retry'));
      expect(retried.card?.title, text(retried)).toBe('Published to YouTube, Instagram');
      expect(d.fixtures.publishedPosts().map((p) => p.platform)).toEqual(['youtube', 'instagram']);
    },
  },
  {
    name: 'the Publish form: several platforms, then each one’s text; one approval for the set',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Form teaser', { captions: true });
      await setup(d);
      const first = await d.run('alice', `publish ${id}`);
      expect(first.kind, text(first)).toBe('form');
      expect(first.form?.inputs).toContain('platform');
      const second = await d.submit('alice', first.form as NonNullable<Reply['form']>, {
        platform: 'youtube,tiktok,instagram',
      });
      expect(second.kind, text(second)).toBe('form');
      expect(second.form?.inputs).toEqual(['title-youtube', 'title-tiktok', 'title-instagram']);
      const sent = await d.submit('alice', second.form as NonNullable<Reply['form']>, {
        'title-youtube': 'Form teaser — launch',
        'title-tiktok': 'Eight arms on TikTok',
        'title-instagram': 'Form teaser on Instagram',
      });
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      expect(await approvalCards(d)).toHaveLength(1);
      const card = await lastApproval(d);
      expect(card.text).toContain('Eight arms on TikTok');
      expect(card.text).toContain('Form teaser on Instagram');
      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Published to YouTube, TikTok, Instagram');
      const bodies = d.fixtures.sentBodies('/posts');
      expect(bodies.map((b) => [b.platform, b.title])).toEqual([
        ['youtube', undefined],
        ['tiktok', 'Eight arms on TikTok'],
        ['instagram', undefined],
      ]);
    },
  },
  {
    name: '--video-url: only https; shown on the approval card and sent as videoUrl',
    async run(d) {
      const id = await d.fixtures.renderedVideo('Edited cut');
      const refused = await d.run(
        'alice',
        `publish ${id} youtube --video-url http://cdn.example.com/cut.mp4`,
      );
      expect(text(refused)).toContain('https');
      expect(d.fixtures.sentBodies('/posts')).toEqual([]);

      await setup(d);
      const url = 'https://cdn.example.com/cut.mp4';
      const sent = await d.run('alice', `publish ${id} youtube --video-url ${url}`);
      expect(sent.card?.title, text(sent)).toBe('Sent for approval');
      const card = await lastApproval(d);
      expect(card.text).toContain(url);
      const approved = await d.click('bob', button(card, 'approval.approve'));
      expect(approved.card?.title, text(approved)).toBe('Approved · Published to YouTube');
      expect(d.fixtures.sentBodies('/posts')).toEqual([
        expect.objectContaining({ platform: 'youtube', videoUrl: url }),
      ]);
    },
  },
];
