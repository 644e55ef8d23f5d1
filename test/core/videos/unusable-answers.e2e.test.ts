/**
 * Watchers that never stall silently (DESIGN §4), end to end: the real client reads the real simulator
 * through a proxy that answers chosen reads with a body the client cannot use. The card keeps moving
 * through the other read; after 3 failed looks it says so in words and clears it on recovery; a streak of
 * 15 minutes is told to the requester privately, once. On both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { md } from '../../../src/core/text/text.js';
import type { SimulatorProfile } from '../../../src/simulator/index.js';
import type { ProxiedCall } from '../../support/api-proxy.js';
import { cardText } from '../../support/harness.js';
import { apiOf, completedVideo } from '../publishing/helpers.js';
import {
  button,
  card,
  createThroughChat,
  liveCard,
  MINUTE,
  SECOND,
  type VideosHarness,
  videosHarness,
} from './helpers.js';

const PROFILES: SimulatorProfile[] = ['spec', 'real'];
const CANT_READ = 'Can’t read the video service’s answer right now — still trying';

let h: VideosHarness;
afterEach(() => h.close());

const statusOf = (id: string) => (c: ProxiedCall) => c.method === 'GET' && c.path === `/videos/${id}/status`;
const videoOf = (id: string) => (c: ProxiedCall) => c.method === 'GET' && c.path === `/videos/${id}`;
const renderOf = (c: ProxiedCall) => c.method === 'GET' && c.path.startsWith('/renders/');

async function started(profile: SimulatorProfile, script = 'Five tips for filming on a phone, in sixty s.') {
  h = await videosHarness({ proxy: true, simulator: { profile } });
  const id = await createThroughChat(h, `create --model motion_pro ${script}`);
  return { id, live: liveCard(h, id) };
}

describe.each(PROFILES)('on the %s profile', (profile) => {
  describe('generation', () => {
    it('keeps the card moving through GET /videos/{id} while the status read is unusable', async () => {
      const { id, live } = await started(profile);
      h.proxy?.breakMatching(statusOf(id));
      await h.until(() => live.card.tone === 'success', { stepMs: SECOND, maxMs: 10 * MINUTE });
      expect(cardText(live.card)).toContain('Generated.');
      expect(cardText(live.card)).not.toContain(CANT_READ);
      // The fallback read is what moved it: the video itself was read while the status was broken.
      expect(h.proxy?.calls.some(videoOf(id))).toBe(true);
      expect(h.chat.notices).toEqual([]);
    });

    it('completes through the status read while the video read is unusable, and fetches thumbnails later', async () => {
      const { id, live } = await started(profile);
      h.proxy?.breakMatching(videoOf(id));
      await h.until(() => live.card.tone === 'success', { stepMs: SECOND, maxMs: 10 * MINUTE });
      expect(cardText(live.card)).toContain('Thumbnails are on the way');
      h.proxy?.heal();
      await h.until(() => (live.card.sections?.length ?? 0) === 3, { stepMs: SECOND, maxMs: 5 * MINUTE });
      expect(cardText(live.card)).toMatch(/AI pick, in use/);
    });

    it('says it cannot read after 3 failed looks, with the last reading, and clears it on recovery', async () => {
      const { id, live } = await started(profile);
      await h.until(() => (live.card.progress?.percent ?? 0) > 0, { stepMs: SECOND, maxMs: 5 * MINUTE });
      const lastPercent = live.card.progress?.percent;
      h.proxy?.breakMatching((c) => statusOf(id)(c) || videoOf(id)(c));
      const failedLooks = () => h.proxy?.calls.filter(statusOf(id)).length ?? 0;
      const before = failedLooks();
      await h.until(() => cardText(live.card).includes(CANT_READ), { stepMs: SECOND, maxMs: 3 * MINUTE });
      // Three looks (each trying both reads) failed before the card said so; not earlier.
      expect(failedLooks() - before).toBeGreaterThanOrEqual(3);
      expect(cardText(live.card)).toMatch(/last seen \d+ % at \d\d:\d\d UTC/);
      expect(live.card.progress?.percent).toBe(lastPercent);
      expect(h.chat.notices).toEqual([]);

      h.proxy?.heal();
      await h.until(() => !cardText(live.card).includes(CANT_READ), { stepMs: SECOND, maxMs: MINUTE });
      await h.until(() => live.card.tone === 'success', { stepMs: SECOND, maxMs: 10 * MINUTE });
      expect(cardText(live.card)).not.toContain(CANT_READ);
    });

    it('tells the requester privately, once, when it has failed for 15 minutes', async () => {
      const { id, live } = await started(profile);
      h.proxy?.breakMatching((c) => statusOf(id)(c) || videoOf(id)(c));
      await h.until(() => h.chat.notices.length > 0, { stepMs: 5 * SECOND, maxMs: 20 * MINUTE });
      await h.advance(10 * MINUTE);
      await h.advance(30 * SECOND);
      expect(h.chat.notices).toHaveLength(1);
      const [notice] = h.chat.notices;
      expect(notice?.user).toBe('playground:W1:alice');
      expect(cardText(notice?.card ?? { title: md`` })).toContain(id);
      expect(cardText(live.card)).toContain(CANT_READ);
      h.proxy?.heal();
      await h.until(() => live.card.tone === 'success', { stepMs: 5 * SECOND, maxMs: 10 * MINUTE });
      expect(h.chat.notices).toHaveLength(1);
    });
  });

  describe('render', () => {
    async function rendering() {
      const { id, live } = await started(profile);
      await h.until(() => live.card.tone === 'success', { stepMs: 5 * SECOND, maxMs: 10 * MINUTE });
      await h.until(() => (live.card.sections?.length ?? 0) > 0, { stepMs: 5 * SECOND, maxMs: 5 * MINUTE });
      await h.click('video.render', button(live.card, 'video.render').value);
      return { id, live };
    }
    const mp4 = (live: { card: { video?: { url: string } } }) => live.card.video !== undefined;

    it('shows the MP4 through GET /videos/{id} while the render read is unusable', async () => {
      const { id, live } = await rendering();
      h.proxy?.breakMatching(renderOf);
      await h.until(() => mp4(live), { stepMs: SECOND, maxMs: 5 * MINUTE });
      const rendered = (await h.api.videos.get(id)).renderedVideoUrl as string;
      expect(live.card.video?.url).toBe(rendered);
      expect(cardText(live.card)).not.toContain(CANT_READ);
    });

    it('says it cannot read after 3 failed looks and clears it on recovery', async () => {
      const { id, live } = await rendering();
      h.proxy?.breakMatching((c) => renderOf(c) || videoOf(id)(c));
      await h.until(() => cardText(live.card).includes(CANT_READ), { stepMs: SECOND, maxMs: 2 * MINUTE });
      expect(cardText(live.card)).toMatch(/last seen render \d+ % at \d\d:\d\d UTC|still trying\./);
      h.proxy?.heal();
      await h.until(() => mp4(live), { stepMs: SECOND, maxMs: 5 * MINUTE });
      expect(cardText(live.card)).not.toContain(CANT_READ);
    });
  });
});

/** The longest wait between two consecutive looks in `calls` (ms). */
function largestGap(calls: ProxiedCall[]): number {
  let largest = 0;
  for (let i = 1; i < calls.length; i++) {
    largest = Math.max(largest, (calls[i] as ProxiedCall).at - (calls[i - 1] as ProxiedCall).at);
  }
  return largest;
}

/** Poller passes land at moments unrelated to the planned looks, as in production (≤ the 1 s pass period). */
const PASS_MS = 970;

describe.each(PROFILES)(
  'look gaps on the %s profile, poller passes not aligned with the looks',
  (profile) => {
    it.each(['storyboard', 'motion_lite', 'motion_pro'])(
      'never waits more than 30 s between generation looks, or 15 s between render looks (%s)',
      async (model) => {
        h = await videosHarness({ proxy: true, simulator: { profile } });
        const id = await createThroughChat(h, `create --model ${model} Five tips for filming on a phone.`);
        const live = liveCard(h, id);
        const createdAt = h.clock.now();
        await h.until(() => live.card.tone === 'success', { stepMs: PASS_MS, maxMs: 10 * MINUTE });
        const generation = (h.proxy?.calls ?? []).filter(
          (c) => c.at >= createdAt && (statusOf(id)(c) || videoOf(id)(c)),
        );
        expect(generation.length).toBeGreaterThan(3);
        expect(largestGap(generation)).toBeLessThanOrEqual(30 * SECOND);
        // The curve moved the card in several steps (on the real profile it jumps and stalls).
        expect(new Set(live.history.map((c) => c.progress?.percent)).size).toBeGreaterThan(2);

        await h.until(() => (live.card.sections?.length ?? 0) > 0, { stepMs: PASS_MS, maxMs: 5 * MINUTE });
        const renderStart = h.clock.now();
        await h.click('video.render', button(live.card, 'video.render').value);
        await h.until(() => live.card.video !== undefined, {
          stepMs: PASS_MS,
          maxMs: 10 * MINUTE,
        });
        const renders = (h.proxy?.calls ?? []).filter((c) => c.at >= renderStart && renderOf(c));
        expect(renders.length).toBeGreaterThan(2);
        expect(largestGap(renders)).toBeLessThanOrEqual(15 * SECOND);
      },
    );
  },
);

describe.each(PROFILES)('schedule on the %s profile', (profile) => {
  it('says on the card it cannot read the calendar after 3 failed looks, and clears it on recovery', async () => {
    h = await videosHarness({ proxy: true, simulator: { profile } });
    const alice = await h.user('alice', { timeZone: 'Europe/Paris' });
    const videoId = await completedVideo(h, 'Launch teaser', { render: true });
    await apiOf(h).videos.update(videoId, { posts: { youtube: { title: 'Teaser' } } });
    await h.store.users.setLast(alice.user, 'video', videoId);
    const scheduled = await h.run('/reel schedule last youtube in 20 minutes', alice);
    expect(cardText(card(scheduled))).toContain('Scheduled');
    const live = h.chat.channelMessages.find((m) => m.card.title === 'Launch teaser');
    if (!live) throw new Error('no video card');

    h.proxy?.breakMatching((c) => c.method === 'GET' && c.path === '/calendar');
    const before = h.proxy?.calls.filter((c) => c.path === '/calendar').length ?? 0;
    await h.until(() => cardText(live.card).includes(CANT_READ), { stepMs: 15 * SECOND, maxMs: 90 * MINUTE });
    expect(
      (h.proxy?.calls.filter((c) => c.path === '/calendar').length ?? 0) - before,
    ).toBeGreaterThanOrEqual(3);

    h.proxy?.heal();
    await h.until(() => !cardText(live.card).includes(CANT_READ), {
      stepMs: 15 * SECOND,
      maxMs: 10 * MINUTE,
    });
    await h.until(() => /YouTube \(posted\)|Posted/.test(cardText(live.card)), {
      stepMs: 15 * SECOND,
      maxMs: 30 * MINUTE,
    });
  });
});
