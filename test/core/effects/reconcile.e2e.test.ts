/**
 * A remote write whose local commit fails: the service took the create, publish, schedule or
 * series generate, then the database refused to record it (disk full). The member is told the truth — it may
 * have gone through, pressing again will not charge twice — and the write is finished later, by pressing
 * again or by `reconcileEffects` (the start-up and periodic sweep): card posted, watch started, the service
 * charged or posted once. On both simulator profiles, through the real client and real SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EFFECT_RUNNERS } from '../../../src/core/commands/index.js';
import { reconcileEffects } from '../../../src/core/effects/reconcile.js';
import { EFFECT_GRACE_MS } from '../../../src/core/effects/remote-effect.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import type { Response } from '../../../src/core/text/cards.js';
import { type CommitFault, commitFaults } from '../../support/db-faults.js';
import { createHarness, DEMO_KEY, type Harness, textOf } from '../../support/harness.js';
import { apiOf, completedVideo } from '../publishing/helpers.js';

const SCRIPT = 'Octopuses have three hearts and blue blood, and one of them stops when they swim.';
const UNSAVED = /may have gone through: pressing again will not charge or post twice/;

let h: Harness;
let faults: CommitFault;
afterEach(() => h.close());

const spends = () => h.sim.sim.ledger(DEMO_KEY).filter((e) => e.credits < 0);
const buttonValue = (r: Response, action: string): string => {
  const card = r.kind === 'message' || r.kind === 'update' ? r.card : undefined;
  const control = card?.controls?.find((c) => c.kind === 'button' && c.action === action);
  if (control?.kind !== 'button') throw new Error(`no ${action} button in ${JSON.stringify(r)}`);
  return control.value;
};
const activeWatches = async (kind: string) => (await h.store.watches.active()).filter((w) => w.kind === kind);

/** Past the grace period, one sweep, then the outbox. */
async function sweep() {
  h.clock.advance(EFFECT_GRACE_MS + 1);
  const counts = await reconcileEffects(h.deps, EFFECT_RUNNERS);
  await h.flush();
  return counts;
}

describe.each(['spec', 'real'] as const)('a failed commit after a remote write (%s profile)', (profile) => {
  async function start() {
    h = await createHarness({ simulator: { profile } });
    faults = commitFaults(h, 'SQLITE_FULL');
  }

  async function confirmCreate() {
    const ask = await h.run(`create --name Octo ${SCRIPT}`);
    return buttonValue(ask, 'video.create.confirm');
  }

  it('create: says it may have gone through; the sweep posts the card and watch, charged once', async () => {
    await start();
    const value = await confirmCreate();
    faults.after('videos.create');
    const told = await h.click('video.create.confirm', value);
    expect(faults.failed).toBe(1);
    expect(textOf(told)).toMatch(UNSAVED);
    expect(textOf(told)).toContain('the new video “Octo”');
    expect(spends()).toHaveLength(1);
    expect(await h.store.effects.count()).toBe(1);
    expect(await activeWatches('generation')).toEqual([]);

    // Within the grace period nothing is replayed: the request could still be in flight.
    expect(await reconcileEffects(h.deps, EFFECT_RUNNERS)).toEqual({ finished: 0, dropped: 0, retrying: 0 });
    expect(await sweep()).toEqual({ finished: 1, dropped: 0, retrying: 0 });
    expect(await h.store.effects.count()).toBe(0);
    expect(spends()).toHaveLength(1);
    const [watch] = await activeWatches('generation');
    expect(watch).toBeDefined();
    expect(h.chat.channelMessages.some((m) => m.card.title.includes('Octo'))).toBe(true);
    // The request card itself moved on: pressing Create now answers "Creating…" and charges nothing.
    expect((await h.click('video.create.confirm', value)).kind).toBe('update');
    expect(spends()).toHaveLength(1);
    expect(
      (await h.store.audit.list({ workspacePrefix: 'playground:' })).filter(
        (e) => e.action === 'video.create',
      ),
    ).toHaveLength(1);
  });

  it('create: pressing again finishes it at once with the same key, charged once', async () => {
    await start();
    const value = await confirmCreate();
    faults.after('videos.create');
    expect(textOf(await h.click('video.create.confirm', value))).toMatch(UNSAVED);
    const again = await h.click('video.create.confirm', value);
    expect(textOf(again)).toContain('Charged 20 credits');
    expect(spends()).toHaveLength(1);
    expect(await h.store.effects.count()).toBe(0);
    expect(await activeWatches('generation')).toHaveLength(1);
    expect(await sweep()).toEqual({ finished: 0, dropped: 0, retrying: 0 });
  });

  it('publish: the sweep puts the one post on the video card', async () => {
    await start();
    const videoId = await completedVideo(h, 'Launch teaser', { render: true });
    const alice = await h.user('alice');
    await h.store.users.setLast(alice.user, 'video', videoId);
    faults.after('posts.publish');
    expect(textOf(await h.run('publish last youtube'))).toMatch(UNSAVED);
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
    expect(await h.store.cards.get(videoCardKey(videoId, h.conversation))).toBeUndefined();

    expect(await sweep()).toEqual({ finished: 1, dropped: 0, retrying: 0 });
    expect(h.sim.sim.publishedPosts()).toHaveLength(1);
    const card = h.chat.channelMessages.find((m) => m.card.title === 'Launch teaser');
    expect(card?.card.fields?.some((f) => f.label === 'Posted: youtube')).toBe(true);
    expect(await h.store.audit.list({ workspacePrefix: 'playground:', videoId })).toMatchObject([
      { action: 'video.publish' },
    ]);
  });

  it('schedule: the sweep watches the one scheduled post', async () => {
    await start();
    const videoId = await completedVideo(h, 'Launch teaser');
    await apiOf(h).videos.update(videoId, { posts: { youtube: { title: 'Teaser' } } });
    await h.store.users.setLast((await h.user('alice')).user, 'video', videoId);
    faults.after('posts.schedule');
    expect(textOf(await h.run('schedule last youtube tomorrow 9am'))).toMatch(UNSAVED);
    expect(await activeWatches('schedule')).toEqual([]);

    expect(await sweep()).toEqual({ finished: 1, dropped: 0, retrying: 0 });
    expect(await activeWatches('schedule')).toHaveLength(1);
    const calendar = await apiOf(h).posts.calendar({ startDate: '2026-11-23', endDate: '2026-11-30' });
    expect(calendar.filter((p) => p.projectId === videoId)).toHaveLength(1);
  });

  it('series generate: the sweep posts the episode card, charged once', async () => {
    await start();
    const created = await h.run('series create "Night Terrors" --source ai_story --time 21:00');
    const seriesCreated = await h.click(
      'series.create.confirm',
      buttonValue(created, 'series.create.confirm'),
    );
    expect(seriesCreated.kind).not.toBe('none');
    const ask = await h.run('series generate night');
    const before = spends().length;
    const watching = (await activeWatches('generation')).length;
    faults.after('series.generate');
    const told = await h.click('series.generate.confirm', buttonValue(ask, 'series.generate.confirm'));
    expect(textOf(told)).toMatch(UNSAVED);
    expect(spends()).toHaveLength(before + 1);
    expect(await activeWatches('generation')).toHaveLength(watching);

    expect(await sweep()).toEqual({ finished: 1, dropped: 0, retrying: 0 });
    expect(spends()).toHaveLength(before + 1);
    expect(await activeWatches('generation')).toHaveLength(watching + 1);
  });

  it('any other write whose commit fails says it may have gone through, never "nothing was half-done"', async () => {
    await start();
    const videoId = await completedVideo(h, 'Raw cut');
    faults.after('videos.render');
    const told = textOf(await h.click('video.render', videoId));
    expect(told).toContain('it may have gone through');
    expect(told).not.toContain('Nothing was half-done');
    // Pressing again: the same click key, so the service answers the same render; now recorded.
    expect(textOf(await h.click('video.render', videoId))).toContain('Rendering “Raw cut”');
    expect((await h.store.watches.active()).filter((w) => w.kind === 'render')).toHaveLength(1);
  });

  it('drops an effect its member can no longer run (key unlinked), and keeps one the database still refuses', async () => {
    await start();
    const value = await confirmCreate();
    faults.after('videos.create', 2);
    expect(textOf(await h.click('video.create.confirm', value))).toMatch(UNSAVED);
    // The database still refuses the commit at the first sweep: kept, tried again later.
    faults.after('videos.create', 1);
    expect(await sweep()).toEqual({ finished: 0, dropped: 0, retrying: 1 });
    expect(await h.store.effects.count()).toBe(1);
    faults.heal();
    await h.store.keys.delete((await h.user('alice')).user);
    expect(h.deps.deploymentKey).toBeUndefined();
    h.clock.advance(3_600_000);
    const withoutKey = await reconcileEffects(h.deps, EFFECT_RUNNERS);
    expect(withoutKey).toEqual({ finished: 0, dropped: 1, retrying: 0 });
    expect(await h.store.effects.count()).toBe(0);
    expect(spends()).toHaveLength(1);
  });
});
