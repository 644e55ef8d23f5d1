import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postCard, videoCardKey } from '../../src/core/live/live-card.js';
import type { LookTrouble, StopReason, Watcher, WatchResult } from '../../src/core/live/watcher.js';
import type { NewWatch, Watch, WatchKind } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { type VideoApi, VideoApiError } from '../../src/core/video-api/video-api.js';
import { POLLER_STATE_KEY } from '../../src/poller/failure-state.js';
import { Poller, type PollerOptions } from '../../src/poller/poller.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { Notifier } from '../support/latch.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import {
  ALICE,
  CONV,
  completed,
  deferred,
  flush,
  ManualClock,
  processing,
  recordingLogger,
  STORES,
  scriptedApi,
  T0,
} from './support.js';

const HOUR = 3600_000;
/** The fake watcher's longest interval (30 s) less the pass period the poller keeps in hand (1 s). */
const LATEST = 29_000;

let clock: ManualClock;
let store: SqliteStore;
let opened: ReturnType<(typeof STORES)[number]['open']>;
let logger: ReturnType<typeof recordingLogger>;

async function addWatch(patch: Partial<NewWatch> = {}): Promise<Watch> {
  return await store.watches.add({
    kind: 'generation',
    target: 'v1',
    owner: ALICE,
    conversation: CONV,
    cardKey: null,
    state: {},
    nextCheckAt: clock.now(),
    expiresAt: clock.now() + 24 * HOUR,
    ...patch,
  });
}

/** A watcher whose check the test scripts; records every check it was asked for. */
function fakeWatcher(
  check: (watch: Watch) => WatchResult | Promise<WatchResult> = (watch) => ({
    state: watch.state,
    done: false,
  }),
  bounds: { min?: number; max?: number; kind?: WatchKind } = {},
) {
  const checked: Watch[] = [];
  const expired: Watch[] = [];
  const reasons: StopReason[] = [];
  const troubles: LookTrouble[] = [];
  const watcher = {
    kind: bounds.kind ?? 'generation',
    minIntervalMs: bounds.min ?? 10_000,
    maxIntervalMs: bounds.max ?? 30_000,
    async check(_ctx, watch) {
      checked.push(watch);
      return check(watch);
    },
    async expire({ watch, reason }) {
      expired.push(watch);
      reasons.push(reason);
    },
    async trouble({ event }) {
      troubles.push(event);
    },
  } satisfies Watcher;
  return { watcher, checked, expired, reasons, troubles };
}

function poller(options: Partial<PollerOptions> & Pick<PollerOptions, 'watchers'>): Poller {
  const { api } = scriptedApi((id) => processing(id, 10));
  return new Poller({
    store,
    apiFor: () => api,
    clock,
    logger,
    concurrency: 4,
    random: () => 0.5, // no jitter unless a test asks for it
    ...options,
  });
}

const apiError = (type: string, details: VideoApiError['details'] = {}) =>
  new VideoApiError(type, `${type} from the service`, details);

describe.each(STORES)('on the $name store', (fixture) => {
  beforeEach(() => {
    clock = new ManualClock();
    opened = fixture.open(clock);
    store = opened.store;
    logger = recordingLogger();
  });
  afterEach(async () => await opened.close());

  describe('Poller: many checks at once', () => {
    it('64 checks in flight listen to its one stop signal without a listener-leak warning', async () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let inFlight = 0;
      const started = new Notifier();
      // Like the real client: the transport and the rate budget each listen to the call's signal.
      const { api } = scriptedApi(async (id, options) => {
        const noop = () => {};
        options?.signal?.addEventListener('abort', noop);
        options?.signal?.addEventListener('abort', noop);
        inFlight++;
        started.notify();
        await gate;
        options?.signal?.removeEventListener('abort', noop);
        options?.signal?.removeEventListener('abort', noop);
        return processing(id, 10);
      });
      for (let i = 0; i < 64; i++) await addWatch({ target: `v${i}` });
      const p = poller({
        watchers: { generation: progressWatcher() },
        apiFor: () => api,
        concurrency: 64,
        perOwnerConcurrency: 64,
      });
      const pass = p.tick();
      await started.until(() => inFlight >= 64);
      expect(inFlight).toBe(64);
      release();
      await pass;
      await new Promise((r) => setImmediate(r));
      process.off('warning', onWarning);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    });
  });

  describe('Poller: one owner at a time', () => {
    it("runs at most perOwnerConcurrency of one owner's checks at once, others alongside, all in one pass", async () => {
      const running = new Map<string, number>();
      const peak = new Map<string, number>();
      const { watcher, checked } = fakeWatcher(async (w) => {
        const n = (running.get(w.owner) ?? 0) + 1;
        running.set(w.owner, n);
        peak.set(w.owner, Math.max(peak.get(w.owner) ?? 0, n));
        await new Promise((r) => setImmediate(r)); // checks started in one turn overlap
        running.set(w.owner, (running.get(w.owner) ?? 1) - 1);
        return { state: w.state, done: false };
      });
      for (let i = 0; i < 10; i++) await addWatch({ target: `a${i}`, owner: ALICE });
      for (let i = 0; i < 3; i++) await addWatch({ target: `b${i}`, owner: 'slack:T1:UBOB' });
      await poller({ watchers: { generation: watcher }, concurrency: 16, perOwnerConcurrency: 2 }).tick();
      expect(checked).toHaveLength(13);
      expect(peak.get(ALICE)).toBe(2);
      expect(peak.get('slack:T1:UBOB')).toBe(2);
      // Bob's checks ran in the first batch, not after Alice's backlog.
      expect(checked.slice(0, 4).map((w) => w.owner)).toContain('slack:T1:UBOB');
    });
  });

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

    describe('in the service time of a faster service (the demo simulator, issue 27)', () => {
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
          clock.current = next;
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

  describe('Poller: results', () => {
    it('commits the new state, the effects and the next check in one transaction', async () => {
      const key = videoCardKey('v1', CONV);
      await postCard(store, { key, conversation: CONV, card: { title: md`Video v1` } });
      const { api } = scriptedApi((id) => processing(id, 40));
      const watch = await addWatch({ cardKey: key });
      let commits = 0;
      await poller({
        watchers: { generation: progressWatcher() },
        apiFor: () => api,
        onCommit: () => commits++,
      }).tick();
      const after = (await store.watches.get(watch.id))!;
      expect(after.state).toEqual({ checks: 1, percent: 40 });
      expect(after.status).toBe('active');
      expect((await store.cards.get(key))?.card.progress).toEqual({ percent: 40 });
      expect(await store.outbox.depth('slack')).toBe(2); // the post and the progress edit
      expect(commits).toBe(1);
    });

    it('a failing apply rolls back its effects and the watch is retried later', async () => {
      const key = videoCardKey('v1', CONV);
      await postCard(store, { key, conversation: CONV, card: { title: md`Video v1` } });
      const { watcher } = fakeWatcher((w) => ({
        state: { ...w.state, seen: true },
        done: true,
        async apply(s) {
          await s.outbox.enqueue('slack', { op: 'update-card', cardKey: key }, 'half-done');
          throw new Error('bug in apply');
        },
      }));
      const watch = await addWatch({ cardKey: key });
      await poller({ watchers: { generation: watcher } }).tick();
      const after = (await store.watches.get(watch.id))!;
      expect(after.status).toBe('active');
      expect(after.state.seen).toBeUndefined();
      expect(after.nextCheckAt).toBe(T0 + 10_000);
      expect(await store.outbox.depth()).toBe(1); // only the post from before
    });

    it('marks a finished watch done and never checks it again', async () => {
      const { api } = scriptedApi((id) => completed(id));
      const { watcher, checked } = fakeWatcher((w) => ({ state: w.state, done: true }));
      const watch = await addWatch();
      const p = poller({ watchers: { generation: watcher }, apiFor: () => api });
      await p.tick();
      clock.advance(HOUR);
      await p.tick();
      expect(checked).toHaveLength(1);
      expect((await store.watches.get(watch.id))?.status).toBe('done');
    });

    it('drops the result of a watch closed while it was being checked (cancelled)', async () => {
      const gate = deferred();
      const applied: string[] = [];
      const { watcher } = fakeWatcher(async (w) => {
        await gate.promise;
        return { state: w.state, done: false, apply: async () => void applied.push(w.id) };
      });
      const watch = await addWatch();
      const pass = poller({ watchers: { generation: watcher } }).tick();
      await flush();
      await store.watches.update(watch.id, { status: 'done' });
      gate.resolve();
      await pass;
      expect(applied).toEqual([]);
      expect((await store.watches.get(watch.id))?.status).toBe('done');
    });

    it('hides its own bookkeeping from watchers and clears it after a good check', async () => {
      let fail = true;
      const { watcher, checked } = fakeWatcher((w) => {
        if (fail) throw apiError('internal_error', { status: 500 });
        return { state: { ...w.state, ok: true }, done: false };
      });
      const watch = await addWatch({ state: { mine: 1 } });
      const p = poller({ watchers: { generation: watcher } });
      await p.tick();
      expect((await store.watches.get(watch.id))?.state[POLLER_STATE_KEY]).toEqual({
        failures: 1,
        permanent: 0,
        streak: 1,
        since: T0,
      });
      fail = false;
      clock.advance(HOUR);
      await p.tick();
      expect(checked.map((w) => w.state)).toEqual([{ mine: 1 }, { mine: 1 }]);
      expect((await store.watches.get(watch.id))?.state).toEqual({ mine: 1, ok: true });
    });
  });

  describe('Poller: expiry', () => {
    it('says so once, through the watcher, and closes the watch', async () => {
      const key = videoCardKey('v1', CONV);
      await postCard(store, { key, conversation: CONV, card: { title: md`Video v1` } });
      const { api, calls } = scriptedApi((id) => processing(id, 10));
      const watch = await addWatch({ cardKey: key, expiresAt: T0 - 1 });
      const p = poller({ watchers: { generation: progressWatcher() }, apiFor: () => api });
      await p.tick();
      await store.watches.update(watch.id, { status: 'active', nextCheckAt: clock.now() }); // as if picked up again
      await p.tick();
      expect(calls).toEqual([]); // an expired watch is not polled
      expect((await store.watches.get(watch.id))?.status).toBe('expired');
      const ready = (await store.outbox.ready('slack', clock.now(), 10)).map((item) => item.item.op);
      expect(ready).toEqual(['post-card', 'reply']); // one expiry reply despite two passes
    });

    it('closes the watch even when the expiry message itself fails', async () => {
      const watch = await addWatch({ expiresAt: T0 - 1 });
      const broken = {
        ...fakeWatcher().watcher,
        expire: async () => {
          throw new Error('bug in expire');
        },
      } satisfies Watcher;
      await poller({ watchers: { generation: broken } }).tick();
      expect((await store.watches.get(watch.id))?.status).toBe('expired');
      expect(logger.lines.some((l) => l.level === 'error' && l.obj.watchId === watch.id)).toBe(true);
    });
  });

  describe('Poller: failures', () => {
    it('waits for Retry-After on rate_limited, without counting it toward backoff or giving up', async () => {
      const { watcher } = fakeWatcher(() => {
        throw apiError('rate_limited', { status: 429, retryAfter: 120 });
      });
      const watch = await addWatch();
      await poller({ watchers: { generation: watcher } }).tick();
      const after = (await store.watches.get(watch.id))!;
      expect(after.nextCheckAt).toBe(T0 + 120_000);
      // Only the streak of failed looks counts it (what the card says), not the backoff.
      expect(after.state[POLLER_STATE_KEY]).toEqual({ failures: 0, permanent: 0, streak: 1, since: T0 });
    });

    it('never checks sooner than the minimum even when Retry-After is shorter', async () => {
      const { watcher } = fakeWatcher(() => {
        throw apiError('rate_limited', { status: 429, retryAfter: 1 });
      });
      const watch = await addWatch();
      await poller({ watchers: { generation: watcher } }).tick();
      expect((await store.watches.get(watch.id))?.nextCheckAt).toBe(T0 + 10_000);
    });

    it('tells the watcher once after 3 failed looks of any kind, and once on the next good look', async () => {
      const script = [
        'rate_limited',
        'internal_error',
        'invalid_response',
        'timeout',
        'ok',
        'internal_error',
      ];
      const { watcher, troubles } = fakeWatcher((w) => {
        const next = script.shift();
        if (next && next !== 'ok') throw apiError(next, { status: 500 });
        return { state: w.state, done: false };
      });
      const watch = await addWatch();
      const p = poller({ watchers: { generation: watcher } });
      const kinds = () => troubles.map((t) => t.kind);
      for (let i = 0; i < 2; i++) {
        await p.tick();
        clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      }
      expect(kinds()).toEqual([]);
      await p.tick(); // the third failed look in a row (a rate limit counted among them)
      expect(troubles).toEqual([{ kind: 'failing', since: T0, now: clock.now() }]);
      clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      await p.tick(); // a fourth: said already
      expect(kinds()).toEqual(['failing']);
      clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      await p.tick(); // good again
      expect(kinds()).toEqual(['failing', 'recovered']);
      expect(troubles[1]).toMatchObject({ since: T0 });
      clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      await p.tick(); // one failure after recovery starts a new streak: nothing said
      expect(kinds()).toEqual(['failing', 'recovered']);
    });

    it('tells the watcher `long` once when a streak has lasted 15 minutes, and nothing on recovery before `failing`', async () => {
      let failing = true;
      const { watcher, troubles } = fakeWatcher((w) => {
        if (failing) throw apiError('internal_error', { status: 500 });
        return { state: w.state, done: false };
      });
      const watch = await addWatch();
      const p = poller({ watchers: { generation: watcher } });
      while (clock.now() < T0 + 20 * 60_000) {
        await p.tick();
        clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      }
      expect(troubles.map((t) => t.kind)).toEqual(['failing', 'long']);
      expect(troubles[1]?.now).toBeGreaterThanOrEqual(T0 + 15 * 60_000);
      expect(troubles[1]?.now).toBeLessThan(T0 + 15 * 60_000 + LATEST);
      failing = false;
      await p.tick();
      expect(troubles.map((t) => t.kind)).toEqual(['failing', 'long', 'recovered']);
      // Two failures, then good: the card never said anything, so there is nothing to clear.
      troubles.length = 0;
      failing = true;
      for (let i = 0; i < 2; i++) {
        clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
        await p.tick();
      }
      failing = false;
      clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      await p.tick();
      expect(troubles).toEqual([]);
    });

    it('keeps the watch going when the watcher’s trouble words throw', async () => {
      const { watcher } = fakeWatcher(() => {
        throw apiError('internal_error', { status: 500 });
      });
      const broken = {
        ...watcher,
        trouble: async () => {
          throw new Error('bug in trouble');
        },
      } satisfies Watcher;
      const watch = await addWatch();
      const p = poller({ watchers: { generation: broken } });
      for (let i = 0; i < 4; i++) {
        await p.tick();
        clock.current = (await store.watches.get(watch.id))!.nextCheckAt;
      }
      expect((await store.watches.get(watch.id))?.status).toBe('active');
      expect((await store.watches.get(watch.id))?.state[POLLER_STATE_KEY]).toMatchObject({ streak: 4 });
      expect(logger.lines.some((l) => l.level === 'error' && l.obj.watchId === watch.id)).toBe(true);
    });

    it('backs off exponentially on transient errors, up to the maximum interval', async () => {
      const { watcher } = fakeWatcher(() => {
        throw apiError('internal_error', { status: 500 });
      });
      const watch = await addWatch();
      const p = poller({ watchers: { generation: watcher } });
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        await p.tick();
        const next = (await store.watches.get(watch.id))!.nextCheckAt;
        waits.push(next - clock.now());
        clock.current = next;
      }
      expect(waits).toEqual([10_000, 20_000, LATEST, LATEST]);
      expect((await store.watches.get(watch.id))?.status).toBe('active');
    });

    it.each([
      ['unauthorized', 'revoked'],
      ['not_found', 'not-found'],
      ['forbidden_scope', 'forbidden'],
    ])('gives up after 3 consecutive %s, telling the watcher why (%s) once', async (type, reason) => {
      const { watcher, checked, expired, reasons } = fakeWatcher(() => {
        throw apiError(type, { status: 404 });
      });
      const watch = await addWatch();
      const p = poller({ watchers: { generation: watcher } });
      for (let i = 0; i < 5; i++) {
        await p.tick();
        clock.advance(HOUR);
      }
      expect(checked).toHaveLength(3);
      expect(expired.map((w) => w.id)).toEqual([watch.id]);
      expect(reasons).toEqual([reason]);
      expect((await store.watches.get(watch.id))?.status).toBe('expired');
    });

    it('tells the watcher `expired` when the watch outlived its age limit', async () => {
      const { watcher, reasons } = fakeWatcher();
      await addWatch({ expiresAt: T0 - 1 });
      await poller({ watchers: { generation: watcher } }).tick();
      expect(reasons).toEqual(['expired']);
    });

    it('names the last failure: a 404 then an unlinked key gives up for the unlinking', async () => {
      let linked = true;
      const { watcher, reasons } = fakeWatcher(() => {
        throw apiError('not_found', { status: 404 });
      });
      await addWatch();
      const { api } = scriptedApi((id) => processing(id, 10));
      const p = poller({ watchers: { generation: watcher }, apiFor: () => (linked ? api : undefined) });
      await p.tick();
      clock.advance(HOUR);
      linked = false;
      for (let i = 0; i < 3; i++) {
        await p.tick();
        clock.advance(HOUR);
      }
      expect(reasons).toEqual(['no-key']);
    });

    it('only gives up on consecutive permanent errors', async () => {
      const script = ['not_found', 'internal_error', 'not_found', 'not_found', 'timeout'];
      const { watcher, expired } = fakeWatcher(() => {
        throw apiError(script.shift() ?? 'internal_error');
      });
      const watch = await addWatch();
      const p = poller({ watchers: { generation: watcher } });
      for (let i = 0; i < 5; i++) {
        await p.tick();
        clock.advance(HOUR);
      }
      expect(expired).toEqual([]);
      expect((await store.watches.get(watch.id))?.status).toBe('active');
    });

    it('counts an unreadable key as a failure even when the budget lookup throws on it', async () => {
      const { watcher, expired } = fakeWatcher();
      const watch = await addWatch();
      const unreadable = () => {
        throw new Error('stored key unreadable');
      };
      const p = poller({ watchers: { generation: watcher }, apiFor: unreadable, budgetDelay: unreadable });
      await p.tick();
      expect((await store.watches.get(watch.id))?.state[POLLER_STATE_KEY]).toMatchObject({
        failures: 1,
        permanent: 1,
      });
      for (let i = 0; i < 2; i++) {
        clock.advance(HOUR);
        await p.tick();
      }
      expect(expired).toHaveLength(1);
    });

    it('gives up on an owner without a usable key as `no-key`', async () => {
      const { watcher, checked, expired, reasons } = fakeWatcher();
      await addWatch();
      const p = poller({
        watchers: { generation: watcher },
        apiFor: (owner) => {
          if (owner === ALICE) throw new Error('stored key unreadable');
          return undefined;
        },
      });
      for (let i = 0; i < 3; i++) {
        await p.tick();
        clock.advance(HOUR);
      }
      expect(checked).toEqual([]);
      expect(expired).toHaveLength(1);
      expect(reasons).toEqual(['no-key']);
    });

    it('survives a watcher that throws anything, logging the type and the watch, never the key', async () => {
      const secret = 'sk_live_0123456789abcdef';
      const { api } = scriptedApi(() => {
        throw new TypeError('boom');
      });
      const good = await addWatch({ target: 'good', kind: 'render' });
      const bad = await addWatch({ target: 'bad' });
      const { watcher: renderWatcher, checked } = fakeWatcher(undefined, { kind: 'render' });
      await poller({
        watchers: { generation: progressWatcher(), render: renderWatcher },
        apiFor: () => {
          void secret; // the key the client was built with stays inside the client
          return api;
        },
      }).tick();
      expect(checked.map((w) => w.id)).toEqual([good.id]);
      expect((await store.watches.get(bad.id))?.status).toBe('active');
      const warn = logger.lines.find((l) => l.obj.watchId === bad.id && l.level === 'warn');
      expect(warn?.obj).toMatchObject({
        errorType: 'unknown',
        kind: 'generation',
        err: { name: 'TypeError' },
      });
      expect(JSON.stringify(logger.lines)).not.toContain(secret);
    });

    it('logs API failures with their type, status and request id', async () => {
      const { watcher } = fakeWatcher(() => {
        throw apiError('internal_error', { status: 503, requestId: 'req_1' });
      });
      const watch = await addWatch();
      await poller({ watchers: { generation: watcher } }).tick();
      expect(logger.lines.find((l) => l.level === 'warn')?.obj).toMatchObject({
        watchId: watch.id,
        errorType: 'internal_error',
        status: 503,
        requestId: 'req_1',
        failures: 1,
      });
    });

    it('reschedules watches of a kind with no watcher instead of failing', async () => {
      const watch = await addWatch({ kind: 'feed' });
      await poller({ watchers: {} }).tick();
      expect(await store.watches.get(watch.id)).toMatchObject({ status: 'active', nextCheckAt: T0 + 60_000 });
    });
  });

  describe('Poller: concurrency and lifecycle', () => {
    it('never checks one watch twice at once, even across overlapping passes', async () => {
      const gate = deferred();
      const { watcher, checked } = fakeWatcher(async (w) => {
        await gate.promise;
        return { state: w.state, done: false };
      });
      await addWatch();
      const p = poller({ watchers: { generation: watcher } });
      const first = p.tick();
      await flush();
      const second = p.tick();
      await flush();
      expect(checked).toHaveLength(1);
      expect(p.inFlight).toBe(1);
      gate.resolve();
      await Promise.all([first, second]);
      expect(checked).toHaveLength(1);
      expect(p.inFlight).toBe(0);
    });

    it('runs at most `concurrency` checks at once', async () => {
      let running = 0;
      let peak = 0;
      const { watcher, checked } = fakeWatcher(async (w) => {
        running++;
        peak = Math.max(peak, running);
        await flush();
        running--;
        return { state: w.state, done: false };
      });
      for (let i = 0; i < 7; i++) await addWatch({ target: `v${i}` });
      await poller({ watchers: { generation: watcher }, concurrency: 2 }).tick();
      expect(checked).toHaveLength(7);
      expect(peak).toBe(2);
    });

    it('stop() waits for the running checks to commit and starts no new ones', async () => {
      const gate = deferred();
      const { watcher, checked } = fakeWatcher(async (w) => {
        await gate.promise;
        return { state: { ...w.state, finished: true }, done: false };
      });
      const a = await addWatch({ target: 'a' });
      await addWatch({ target: 'b', nextCheckAt: T0 + 1 });
      const p = poller({ watchers: { generation: watcher }, concurrency: 1 });
      void p.tick();
      await flush();
      let stopped = false;
      const stopping = p.stop().then(() => {
        stopped = true;
      });
      await flush();
      expect(stopped).toBe(false);
      gate.resolve();
      await stopping;
      expect((await store.watches.get(a.id))?.state).toEqual({ finished: true });
      clock.advance(HOUR);
      await p.tick();
      expect(checked.map((w) => w.target)).toEqual(['a']);
    });

    it('stop() cancels API calls still waiting and leaves their watch due for the next process', async () => {
      const { api, calls } = scriptedApi(
        (_id, options) =>
          new Promise((_resolve, reject) => {
            options?.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
          }),
      );
      const watch = await addWatch({ state: { checks: 2 } });
      const outcomes: string[] = [];
      const pass = poller({
        watchers: { generation: progressWatcher() },
        apiFor: () => api,
        metrics: { lag: () => {}, checked: (_k, outcome) => outcomes.push(outcome) },
      });
      const ticking = pass.tick();
      await flush();
      expect(calls).toHaveLength(1);
      await pass.stop();
      await ticking;
      expect(outcomes).toEqual(['interrupted']);
      expect(await store.watches.get(watch.id)).toMatchObject({
        status: 'active',
        nextCheckAt: T0,
        state: { checks: 2 },
      });
    });

    it('skips a watch cancelled while it waited for a slot', async () => {
      const gate = deferred();
      const { watcher, checked } = fakeWatcher(async (w) => {
        await gate.promise;
        return { state: w.state, done: false };
      });
      await addWatch({ target: 'a' });
      const b = await addWatch({ target: 'b' });
      const pass = poller({ watchers: { generation: watcher }, concurrency: 1 }).tick();
      await flush();
      await store.watches.update(b.id, { status: 'done' });
      gate.resolve();
      await pass;
      expect(checked.map((w) => w.target)).toEqual(['a']);
    });

    it('stop() drops checks still waiting for a slot', async () => {
      const gate = deferred();
      const { watcher, checked } = fakeWatcher(async (w) => {
        await gate.promise;
        return { state: w.state, done: false };
      });
      await addWatch({ target: 'a' });
      await addWatch({ target: 'b' });
      const p = poller({ watchers: { generation: watcher }, concurrency: 1 });
      const pass = p.tick();
      await flush();
      const stopping = p.stop();
      gate.resolve();
      await Promise.all([pass, stopping]);
      expect(checked.map((w) => w.target)).toEqual(['a']);
    });

    it('start() polls on its own until stop()', async () => {
      const { watcher, checked } = fakeWatcher((w) => ({ state: w.state, done: true }));
      await addWatch();
      const p = poller({ watchers: { generation: watcher }, intervalMs: 10 });
      p.start();
      await expect.poll(() => checked.length).toBe(1);
      await addWatch({ target: 'later' });
      await expect.poll(() => checked.length).toBe(2);
      await p.stop();
    });

    it('builds a fresh background client per check from apiFor (no cached clients)', async () => {
      const { api } = scriptedApi((id) => processing(id, 1));
      let built = 0;
      await addWatch();
      const p = poller({
        watchers: { generation: progressWatcher() },
        apiFor: (): VideoApi => {
          built++;
          return api;
        },
      });
      await p.tick();
      clock.advance(HOUR);
      await p.tick();
      expect(built).toBe(2);
    });
  });

  describe('Poller: lease metrics (replicas, issue 17)', () => {
    const recorded = () => {
      const claims: [string, number, number][] = [];
      const lost: WatchKind[] = [];
      const metricsOf = (holder: string) => ({
        checked: () => {},
        lag: () => {},
        claims: (claimed: number, taken: number) => claims.push([holder, claimed, taken]),
        leaseLost: (kind: WatchKind) => lost.push(kind),
      });
      return { claims, lost, metricsOf };
    };

    it('reports each claim, and a result dropped because another poller took the lapsed lease over', async () => {
      const { claims, lost, metricsOf } = recorded();
      await addWatch();
      const hung = deferred();
      const slow = fakeWatcher(async (w) => {
        await hung.promise;
        return { state: w.state, done: false };
      });
      const quick = fakeWatcher();
      const leases = { leaseMs: 5_000 };
      const a = poller({
        watchers: { generation: slow.watcher },
        holder: 'a',
        ...leases,
        metrics: metricsOf('a'),
      });
      const b = poller({
        watchers: { generation: quick.watcher },
        holder: 'b',
        ...leases,
        metrics: metricsOf('b'),
      });
      const stuck = a.tick();
      await expect.poll(() => slow.checked.length).toBe(1);
      clock.advance(5_000);
      await b.tick(); // a's lease lapsed: b checks and commits
      hung.resolve();
      await stuck;
      expect(claims).toEqual([
        ['a', 1, 0],
        ['b', 1, 0],
      ]);
      expect(lost).toEqual(['generation']);
    });

    it('counts as taken the due watches another poller leased between due and claim', async () => {
      const { claims, lost, metricsOf } = recorded();
      const [first] = [await addWatch(), await addWatch({ target: 'v2' })];
      // Another replica leases the first watch just after this poller listed the due ones.
      const watches = new Proxy(store.watches, {
        get(target, key) {
          if (key !== 'due') return Reflect.get(target, key);
          return async (...args: Parameters<typeof target.due>) => {
            const due = await target.due(...args);
            await target.claim([first?.id as string], {
              holder: 'other',
              now: clock.now(),
              until: clock.now() + HOUR,
            });
            return due;
          };
        },
      });
      const racing = new Proxy(store, {
        get(target, key) {
          if (key === 'watches') return watches;
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const { watcher, checked } = fakeWatcher();
      await poller({ store: racing, watchers: { generation: watcher }, metrics: metricsOf('b') }).tick();
      expect(checked.map((w) => w.target)).toEqual(['v2']);
      expect(claims).toEqual([['b', 1, 1]]);
      expect(lost).toEqual([]);
    });
  });
});
