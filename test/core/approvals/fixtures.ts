/**
 * The video service's side of the scenarios, shared by the drivers built on the core harness: videos made
 * through the real client against the simulator, and what the simulator recorded (posts, spends).
 */
import { demoTeam } from '../../../src/simulator/index.js';
import { DEMO_KEY, type Harness } from '../../support/harness.js';
import { completedVideo } from '../publishing/helpers.js';
import type { Fixtures } from './driver.js';

/** Mallory's team: same shape as the demo team, another key, another tenant. */
export const OTHER_KEY = 'fl_live_other_team_key_0123456789abcdef';
export const otherTeam = () => ({ ...demoTeam(OTHER_KEY), name: 'Other Team' });

export function harnessFixtures(h: Harness): Fixtures {
  return {
    async renderedVideo(name, options = {}) {
      const key = options.team === 'other' ? OTHER_KEY : DEMO_KEY;
      const id = await completedVideo(h, name, { key, render: true });
      await h.deps.apiFor(key).videos.update(id, {
        posts: {
          youtube: { title: `${name} — launch`, privacyStatus: 'public' },
          ...(options.captions
            ? { tiktok: { title: `${name} on TikTok` }, instagram: { caption: `${name} on Instagram` } }
            : {}),
        },
      });
      return id;
    },
    failPublishOn: (platforms) => h.sim.sim.setKnobs({ publishFailurePlatforms: platforms }),
    publishedPosts: () =>
      h.sim.sim.publishedPosts().map((p) => ({ videoId: p.videoId, platform: p.platform })),
    publishedTitles: () =>
      h.sim.sim.publishedPosts().map((p) => ({ videoId: p.videoId, platform: p.platform, title: p.title })),
    async scheduledPosts(videoId) {
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const now = h.clock.now();
      const entries = await h.deps
        .apiFor(DEMO_KEY)
        .posts.calendar({ startDate: day(now - 86_400_000), endDate: day(now + 30 * 86_400_000) });
      return entries
        .filter((e) => e.projectId === videoId)
        .map((e) => ({ platform: e.platform, status: e.status, scheduledTime: e.scheduledTime }));
    },
    sentBodies: (path) =>
      h.sim.sim.received({ method: 'POST', path }).map((r) => r.body as Record<string, unknown>),
    async accountLabel(authId) {
      const accounts = await h.deps.apiFor(DEMO_KEY).accounts.list();
      return Object.values(accounts)
        .flat()
        .find((a) => a?.authId === authId)?.label;
    },
    seedPostHistory: (posts) => {
      h.sim.sim.seedPostHistory(DEMO_KEY, posts);
    },
    spends: () =>
      h.sim.sim
        .ledger(DEMO_KEY)
        .filter((e) => e.credits < 0)
        .map((e) => e.credits),
    seriesWrites: () =>
      h.sim.sim
        .received({ path: /^\/series(\/[^/]+)?$/ })
        .filter((r) => r.method === 'POST' || r.method === 'PATCH')
        .map((r) => ({
          method: r.method as 'POST' | 'PATCH',
          body: (r.body ?? {}) as Record<string, unknown>,
        })),
  };
}
