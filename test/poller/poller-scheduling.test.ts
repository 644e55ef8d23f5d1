/** Which watches a poller pass picks, and when each is looked at next. */
import { describe, expect, it } from 'vitest';
import type { Watch } from '../../src/core/ports/index.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import {
  addWatch,
  apiError,
  clock,
  fakeWatcher,
  HOUR,
  LATEST,
  onEachStore,
  poller,
  store,
} from './poller-world.js';
import { ALICE, processing, scriptedApi, T0 } from './support.js';

onEachStore(() => {
  describe('Poller: picking due watches', () => {
    it('checks due watches soonest first and leaves the others alone', async () => {
      const { watcher, checked } = fakeWatcher();
      await addWatch({ target: 'late', nextCheckAt: T0 - 1_000 });
      await addWatch({ target: 'early', nextCheckAt: T0 - 5_000 });
      await addWatch({ target: 'future', nextCheckAt: T0 + 5_000 });
      await addWatch({ target: 'middle', nextCheckAt: T0 - 3_000 });
      await poller({ watchers: { generation: watcher }, concurrency: 1 }).tick();
      expect(checked.map((w) => w.target)).toEqual(['early', 'middle', 'late']);
    });

    it('reports the lag between when a watch was due and when it was picked up', async () => {
      const { watcher } = fakeWatcher();
      await addWatch({ nextCheckAt: T0 - 3_000 });
      const lags: number[] = [];
      await poller({
        watchers: { generation: watcher },
        metrics: { lag: (_kind, ms) => lags.push(ms), checked: () => {} },
      }).tick();
      expect(lags).toEqual([3_000]);
    });

    it('calls the API on the background lane, whatever the watcher passes', async () => {
      const { api, calls } = scriptedApi((id) => processing(id, 20));
      await addWatch();
      await poller({ watchers: { generation: progressWatcher() }, apiFor: () => api }).tick();
      expect(calls).toEqual([
        {
          method: 'videos.status',
          args: ['v1'],
          options: { priority: 'background', signal: expect.any(AbortSignal) },
        },
      ]);
    });

    it('resolves the client for the watch owner ("" = the deployment key)', async () => {
      const owners: string[] = [];
      const { api } = scriptedApi((id) => processing(id, 20));
      await addWatch({ owner: '' });
      await addWatch({ owner: ALICE, target: 'v2' });
      await poller({
        watchers: { generation: progressWatcher() },
        apiFor: (owner) => {
          owners.push(owner);
          return api;
        },
      }).tick();
      expect(owners.sort()).toEqual(['', ALICE]);
    });
  });

  describe('Poller: intervals', () => {
    it.each([
      ['a too-eager request is raised to the minimum', 1, 10_000],
      ['a too-lazy request is lowered to the latest look', HOUR, LATEST],
      ['a request within bounds is kept', 17_000, 17_000],
      ['no request means the latest look', undefined, LATEST],
    ])('%s', async (_name, requested, expected) => {
      const { watcher } = fakeWatcher((w) => ({
        state: w.state,
        done: false,
        ...(requested === undefined ? {} : { nextCheckInMs: requested }),
      }));
      const watch = await addWatch();
      // A draw of 0 adds no jitter to a requested interval (jitter only ever delays it).
      await poller({ watchers: { generation: watcher }, random: () => 0 }).tick();
      expect((await store.watches.get(watch.id))?.nextCheckAt).toBe(T0 + expected);
    });

    it('caps the jitter at 5 s: a look aimed ten minutes ahead stays near its moment', async () => {
      const { watcher } = fakeWatcher((w) => ({ state: w.state, done: false, nextCheckInMs: 10 * 60_000 }));
      const watch = await addWatch();
      await poller({
        watchers: { generation: { ...watcher, maxIntervalMs: HOUR } },
        random: () => 0.999,
      }).tick();
      const interval = (await store.watches.get(watch.id))!.nextCheckAt - T0;
      expect(interval).toBeGreaterThan(10 * 60_000 + 4_900);
      expect(interval).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    });

    it('adds up to +10 % jitter, never earlier than requested, and never leaves the bounds', async () => {
      const requests = [1, 12_000, 20_000, 29_000, HOUR];
      for (const random of [0, 0.25, 0.75, 0.999]) {
        for (const requested of requests) {
          const { watcher } = fakeWatcher((w) => ({ state: w.state, done: false, nextCheckInMs: requested }));
          const watch = await addWatch({ target: `${random}:${requested}`, nextCheckAt: clock.now() });
          await poller({ watchers: { generation: watcher }, random: () => random }).tick();
          const interval = (await store.watches.get(watch.id))!.nextCheckAt - clock.now();
          const base = Math.min(LATEST, Math.max(10_000, requested));
          // The requested interval is the earliest useful moment (e.g. just after an expected finish).
          expect(interval).toBeGreaterThanOrEqual(base);
          expect(interval).toBeLessThanOrEqual(Math.min(LATEST, base * 1.1 + 1));
          clock.advance(HOUR); // later passes must not pick this one up with the others
          await store.watches.update(watch.id, { status: 'done' });
        }
      }
      // The spread is real: a mid-range request lands on different instants for different draws.
      const spread = new Set<number>();
      for (const random of [0, 0.5, 0.999]) {
        const { watcher } = fakeWatcher((w) => ({ state: w.state, done: false, nextCheckInMs: 20_000 }));
        const watch = await addWatch({ target: `spread:${random}`, nextCheckAt: clock.now() });
        await poller({ watchers: { generation: watcher }, random: () => random }).tick();
        spread.add((await store.watches.get(watch.id))!.nextCheckAt - clock.now());
        await store.watches.update(watch.id, { status: 'done' });
      }
      expect(spread.size).toBe(3);
    });

    describe('in the service time of a faster service (the demo simulator)', () => {
      /** The demo's default speed: the embedded simulator's jobs run 20 times faster than the wall clock. */
      const SPEED = 20;
      it.each([
        ['a too-eager request is raised to the minimum (10 s of its time)', 1, 500],
        ['a too-lazy request is lowered to the cap (30 s of its time, less the pass)', HOUR, 1_400],
        ['a request within bounds is kept', 17_000 / SPEED, 850],
      ])('a job watch: %s', async (_name, requested, expected) => {
        const { watcher } = fakeWatcher((w) => ({ state: w.state, done: false, nextCheckInMs: requested }));
        const watch = await addWatch();
        const p = poller({
          watchers: { generation: { ...watcher, jobTime: true } },
          serviceSpeed: SPEED,
          random: () => 0,
        });
        await p.tick();
        expect((await store.watches.get(watch.id))?.nextCheckAt).toBe(T0 + expected);
      });

      it('a job watch backs off within its bounds in the service time', async () => {
        const { watcher } = fakeWatcher(() => {
          throw apiError('internal_error', { status: 500 });
        });
        const watch = await addWatch();
        const p = poller({ watchers: { generation: { ...watcher, jobTime: true } }, serviceSpeed: SPEED });
        const waits: number[] = [];
        for (let i = 0; i < 3; i++) {
          await p.tick();
          const next = (await store.watches.get(watch.id))!.nextCheckAt;
          waits.push(next - clock.now());
          clock.set(next);
        }
        expect(waits).toEqual([500, 1_000, 1_400]);
      });

      it('a wall-clock watch (a calendar) keeps its own bounds, whatever the service speed', async () => {
        const { watcher } = fakeWatcher((w) => ({ state: w.state, done: false, nextCheckInMs: 1 }));
        const watch = await addWatch();
        await poller({ watchers: { generation: watcher }, serviceSpeed: SPEED, random: () => 0 }).tick();
        expect((await store.watches.get(watch.id))?.nextCheckAt).toBe(T0 + 10_000);
      });
    });

    it('asks the budget as a deferrable look only when the watcher says the look can wait', async () => {
      const asked: { kind: string; deferrable: boolean }[] = [];
      const { watcher } = fakeWatcher();
      const waiting = { ...watcher, deferrable: (w: Watch) => w.state.phase === 'thumbnails' };
      await addWatch({ target: 'running', state: { phase: 'generating' } });
      await addWatch({ target: 'finished', state: { phase: 'thumbnails' } });
      await poller({
        watchers: { generation: waiting },
        budgetDelay: (_owner, kind, o) => {
          asked.push({ kind, deferrable: o.deferrable });
          return 0;
        },
      }).tick();
      expect(asked.map((a) => a.deferrable).sort()).toEqual([false, true]);
    });

    it('defers a check the background budget cannot afford, without calling the watcher', async () => {
      const { watcher, checked } = fakeWatcher();
      const watch = await addWatch();
      const outcomes: string[] = [];
      await poller({
        watchers: { generation: watcher },
        budgetDelay: (owner, kind) => (owner === ALICE && kind === 'generation' ? 4_000 : 0),
        random: () => 0,
        metrics: { lag: () => {}, checked: (_k, outcome) => outcomes.push(outcome) },
      }).tick();
      expect(checked).toEqual([]);
      expect((await store.watches.get(watch.id))?.nextCheckAt).toBe(T0 + 4_000);
      expect(outcomes).toEqual(['deferred']);
    });
  });
});
