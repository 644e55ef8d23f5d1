/** How the poller meets a failing check: rate limits, backoff, giving up, and telling the card. */
import { describe, expect, it } from 'vitest';
import type { Watcher } from '../../src/core/live/watcher.js';
import { POLLER_STATE_KEY } from '../../src/poller/failure-state.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import {
  addWatch,
  apiError,
  clock,
  fakeWatcher,
  HOUR,
  LATEST,
  logger,
  onEachStore,
  poller,
  store,
} from './poller-world.js';
import { ALICE, processing, scriptedApi, T0 } from './support.js';

onEachStore(() => {
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
        clock.set((await store.watches.get(watch.id))!.nextCheckAt);
      }
      expect(kinds()).toEqual([]);
      await p.tick(); // the third failed look in a row (a rate limit counted among them)
      expect(troubles).toEqual([{ kind: 'failing', since: T0, now: clock.now() }]);
      clock.set((await store.watches.get(watch.id))!.nextCheckAt);
      await p.tick(); // a fourth: said already
      expect(kinds()).toEqual(['failing']);
      clock.set((await store.watches.get(watch.id))!.nextCheckAt);
      await p.tick(); // good again
      expect(kinds()).toEqual(['failing', 'recovered']);
      expect(troubles[1]).toMatchObject({ since: T0 });
      clock.set((await store.watches.get(watch.id))!.nextCheckAt);
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
        clock.set((await store.watches.get(watch.id))!.nextCheckAt);
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
        clock.set((await store.watches.get(watch.id))!.nextCheckAt);
        await p.tick();
      }
      failing = false;
      clock.set((await store.watches.get(watch.id))!.nextCheckAt);
      await p.tick();
      expect(troubles).toEqual([]);
    });

    it('keeps the watch going when the watcher’s trouble words throw', async () => {
      const { watcher } = fakeWatcher(() => {
        throw apiError('internal_error', { status: 500 });
      });
      const broken = {
        ...watcher,
        trouble: () => Promise.reject(new Error('bug in trouble')),
      } satisfies Watcher;
      const watch = await addWatch();
      const p = poller({ watchers: { generation: broken } });
      for (let i = 0; i < 4; i++) {
        await p.tick();
        clock.set((await store.watches.get(watch.id))!.nextCheckAt);
      }
      const kept = await store.watches.get(watch.id);
      expect(kept?.status).toBe('active');
      expect(kept?.state[POLLER_STATE_KEY]).toMatchObject({ streak: 4 });
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
        clock.set(next);
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
});
