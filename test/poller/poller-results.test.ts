/** What the poller does with a check's result, and with a watch that expires. */
import { describe, expect, it } from 'vitest';
import { postCard, videoCardKey } from '../../src/core/live/live-card.js';
import type { Watcher } from '../../src/core/live/watcher.js';
import { md } from '../../src/core/text/text.js';
import { POLLER_STATE_KEY } from '../../src/poller/failure-state.js';
import { progressWatcher } from './fixtures/progress-watcher.js';
import {
  addWatch,
  apiError,
  clock,
  fakeWatcher,
  HOUR,
  logger,
  onEachStore,
  poller,
  store,
} from './poller-world.js';
import { CONV, completed, deferred, flush, processing, scriptedApi, T0 } from './support.js';

onEachStore(() => {
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
        expire: () => Promise.reject(new Error('bug in expire')),
      } satisfies Watcher;
      await poller({ watchers: { generation: broken } }).tick();
      expect((await store.watches.get(watch.id))?.status).toBe('expired');
      expect(logger.lines.some((l) => l.level === 'error' && l.obj.watchId === watch.id)).toBe(true);
    });
  });
});
