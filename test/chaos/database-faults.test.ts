/**
 * Chaos: the disk fills up, or another process locks the database, in the middle of a member's flow.
 * Nothing is lost (every charged or posted write ends up on its card, with its watch), nothing is doubled (one
 * charge, one post, one card), and the member is told the truth at each step. A real database file, the real
 * client and the real simulator on both profiles; the faults are the driver's own errors (`SQLITE_FULL`) and a
 * real write lock held by a second connection.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EFFECT_RUNNERS } from '../../src/core/commands/index.js';
import { reconcileEffects } from '../../src/core/effects/reconcile.js';
import { EFFECT_GRACE_MS } from '../../src/core/effects/remote-effect.js';
import type { Response } from '../../src/core/text/cards.js';
import { completedVideo } from '../core/publishing/helpers.js';
import {
  afterCalls,
  commitFaults,
  holdWriteLock,
  measuringStalls,
  WallTestClock,
} from '../support/db-faults.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../support/harness.js';

const SCRIPT = 'Octopuses have three hearts and blue blood, and one of them stops when they swim.';
const MAY_HAVE = 'It may have gone through: pressing again will not charge or post twice';

let h: Harness;
let dir: string;
afterEach(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

async function harness(profile: 'spec' | 'real', clock?: WallTestClock) {
  dir = mkdtempSync(join(tmpdir(), 'reelbot-dbfaults-'));
  const path = join(dir, 'reelbot.sqlite');
  h = await createHarness({ simulator: { profile }, storePath: path, ...(clock ? { clock } : {}) });
  await h.user('alice');
  return path;
}

const confirmValue = (r: Response): string => {
  const card = r.kind === 'message' || r.kind === 'update' ? r.card : undefined;
  const control = card?.controls?.find((c) => c.kind === 'button' && c.action === 'video.create.confirm');
  if (control?.kind !== 'button') throw new Error(`no Create button in ${JSON.stringify(r)}`);
  return control.value;
};
const charges = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);
const cardsTitled = (title: string) => h.chat.channelMessages.filter((m) => m.card.title.includes(title));

describe.each(['spec', 'real'] as const)('database faults during a flow (%s profile)', (profile) => {
  it('disk full: the member hears the truth, the bot keeps running, and everything lands once when it clears', async () => {
    await harness(profile);
    const faults = commitFaults(h, 'SQLITE_FULL');
    const value = confirmValue(await h.run(`create --name Octo ${SCRIPT}`));
    // The disk fills right after the service took the create, and stays full for a while.
    faults.after('videos.create', Number.POSITIVE_INFINITY);
    expect(textOf(await h.click('video.create.confirm', value))).toContain(MAY_HAVE);
    // Meanwhile the poller, the sender and the sweep keep running and fail softly.
    await h.advance(EFFECT_GRACE_MS + 1);
    expect(await reconcileEffects(h.deps, EFFECT_RUNNERS)).toEqual({ finished: 0, dropped: 0, retrying: 1 });
    // Pressing again while still full: told the same, charged nothing more.
    expect(textOf(await h.click('video.create.confirm', value))).toContain(MAY_HAVE);
    expect(charges()).toHaveLength(1);

    faults.heal();
    await h.advance(10 * 60_000);
    await reconcileEffects(h.deps, EFFECT_RUNNERS);
    const generating = async () => (await h.store.watches.active()).filter((w) => w.kind === 'generation');
    expect(await generating()).toHaveLength(1);
    await h.until(async () => (await generating()).length === 0, { stepMs: 15_000, maxMs: 30 * 60_000 });
    expect(await h.store.effects.count()).toBe(0);
    expect(charges()).toHaveLength(1);
    expect(cardsTitled('Octo')).toHaveLength(1);
    // It followed the generation to its end: generated, thumbnails offered.
    expect(cardsTitled('Octo')[0]?.card.text).toMatch(/^Generated\./);
    expect(await h.store.outbox.depth()).toBe(0);
  }, 60_000);

  it('disk full at a publish: told the truth each time, posted once, on the card once it clears', async () => {
    await harness(profile);
    const faults = commitFaults(h, 'SQLITE_FULL');
    const videoId = await completedVideo(h, 'Launch teaser', { render: true });
    await h.store.users.setLast((await h.user('alice')).user, 'video', videoId);
    faults.after('posts.publish', Number.POSITIVE_INFINITY);
    expect(textOf(await h.run('publish last youtube'))).toContain(MAY_HAVE);
    // Typed again: the service took the first one, so the honest replay says it went through.
    expect(textOf(await h.run('publish last youtube'))).toMatch(/Already published at .* — Publish again\?/);
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
    faults.heal();
    await h.advance(EFFECT_GRACE_MS + 1);
    expect(await reconcileEffects(h.deps, EFFECT_RUNNERS)).toEqual({ finished: 1, dropped: 0, retrying: 0 });
    await h.flush();
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
    const cards = cardsTitled('Launch teaser');
    expect(cards).toHaveLength(1);
    expect(cards[0]?.card.fields?.filter((f) => f.label === 'Posted: youtube')).toHaveLength(1);
  }, 60_000);

  it('locked database: a create waits for the lock without freezing the bot, and a commit refused mid-flow is finished once', async () => {
    const path = await harness(profile, new WallTestClock());
    // Locked before the click: the dispatcher retries after asynchronous pauses and the loop stays free.
    const value = confirmValue(await h.run(`create --name Octo ${SCRIPT}`));
    const released = holdWriteLock(path, 1_200);
    const { result, maxStallMs } = await measuringStalls(() => h.click('video.create.confirm', value));
    await released;
    expect(maxStallMs).toBeLessThan(250);
    expect(textOf(result)).toContain('Charged 20 credits');
    expect(charges()).toHaveLength(1);

    // Locked right after the service took a second create: the commit is refused (SQLITE_BUSY), the member
    // hears the truth, and the sweep finishes it after the lock is gone.
    const second = confirmValue(await h.run(`create --name Squid ${SCRIPT}`));
    let lock: Promise<void> | undefined;
    afterCalls(h, (method) => {
      if (method === 'videos.create' && !lock) lock = holdWriteLock(path, 3_000);
    });
    const told = await measuringStalls(() => h.click('video.create.confirm', second));
    expect(told.maxStallMs).toBeLessThan(250);
    expect(textOf(told.result)).toContain(MAY_HAVE);
    await lock;
    h.clock.advance(EFFECT_GRACE_MS + 1);
    expect(await reconcileEffects(h.deps, EFFECT_RUNNERS)).toEqual({ finished: 1, dropped: 0, retrying: 0 });
    await h.flush();
    expect(charges()).toHaveLength(2);
    expect(cardsTitled('Squid')).toHaveLength(1);
    expect((await h.store.watches.active()).filter((w) => w.kind === 'generation')).toHaveLength(2);
  }, 30_000);
});
