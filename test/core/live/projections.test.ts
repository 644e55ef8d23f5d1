/** The living card's edges, on a real in-memory SQLite store: what the e2e suites would not catch. */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { showOnVideoCard } from '../../../src/core/approvals/effects.js';
import type { ApprovalCardModel } from '../../../src/core/approvals/model.js';
import { videoCardKey } from '../../../src/core/live/live-card.js';
import {
  MAX_PROJECTIONS,
  projectionsOf,
  showVideo,
  updateVideoCard,
  videoOfCardKey,
  videoState,
} from '../../../src/core/live/projections.js';
import type { Approval } from '../../../src/core/ports/index.js';
import { forgetWorkspace } from '../../../src/core/workspace/forget-workspace.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite-store.js';
import { TestClock } from '../../support/test-clock.js';

const T0 = Date.UTC(2026, 10, 26, 9);
let clock: TestClock;
let store: SqliteStore;
beforeEach(() => {
  clock = new TestClock(T0);
  store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
});
afterEach(() => store.close());

const model = (videoId: string, name = videoId) => ({ videoId, name, phase: 'completed' as const });
/** Each card is shown a millisecond after the one before. */
const shownAt = () => {
  const at = clock.now();
  clock.advance(1);
  return at;
};
const show = async (videoId: string, conversation: string) =>
  await store.transaction(() => showVideo(store, { model: model(videoId), conversation, now: shownAt() }));
const edits = async (key: string) =>
  (await store.outbox.ready('slack', clock.now() + 1, 1000)).filter(
    (i) => 'cardKey' in i.item && i.item.cardKey === key,
  );

describe('projections', () => {
  it('brings back a card that stopped following with an edit, even when nothing else changed', async () => {
    const slack = 'slack:T1:C1';
    const key = videoCardKey('v1', slack);
    await show('v1', slack);
    await store.cards.setMessage(key, `${slack}:111.1`);
    for (let n = 1; n <= MAX_PROJECTIONS; n++) await show('v1', `discord:G1:${n}`);
    expect((await projectionsOf(store, 'v1')).map((p) => p.conversation)).not.toContain(slack);
    expect((await store.cards.get(key))?.card.text).toContain('stopped following');
    const before = (await edits(key)).length;

    await show('v1', slack);
    expect((await projectionsOf(store, 'v1')).map((p) => p.conversation)).toContain(slack);
    expect((await store.cards.get(key))?.card.text).not.toContain('stopped following');
    expect((await edits(key)).length).toBe(before + 1);
  });

  it('keeps videos apart when an id holds an @', async () => {
    await show('x', 'slack:T1:C1');
    await show('x@y', 'slack:T1:C2');
    await show('x@y', 'discord:@me:7');
    expect((await projectionsOf(store, 'x')).map((p) => p.conversation)).toEqual(['slack:T1:C1']);
    expect((await projectionsOf(store, 'x@y')).map((p) => p.conversation)).toEqual([
      'slack:T1:C2',
      'discord:@me:7',
    ]);
    expect(videoOfCardKey(videoCardKey('x@y', 'discord:@me:7'))).toBe('x@y');
    await store.transaction(() =>
      updateVideoCard(store, 'x', { patch: { name: 'renamed' }, dedupeKey: 'r' }),
    );
    expect((await store.cards.get(videoCardKey('x@y', 'slack:T1:C2')))?.card.title).toBe('x@y');
  });

  it('shows the newest approval request: a later change to an older one does not replace it', async () => {
    await show('v1', 'slack:T1:C1');
    const approval = (id: string): Approval =>
      ({ id, action: { command: 'schedule', args: { videoId: 'v1' } } }) as unknown as Approval;
    const card = (status: ApprovalCardModel['status'], requestedAt: number) =>
      ({ summary: 'Schedule “v1”', status, requestedAt }) as ApprovalCardModel;
    const said = async (id: string, m: ApprovalCardModel) =>
      await store.transaction(() =>
        showOnVideoCard(store, approval(id), { model: m, dedupeKey: `${id}:${m.status}` }),
      );
    await said('old', card('pending', T0));
    await said('new', card('pending', T0 + 60_000));
    await said('old', card('expired', T0));
    expect((await videoState(store, 'v1'))?.approval).toMatchObject({ id: 'new', status: 'pending' });
    expect((await store.cards.get(videoCardKey('v1', 'slack:T1:C1')))?.card.text).toContain(
      '⏳ Waiting for approval',
    );
    await said('new', card('approved', T0 + 60_000));
    expect((await videoState(store, 'v1'))?.approval).toMatchObject({ id: 'new', status: 'approved' });
  });

  it('a workspace that removes the bot leaves the cards elsewhere saying how to follow the video again', async () => {
    const watch = async (videoId: string, conversation: string) =>
      await store.watches.add({
        kind: 'generation',
        target: videoId,
        owner: 'slack:T1:U1',
        conversation,
        cardKey: videoCardKey(videoId, conversation),
        state: { name: videoId, samples: [], lastStep: -1, phase: 'generating' },
        nextCheckAt: clock.now(),
        expiresAt: clock.now() + 3_600_000,
      });
    await show('shared', 'slack:T1:C1');
    await show('shared', 'discord:G1:5');
    await show('private', 'slack:T1:C1');
    await watch('shared', 'slack:T1:C1');
    await watch('private', 'slack:T1:C1');

    const counts = await forgetWorkspace(store, {
      workspaces: ['slack:T1'],
      installations: [],
      now: clock.now(),
    });
    expect(await store.watches.active()).toEqual([]);
    expect(counts.cardStates).toBe(1);
    const discord = await store.cards.get(videoCardKey('shared', 'discord:G1:5'));
    expect(discord?.card.text).toContain('Stopped: the key that watched this was unlinked');
    expect(await store.outbox.depth('discord')).toBeGreaterThan(0);
    expect(await videoState(store, 'private')).toBeUndefined();
  });
});
