/**
 * Honest replays, end to end on both simulator profiles: the real core and client, the simulator
 * over HTTP behind a recording proxy (which sees each request's Idempotency-Key), virtual time only.
 * - `publish` typed again within 10 minutes still sends nothing twice, but says so: "Already published at
 *   09:00 (same command, 3 minutes ago) — Publish again?", the time in the caller's zone.
 * - Its "Publish again" button is a deliberate second publish, with a new idempotency key (a second click of
 *   that button is still one publish); it runs as the clicker, re-authorised with the clicker's key.
 * - After the window the command is a new publish, as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { TYPED_AGAIN_ACTION } from '../../../src/core/dispatch/typed-replay.js';
import type { Response } from '../../../src/core/text/cards.js';
import { createHarness, type Harness, textOf } from '../../support/harness.js';
import { cardOf, completedVideo, MINUTE } from '../publishing/helpers.js';

let h: Harness;
afterEach(() => h?.close());

/** The publishes the simulator received (POST /posts), with their keys. */
const publishRequests = () =>
  (h.proxy?.calls ?? [])
    .filter((c) => c.method === 'POST' && c.path === '/posts')
    .map((c) => c.idempotencyKey);

function againButton(r: Response): { label: string; value: string } {
  const b = cardOf(r).controls?.find((c) => c.kind === 'button' && c.action === TYPED_AGAIN_ACTION);
  if (b?.kind !== 'button')
    throw new Error(`no ${TYPED_AGAIN_ACTION} button in ${JSON.stringify(r).slice(0, 300)}`);
  return b;
}

describe.each(['spec', 'real'] as const)(
  'a typed publish repeated within 10 minutes (%s profile)',
  (profile) => {
    let alice: RequestInfo;
    let videoId: string;

    async function start() {
      h = await createHarness({ simulator: { profile }, proxy: true });
      alice = await h.user('alice', { timeZone: 'Europe/Paris' });
      videoId = await completedVideo(h, 'Launch teaser', { render: true });
      // 09:00 UTC = 10:00 in Paris (the set-up moved the clock while the video rendered).
      h.clock.advance(Date.parse('2026-11-23T08:00:00Z') + 60 * MINUTE - h.clock.now());
    }

    it('says it was already published, and "Publish again" publishes a second time with a new key', async () => {
      await start();
      const first = await h.run(`publish ${videoId} tiktok`, alice);
      expect(cardOf(first).title).toBe('Published to TikTok');
      expect(h.sim.sim.publishedPosts()).toHaveLength(1);

      h.clock.advance(3 * MINUTE);
      const repeated = await h.run(`publish ${videoId} tiktok`, alice);
      expect(textOf(repeated)).toContain(
        'Already published at 10:00 (same command, 3 minutes ago) — Publish again?',
      );
      expect(repeated.kind === 'message' && repeated.visibility).toBe('ephemeral');
      expect(h.sim.sim.publishedPosts()).toHaveLength(1);
      const button = againButton(repeated);
      expect(button.label).toBe('Publish again');

      const again = await h.click(TYPED_AGAIN_ACTION, button.value, alice);
      // The question is answered in place, without its button (one-shot.ts).
      expect(again.kind).toBe('update');
      expect(cardOf(again).title).toBe('Published to TikTok');
      expect(cardOf(again).controls?.filter((c) => c.kind !== 'link') ?? []).toEqual([]);
      expect(h.sim.sim.publishedPosts()).toHaveLength(2);
      const keys = publishRequests();
      expect(keys).toHaveLength(2);
      expect(keys[0]).toBeDefined();
      expect(keys[1]).toBeDefined();
      expect(keys[1]).not.toBe(keys[0]);

      // A second click on the same button (a stale copy) says who did it and when, in their zone; nothing is sent.
      const late = await h.click(TYPED_AGAIN_ACTION, button.value, alice);
      expect(late.kind === 'message' && late.visibility).toBe('ephemeral');
      expect(textOf(late)).toContain('at 10:03: Published to TikTok. This card no longer acts.');
      expect(h.sim.sim.publishedPosts()).toHaveLength(2);
      expect(publishRequests()).toHaveLength(2);
    });

    it('after 10 minutes the same command is a new publish, as before', async () => {
      await start();
      await h.run(`publish ${videoId} tiktok`, alice);
      h.clock.advance(10 * MINUTE);
      const later = await h.run(`publish ${videoId} tiktok`, alice);
      expect(cardOf(later).title).toBe('Published to TikTok');
      expect(textOf(later)).not.toContain('Already');
      expect(h.sim.sim.publishedPosts()).toHaveLength(2);
      const keys = publishRequests();
      expect(new Set(keys).size).toBe(2);
    });

    it('a retry of a publish that did not go through is still a silent retry (nothing to be honest about)', async () => {
      await start();
      h.sim.sim.setKnobs({ serverErrorRate: 1 });
      const failed = await h.run(`publish ${videoId} tiktok`, alice);
      expect(cardOf(failed).title).not.toBe('Published to TikTok');
      h.sim.sim.setKnobs({ serverErrorRate: 0 });
      h.clock.advance(2 * MINUTE);
      const retry = await h.run(`publish ${videoId} tiktok`, alice);
      expect(cardOf(retry).title).toBe('Published to TikTok');
      expect(h.sim.sim.publishedPosts()).toHaveLength(1);
      // Every attempt, the failed ones and the retry, carried the one key of the action.
      expect(new Set(publishRequests()).size).toBe(1);
    });

    it('re-authorises the click with the clicker: a member without a key is told to link one', async () => {
      await start();
      await h.run(`publish ${videoId} tiktok`, alice);
      h.clock.advance(MINUTE);
      const button = againButton(await h.run(`publish ${videoId} tiktok`, alice));
      const stranger = await h.user('stranger', { key: null });
      const refused = await h.click(TYPED_AGAIN_ACTION, button.value, stranger);
      expect(textOf(refused)).toMatch(/link/i);
      expect(h.sim.sim.publishedPosts()).toHaveLength(1);
      expect(publishRequests()).toHaveLength(1);
    });
  },
);
