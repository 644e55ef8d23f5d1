/** The poller runs many checks at once, one per owner at a time, and starts and stops cleanly. */
import { describe, expect, it } from 'vitest';
import type { VideoApi } from '../../src/core/video-api/video-api.js';
import { Notifier } from '../support/latch.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import { addWatch, clock, fakeWatcher, HOUR, onEachStore, poller, store } from './poller-world.js';
import { ALICE, deferred, flush, processing, scriptedApi, T0 } from './support.js';

onEachStore(() => {
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
      await clock.armed();
      clock.advance(10);
      await expect.poll(() => checked.length).toBe(2);
      await p.stop();
      expect(clock.pending()).toEqual([]);
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
});
